"""No shared place by accident (issue 46): the finish draws lots for the players the tie-breaks
leave level, recorded with who drew them and when; an organizer draws them for a tournament
finished before the finish did (the service, its page action and its API), and nobody else; a
pointless or untimely draw is refused and changes nothing. The standings show the lots and a
legend of their marks, the pairings say when a round is complete, and each format's default
tie-break order is what a new tournament gets on the form, through the API and the services."""

import pytest
from django.urls import reverse

from tests.support.database import database_state
from tournaments import services
from tournaments.errors import Conflict, NotAllowed
from tournaments.matches.results import match_result_record
from tournaments.models import DEFAULT_TIEBREAKS, Lots, Tournament
from tournaments.selectors import tournament_standings
from tournaments.standings import lot_order

pytestmark = pytest.mark.django_db

#: A round robin of four played so that Anna and Boris end on 2 points, Carl and Dina on 1.
CYCLE = [("Anna", "Boris"), ("Boris", "Carl"), ("Carl", "Dina"), ("Dina", "Anna"),
         ("Anna", "Carl"), ("Boris", "Dina")]  # fmt: skip


def win(site, winner: str, loser: str) -> None:
    match = site.match(winner, loser)
    home_won = match.home.player.display_name == winner
    match_result_record(match=match, by=site.organizer, score=(3, 0) if home_won else (0, 3))


def played_level(new_site, **rules):
    """Olga's round robin of four, every match played (``CYCLE``): with no tie-break, Anna and
    Boris share first place and Carl and Dina third."""
    site = new_site(rated=False, tiebreaks=[], **rules)
    for winner, loser in CYCLE:
        win(site, winner, loser)
    return site


def finished_before_lots(site) -> Tournament:
    """The tournament as one finished before the finish drew lots: finished, none drawn."""
    Tournament.objects.filter(pk=site.tournament.pk).update(status=Tournament.Status.FINISHED)
    site.tournament.refresh_from_db()
    return site.tournament


def ranks(tournament: Tournament) -> dict[str, int]:
    tournament.refresh_from_db()  # a service may have changed it (its status)
    return {
        standing.entry.player.display_name: standing.row.rank
        for standing in tournament_standings(tournament=tournament)
    }


# --- The service ----------------------------------------------------------------------------------


def test_the_finish_draws_lots_for_the_level_players_as_the_one_who_finished(new_site):
    site = played_level(new_site)
    assert sorted(ranks(site.tournament).values()) == [1, 1, 3, 3]

    services.tournament_finish(tournament=site.tournament, by=site.organizer)

    lots = Lots.objects.get(tournament=site.tournament)
    assert lots.drawn_by == site.organizer and lots.drawn_at is not None
    site.tournament.refresh_from_db()
    standings = tournament_standings(tournament=site.tournament)
    assert [standing.row.rank for standing in standings] == [1, 2, 3, 4]
    drawn = lot_order(lots.seed, [standing.entry.pk for standing in standings])
    top = [standing.entry.pk for standing in standings[:2]]
    assert top == [pk for pk in drawn if pk in top]  # in the order the seed draws
    assert [standing.row.lot for standing in standings] == [1, 2, 1, 2]
    assert {s.entry.player.display_name for s in standings[:2]} == {"Anna", "Boris"}


def test_the_finish_draws_nothing_when_the_tie_breaks_decide(new_site):
    site = new_site(rated=False)  # the round robin's default order
    for winner, loser in [("Anna", "Boris"), ("Anna", "Carl"), ("Anna", "Dina"),
                          ("Boris", "Carl"), ("Boris", "Dina"), ("Carl", "Dina")]:  # fmt: skip
        win(site, winner, loser)

    services.tournament_finish(tournament=site.tournament, by=site.organizer)

    assert not Lots.objects.exists()
    assert ranks(site.tournament) == {"Anna": 1, "Boris": 2, "Carl": 3, "Dina": 4}


def test_an_organizer_draws_lots_for_a_tournament_finished_before_the_finish_did(new_site):
    site = played_level(new_site)
    tournament = finished_before_lots(site)

    lots = services.tournament_lots_draw(tournament=tournament, by=site.organizer)

    assert lots.drawn_by == site.organizer
    assert sorted(ranks(tournament).values()) == [1, 2, 3, 4]


@pytest.mark.parametrize("who", ["outsider", "anna"])
def test_nobody_else_draws_lots_and_nothing_changes(new_site, who):
    site = played_level(new_site)
    tournament = finished_before_lots(site)
    user = site.outsider if who == "outsider" else site.players["Anna"]
    before = database_state()

    with pytest.raises(NotAllowed):
        services.tournament_lots_draw(tournament=tournament, by=user)

    assert database_state() == before


def test_a_draw_before_the_finish_twice_or_with_shared_places_chosen_is_refused(new_site):
    site = played_level(new_site)
    with pytest.raises(Conflict, match="when the tournament finishes"):
        services.tournament_lots_draw(tournament=site.tournament, by=site.organizer)
    services.tournament_finish(tournament=site.tournament, by=site.organizer)
    before = database_state()
    with pytest.raises(Conflict, match="drawn already"):
        services.tournament_lots_draw(tournament=site.tournament, by=site.organizer)
    assert database_state() == before


def test_with_shared_places_chosen_the_level_players_share_and_no_lots_are_drawn(new_site):
    site = played_level(new_site, shared_places=True)
    services.tournament_finish(tournament=site.tournament, by=site.organizer)
    assert sorted(ranks(site.tournament).values()) == [1, 1, 3, 3]  # as the organizer chose
    before = database_state()

    with pytest.raises(Conflict, match="share their place"):
        services.tournament_lots_draw(tournament=site.tournament, by=site.organizer)

    assert database_state() == before and not Lots.objects.exists()


def test_a_draw_where_no_place_is_shared_is_refused(new_site):
    site = new_site(rated=False, tiebreaks=[])
    for winner, loser in [("Anna", "Boris"), ("Anna", "Carl"), ("Anna", "Dina"),
                          ("Boris", "Carl"), ("Boris", "Dina"), ("Carl", "Dina")]:  # fmt: skip
        win(site, winner, loser)
    tournament = finished_before_lots(site)
    before = database_state()

    with pytest.raises(Conflict, match="No place is shared"):
        services.tournament_lots_draw(tournament=tournament, by=site.organizer)

    assert database_state() == before


# --- The pages ------------------------------------------------------------------------------------


def test_the_standings_mark_the_places_decided_by_lots_and_say_who_drew_them(client, new_site):
    site = played_level(new_site)
    services.tournament_finish(tournament=site.tournament, by=site.organizer)
    lots = Lots.objects.get()

    page = client.get(reverse("tournament-standings", args=[site.tournament.slug]))

    text = page.content.decode()
    assert text.count('data-role="lot"') == 4
    assert 'data-role="lots-note"' in text
    assert 'Drawn by <span translate="no">olga</span> on' in text and f"seed {lots.seed}" in text


def test_the_organizer_of_a_tournament_finished_before_lots_draws_them_from_its_page(
    client, new_site
):
    site = played_level(new_site)
    tournament = finished_before_lots(site)
    page = reverse("tournament", args=[tournament.slug])
    client.force_login(site.players["Anna"])
    assert 'data-step="lots"' not in client.get(page).content.decode()
    client.force_login(site.organizer)
    assert 'data-step="lots"' in client.get(page).content.decode()

    answer = client.post(reverse("tournament-step", args=[tournament.slug, "lots"]), follow=True)

    assert "The lots are drawn: every place is decided." in answer.content.decode()
    assert Lots.objects.get().drawn_by == site.organizer
    assert 'data-step="lots"' not in client.get(page).content.decode()
    refused = client.post(reverse("tournament-step", args=[tournament.slug, "lots"]))
    assert refused.status_code == 409 and Lots.objects.count() == 1


def test_the_forfeit_marks_have_a_legend(client, new_site):
    site = new_site(rated=False)
    page = reverse("tournament-standings", args=[site.tournament.slug])
    assert 'data-role="forfeits-legend"' not in client.get(page).content.decode()
    rounds = client.get(reverse("tournament-rounds", args=[site.tournament.slug]))
    assert 'data-role="forfeits-legend"' not in rounds.content.decode()

    match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, forfeit="away")

    text = client.get(page).content.decode()
    assert 'data-role="forfeits-legend"' in text and "a match won by forfeit" in text
    rounds = client.get(reverse("tournament-rounds", args=[site.tournament.slug]))
    assert 'data-role="forfeits-legend"' in rounds.content.decode()


def test_the_pairings_and_the_tournament_page_say_when_a_round_is_complete(client, new_site):
    site = new_site(rated=False)
    rounds_page = reverse("tournament-rounds", args=[site.tournament.slug])
    assert 'data-role="round-complete"' not in client.get(rounds_page).content.decode()
    first = site.tournament.rounds.get(number=1)
    for match in first.matches.exclude(away=None):
        match_result_record(match=match, by=site.organizer, score=(3, 0))

    text = client.get(rounds_page).content.decode()
    assert text.count('data-role="round-complete"') == 1
    assert "Round 1 is complete: every match is decided." in text
    overview = client.get(reverse("tournament", args=[site.tournament.slug])).content.decode()
    assert "Round 1 is complete." in overview


def test_a_new_tournaments_form_starts_with_the_round_robins_order(client, new_site):
    site = new_site()
    client.force_login(site.organizer)

    form = client.get(reverse("tournament-create")).context["form"]

    assert form["tiebreaks"].value() == list(DEFAULT_TIEBREAKS["round-robin"])
    assert "data-defaults=" in str(form["tiebreaks"])


# --- The API --------------------------------------------------------------------------------------


def test_the_api_serves_the_lots_and_each_rows_number_in_them(client, new_site):
    site = played_level(new_site)
    slug = site.tournament.slug
    assert client.get(f"/api/v1/tournaments/{slug}/lots").status_code == 404
    services.tournament_finish(tournament=site.tournament, by=site.organizer)

    rows = client.get(f"/api/v1/tournaments/{slug}/standings/").json()
    drawn = client.get(f"/api/v1/tournaments/{slug}/lots").json()

    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    assert [row["lot"] for row in rows] == [1, 2, 1, 2]
    assert {"match_points", "tiebreaks", "forfeits_won", "out"} <= set(rows[0])  # kept
    assert drawn["drawn_by"] == "olga" and drawn["seed"] == Lots.objects.get().seed
    assert drawn["order"] == lot_order(drawn["seed"], [row["entry_id"] for row in rows])


def test_an_organizer_draws_lots_through_the_api_once(client, new_site):
    site = played_level(new_site)
    slug = finished_before_lots(site).slug
    client.force_login(site.players["Anna"])
    assert client.post(f"/api/v1/tournaments/{slug}/lots").status_code == 403
    client.force_login(site.organizer)

    drawn = client.post(f"/api/v1/tournaments/{slug}/lots")
    again = client.post(f"/api/v1/tournaments/{slug}/lots")

    assert drawn.status_code == 201 and drawn.json()["drawn_by"] == "olga"
    assert again.status_code == 409 and Lots.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "order"),
    [
        ({"format": "swiss", "swiss_rounds": 5}, DEFAULT_TIEBREAKS["swiss"]),
        ({"format": "round-robin"}, DEFAULT_TIEBREAKS["round-robin"]),
        ({"format": "swiss", "swiss_rounds": 5, "tiebreaks": ["wins"]}, ("wins",)),
        ({"format": "single-elimination"}, ()),
    ],
)
def test_the_api_creates_a_tournament_with_its_formats_order_unless_one_is_given(
    client, new_site, body, order
):
    site = new_site()
    client.force_login(site.organizer)

    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Friday", "variant": "long", **body},
        content_type="application/json",
    )

    assert made.status_code == 201, made.content
    assert made.json()["tiebreaks"] == list(order)
    assert made.json()["shared_places"] is False

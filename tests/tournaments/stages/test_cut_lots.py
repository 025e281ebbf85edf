"""No shared place by accident at the cut of a two-stage event (issue 46): building stage 2 draws
lots for a group whose players the tie-breaks leave level where the order decides who goes on
or their seeds, recorded with who built it and when, even when the event's players share their
places otherwise; the lots put the qualifier first, anyone can draw them again from the seed,
and a reset of stage 2 keeps them for the rebuild. A tie below the cut draws none."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Lots, Match, Player, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)
from tournaments.stages.selectors import qualifiers
from tournaments.stages.services import stage_two_build, stage_two_reset
from tournaments.standings import lot_order

pytestmark = pytest.mark.django_db

#: Snake-dealt into two groups of four: A = Anna, Dina, Emil, Hugo; B = Boris, Carl, Fatma, Gia.
NAMES = ["Anna", "Boris", "Carl", "Dina", "Emil", "Fatma", "Gia", "Hugo"]
#: Who beats whom: each group's first seed beats the other three, who beat each other in a
#: cycle, so they stay level on one point (with no tie-break) behind the group's winner.
BEATS = {
    ("Anna", "Dina"), ("Anna", "Emil"), ("Anna", "Hugo"),
    ("Dina", "Emil"), ("Emil", "Hugo"), ("Hugo", "Dina"),
    ("Boris", "Carl"), ("Boris", "Fatma"), ("Boris", "Gia"),
    ("Carl", "Fatma"), ("Fatma", "Gia"), ("Gia", "Carl"),
}  # fmt: skip


@pytest.fixture
def olga():
    return User.objects.create_user("olga")


def played(organizer: User, advance: int, **settings) -> Tournament:
    """Olga's two groups of four with no tie-break, every group match played (``BEATS``)."""
    cup = tournament_create(organizer=organizer, name="Spring Cup", variant="long",
                            match_length=1, first_stage="groups", format="single-elimination",
                            groups=2, advance=advance, tiebreaks=[], **settings)  # fmt: skip
    cup = tournament_open_registration(tournament=cup, by=organizer)
    for seed, name in enumerate(NAMES, start=1):
        entry_register(tournament=cup, by=organizer, seed=seed,
                       player=Player.objects.create(display_name=name))  # fmt: skip
    tournament_start(tournament=cup, by=organizer)
    matches = Match.objects.filter(tournament__parent=cup, away__isnull=False)
    for match in matches.select_related("home__player", "away__player"):
        home_won = (match.home.player.display_name, match.away.player.display_name) in BEATS
        match_result_record(match=match, by=organizer, score=(1, 0) if home_won else (0, 1))
    return cup


def group(cup: Tournament, letter: str) -> Tournament:
    return cup.stages.get(stage=1, group=letter)


def names(tournament: Tournament) -> list[str]:
    return [s.entry.player.display_name for s in tournament_standings(tournament=tournament)]


def test_a_tie_at_the_cut_is_decided_by_lots_drawn_as_stage_2_is_built(olga):
    # The event's players would share their places: a cut must be decided all the same.
    cup = played(olga, advance=2, shared_places=True)
    assert not Lots.objects.exists()
    bracket = stage_two_build(event=cup, by=olga)
    for letter, winner in (("A", "Anna"), ("B", "Boris")):
        stage = group(cup, letter)
        lots = Lots.objects.get(tournament=stage)
        assert lots.drawn_by == olga and lots.drawn_at is not None
        entries = sorted(stage.entries.values_list("pk", flat=True))
        assert lots.order == lot_order(lots.seed, entries)  # anyone can draw it again
        standings = tournament_standings(tournament=stage)
        assert [s.row.rank for s in standings] == [1, 2, 3, 4]
        assert [s.row.lot for s in standings] == [None, 1, 2, 3]
        assert standings[0].entry.player.display_name == winner
        level = [s.entry.pk for s in standings[1:]]
        assert level == [pk for pk in lots.order if pk in level]  # in the order drawn
    second = {letter: names(group(cup, letter))[1] for letter in "AB"}
    seeds = [(q.seed, q.player.display_name) for q in qualifiers(cup)]
    assert seeds == [(1, "Anna"), (2, "Boris"), (3, second["A"]), (4, second["B"])]
    assert set(bracket.entries.values_list("player__display_name", flat=True)) == {
        "Anna", "Boris", second["A"], second["B"]
    }  # fmt: skip


def test_a_reset_of_stage_2_keeps_the_lots_for_the_rebuild(olga):
    cup = played(olga, advance=2)
    stage_two_build(event=cup, by=olga)
    drawn = {lots.pk: (lots.seed, lots.order) for lots in Lots.objects.all()}
    went_on = set(cup.stages.get(stage=2).entries.values_list("player_id", flat=True))
    stage_two_reset(event=cup, by=olga)
    oscar = User.objects.create_user("oscar")
    cup.co_organizers.add(oscar)
    stage_two_build(event=cup, by=oscar)  # the same draw, whoever builds again
    assert {lots.pk: (lots.seed, lots.order) for lots in Lots.objects.all()} == drawn
    assert set(Lots.objects.values_list("drawn_by", flat=True)) == {olga.pk}
    assert set(cup.stages.get(stage=2).entries.values_list("player_id", flat=True)) == went_on


def test_a_correction_after_a_reset_is_ordered_by_the_same_draw(olga):
    cup = played(olga, advance=2)
    stage_two_build(event=cup, by=olga)
    stage = group(cup, "A")
    lots = Lots.objects.get(tournament=stage)
    stage_two_reset(event=cup, by=olga)
    match = stage.matches.get(home__player__display_name__in=["Anna", "Dina"],
                              away__player__display_name__in=["Anna", "Dina"])  # fmt: skip
    anna_home = match.home.player.display_name == "Anna"
    match_result_correct(match=match, by=olga, score=(0, 1) if anna_home else (1, 0))
    stage_two_build(event=cup, by=olga)  # Anna and Dina level on 2 points, Emil and Hugo on 1
    assert Lots.objects.get(tournament=stage) == lots
    standings = tournament_standings(tournament=stage)
    assert [s.row.lot for s in standings] == [1, 2, 1, 2]
    for level in (standings[:2], standings[2:]):
        drawn = [s.entry.pk for s in level]
        assert drawn == [pk for pk in lots.order if pk in drawn]
    assert {s.entry.player.display_name for s in standings[:2]} == {"Anna", "Dina"}


def test_a_tie_below_the_cut_draws_no_lots(olga):
    cup = played(olga, advance=1)  # the level three are all behind the one who goes on
    stage_two_build(event=cup, by=olga)
    assert not Lots.objects.exists()
    assert [q.player.display_name for q in qualifiers(cup)] == ["Anna", "Boris"]
    assert [s.row.rank for s in tournament_standings(tournament=group(cup, "A"))] == [1, 2, 2, 2]


def test_the_group_standings_show_the_lots_drawn_at_the_cut(client, olga):
    cup = played(olga, advance=2)
    stage_two_build(event=cup, by=olga)
    stage = group(cup, "A")
    lots = Lots.objects.get(tournament=stage)
    page = client.get(reverse("tournament-standings", args=[stage.slug])).content.decode()
    assert page.count('data-role="lot"') == 3
    assert "lot 1</span>" in page
    assert "when stage 2 was built" in page
    assert f"(seed {lots.seed})" in page
    assert "olga" in page


def test_the_event_page_says_lots_will_decide_the_cut_then_shows_them(client, olga):
    cup = played(olga, advance=2)
    page = reverse("tournament", args=[cup.slug])
    before = client.get(page).content.decode()
    assert 'data-role="lots-due"' in before and 'data-role="lot"' not in before
    stage_two_build(event=cup, by=olga)
    after = client.get(page).content.decode()
    assert 'data-role="lots-due"' not in after
    assert after.count('data-role="lot"') == 6  # both groups' three level players


def test_no_lots_are_due_when_the_cut_is_decided(client, olga):
    cup = played(olga, advance=1)
    page = client.get(reverse("tournament", args=[cup.slug])).content.decode()
    assert 'data-role="qualifiers"' in page and 'data-role="lots-due"' not in page


def test_the_lots_at_the_cut_are_said_in_russian(client, olga):
    cup = played(olga, advance=2)
    before = client.get(reverse("tournament", args=[cup.slug]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "решит жребий при построении второго этапа" in before.content.decode()
    stage_two_build(event=cup, by=olga)
    url = reverse("tournament-standings", args=[group(cup, "A").slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "жребий 1</span>" in page
    assert "брошенный при построении второго этапа" in page


def test_a_tie_at_the_cut_of_a_swiss_is_decided_by_lots(olga):
    from tournaments.services import swiss_round_pair  # noqa: PLC0415

    cup = tournament_create(organizer=olga, name="Autumn Cup", variant="long", match_length=1,
                            first_stage="swiss", swiss_rounds=2, advance=2, tiebreaks=[],
                            format="single-elimination")  # fmt: skip
    cup = tournament_open_registration(tournament=cup, by=olga)
    for seed, name in enumerate(NAMES[:6], start=1):
        entry_register(tournament=cup, by=olga, seed=seed,
                       player=Player.objects.create(display_name=name))  # fmt: skip
    tournament_start(tournament=cup, by=olga)
    (swiss,) = cup.stages.all()
    for number in range(2):
        if number:
            swiss_round_pair(tournament=swiss, by=olga)
        for match in swiss.matches.filter(status=Match.Status.SCHEDULED, away__isnull=False):
            match_result_record(match=match, by=olga, score=(1, 0))  # the home side wins
    rows = [s.row for s in tournament_standings(tournament=swiss)]
    level = [row.entrant.id for row in rows if row.match_points == rows[1].match_points]
    assert len(level) > 1  # two rounds of six leave players level among the top two
    stage_two_build(event=cup, by=olga)
    lots = Lots.objects.get(tournament=swiss)
    assert lots.drawn_by == olga
    standings = tournament_standings(tournament=swiss)
    assert [s.row.rank for s in standings] == [1, 2, 3, 4, 5, 6]
    in_order = [s.entry.pk for s in standings if s.entry.pk in level]
    assert in_order == [pk for pk in lots.order if pk in level]
    went_on = [q.player for q in qualifiers(cup)]
    assert went_on == [s.entry.player for s in standings[:2]]


def test_the_rules_say_that_lots_decide_the_cut(client, olga):
    cup = played(olga, advance=2, shared_places=True)
    for tournament in (cup, group(cup, "A")):
        page = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
        assert "lots drawn when stage 2 is built" in page
        assert "lots are drawn when the tournament finishes" not in page

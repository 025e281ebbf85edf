"""Pairs, the Short Nardy discipline of two players as one side (issue 31): pairs entered through
the API (the contract) and the players page, a pairs Swiss and a pairs knockout played to their
end, the pairs rated on a list of their own while the players' own lists do not move, and every
refusal with its reason and nothing changed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments import services
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.matches.results import match_result_confirm, match_result_record
from tournaments.models import Entry, Match, Pair, Player, Tournament
from tournaments.policy import match_side
from tournaments.ratings import services as approvals
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import Rating, RatingChange, RatingList
from tournaments.selectors import tournament_standings

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Boris", "Carl", "Dina", "Emil", "Fedor", "Gala", "Hugo"]


def players() -> list[Player]:
    return [Player.objects.create(display_name=name) for name in NAMES]


def pairs_event(olga: User, format: str, **rules) -> Tournament:
    return services.tournament_create(
        organizer=olga, name=f"Pairs {format}", variant="short", format=format, pairs=True,
        match_length=3, **rules,
    )  # fmt: skip


def api_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def enter_pairs_by_api(olga: User, tournament: Tournament, people: list[Player]) -> list[Entry]:
    client = api_client(olga)
    entries = []
    for number, (first, second) in enumerate(zip(people[::2], people[1::2], strict=True)):
        answer = client.post(
            f"/api/v1/tournaments/{tournament.slug}/entries/new",
            {"player_id": first.pk, "partner_id": second.pk, "name": f"Team {number + 1}"},
            "application/json",
        )
        assert answer.status_code == 201, answer.content
        data = answer.json()
        assert data["player"]["display_name"] == f"Team {number + 1}"
        assert [member["id"] for member in data["members"]] == [first.pk, second.pk]
        entries.append(Entry.objects.get(pk=data["id"]))
    return entries


def rated(tournament: Tournament) -> None:
    officer = User.objects.create_user(f"rita-{tournament.pk}")
    rating_list_of(tournament).officers.add(officer)
    approvals.ratings_approve(tournament=tournament, by=officer)


def play_round(tournament: Tournament, olga: User, commit) -> None:
    """Every scheduled match of the tournament: the home side wins 3-1."""
    for match in (
        tournament.matches.filter(status=Match.Status.SCHEDULED)
        .exclude(away__isnull=True)
        .exclude(home__isnull=True)
        .order_by("pk")
    ):
        commit(lambda m=match: match_result_record(match=m, by=olga, score=(3, 1)))


@pytest.fixture
def commit(django_capture_on_commit_callbacks, eager_tasks):
    def run(call):  # the write and the rating tasks it enqueues, as when it commits
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    return run


def test_a_pairs_swiss_runs_to_its_end_rated_on_the_pairs_list_alone(commit):
    olga = User.objects.create_user("olga")
    people = players()
    cup = pairs_event(olga, "swiss", swiss_rounds=2)
    assert cup.pairs
    entries = enter_pairs_by_api(olga, cup, people)
    rated(cup)
    commit(lambda: services.tournament_start(tournament=cup, by=olga))
    play_round(cup, olga, commit)
    commit(lambda: services.swiss_round_pair(tournament=cup, by=olga))
    play_round(cup, olga, commit)
    commit(lambda: services.tournament_finish(tournament=cup, by=olga))
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    standings = tournament_standings(tournament=cup)
    assert {standing.entry for standing in standings} == set(entries)
    assert sum(standing.row.wins for standing in standings) == 4  # 2 rounds of 2 matches
    # The pairs are rated on the pairs' list; the players' own lists have nothing.
    pairs_list = RatingList.objects.get(system="fibs", discipline="short-pairs")
    assert set(Rating.objects.filter(rating_list=pairs_list).values_list("player", flat=True)) == {
        entry.player_id for entry in entries
    }
    assert RatingChange.objects.filter(rating_list=pairs_list).count() == 2 * 4
    assert not Rating.objects.filter(player__in=people).exists()
    assert not RatingChange.objects.filter(player__in=people).exists()
    others = RatingList.objects.exclude(discipline="short-pairs")
    assert not others.filter(ratings__isnull=False).exists()
    page = Client().get("/ratings/short-pairs/")
    assert b"Team 1" in page.content
    # The pairs' list's old address sends the reader on to its own.
    old = Client().get("/ratings/short/?pairs=1&system=fibs")
    assert old.status_code == 301 and old["Location"] == "/ratings/short-pairs/?system=fibs"
    assert b"Team 1" not in Client().get("/ratings/short/").content


def test_a_pairs_knockout_runs_to_its_end(commit):
    olga = User.objects.create_user("olga")
    people = players()
    cup = pairs_event(olga, "single-elimination")
    enter_pairs_by_api(olga, cup, people)
    commit(lambda: services.tournament_start(tournament=cup, by=olga))
    for _round in range(2):  # semi-finals, then the final
        play_round(cup, olga, commit)
    final = cup.matches.order_by("-bracket_round", "pk").first()
    assert final.status in Match.DECIDED and Pair.objects.filter(player=final.winner.player)
    commit(lambda: services.tournament_finish(tournament=cup, by=olga))
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert not Rating.objects.filter(player__in=people).exists()


def test_refusals_change_nothing():
    olga = User.objects.create_user("olga")
    anna, boris, carl, dina = players()[:4]
    cup = pairs_event(olga, "round-robin")
    services.pair_register(tournament=cup, first=anna, second=boris, by=olga)
    assert cup.entries.get().player.display_name == "Anna & Boris"
    before = (Player.objects.count(), Entry.objects.count(), Pair.objects.count())
    with pytest.raises(Conflict, match="one pair of a tournament: Anna & Boris is entered"):
        services.pair_register(tournament=cup, first=anna, second=carl, by=olga)
    with pytest.raises(InvalidInput, match="two different players"):
        services.pair_register(tournament=cup, first=carl, second=carl, by=olga)
    with pytest.raises(Conflict, match="enter two players as a pair"):
        services.entry_register(tournament=cup, player=carl, by=olga)
    with pytest.raises(InvalidInput, match="already called Anna: choose another name"):
        services.pair_register(tournament=cup, first=carl, second=dina, by=olga, name="Anna")
    other = User.objects.create_user("otto")
    with pytest.raises(Exception, match="organizer"):
        services.pair_register(tournament=cup, first=carl, second=dina, by=other)
    assert (Player.objects.count(), Entry.objects.count(), Pair.objects.count()) == before
    # Pairs are Short Nardy's; a singles tournament takes no pair.
    with pytest.raises(InvalidInput, match="no pairs in Long Nardy"):
        services.tournament_create(organizer=olga, name="Long pairs", variant="long",
                                   format="round-robin", pairs=True, match_length=3)  # fmt: skip
    singles = services.tournament_create(
        organizer=olga, name="Singles", variant="short", format="round-robin", match_length=3
    )
    team = cup.entries.get().player
    with pytest.raises(Conflict, match="pairs play in tournaments of the pairs discipline"):
        services.entry_register(tournament=singles, player=team, by=olga)
    with pytest.raises(Conflict, match="not of the pairs discipline"):
        services.pair_register(tournament=singles, first=carl, second=dina, by=olga)
    with pytest.raises(Conflict, match="pairs and single players do not mix"):
        services.tournament_update(tournament=cup, by=olga, pairs=False)


def test_the_same_two_players_are_one_pair_whichever_way_round():
    olga = User.objects.create_user("olga")
    anna, boris = players()[:2]
    one = pairs_event(olga, "round-robin")
    two = services.tournament_create(
        organizer=olga, name="Second", variant="short", format="round-robin", pairs=True,
        match_length=3,
    )  # fmt: skip
    first = services.pair_register(tournament=one, first=anna, second=boris, by=olga, name="AB")
    again = services.pair_register(tournament=two, first=boris, second=anna, by=olga)
    assert first.player == again.player and Pair.objects.count() == 1
    assert again.player.display_name == "AB"  # the pair keeps its name


def test_an_organizer_makes_a_pair_on_the_players_page():
    olga = User.objects.create_user("olga")
    anna = players()[0]
    cup = pairs_event(olga, "round-robin")
    client = api_client(olga)
    page = client.get(f"/t/{cup.slug}/players/")
    assert b'data-role="add-pair"' in page.content and b'data-role="add-player"' not in page.content
    answer = client.post(
        f"/t/{cup.slug}/players/",
        {"action": "add-pair", "first": anna.pk, "second_name": "Zoya New", "name": "Riga A"},
    )
    assert answer.status_code == 302
    entry = cup.entries.get()
    assert entry.player.display_name == "Riga A"
    assert {entry.player.pair.first.display_name, entry.player.pair.second.display_name} == {
        "Anna", "Zoya New",
    }  # fmt: skip
    refused = client.post(f"/t/{cup.slug}/players/", {"action": "add-pair", "first": anna.pk})
    assert refused.status_code == 400
    assert "Pick the second player or type a new name" in refused.content.decode()
    assert cup.entries.count() == 1
    page = client.get(f"/t/{cup.slug}/players/")
    assert b'data-role="pair-members"' in page.content


def test_the_api_lists_the_pairs_ratings_apart(commit):
    olga = User.objects.create_user("olga")
    cup = pairs_event(olga, "round-robin")
    enter_pairs_by_api(olga, cup, players()[:4])
    rated(cup)
    commit(lambda: services.tournament_start(tournament=cup, by=olga))
    play_round(cup, olga, commit)
    pairs = Client().get("/api/v1/ratings/fibs/short/?pairs=true").json()["results"]
    assert {row["player"] for row in pairs} == {"Team 1", "Team 2"}
    assert Client().get("/api/v1/ratings/fibs/short/").json()["results"] == []


def test_a_player_signs_up_with_a_partner_who_confirms():
    olga = User.objects.create_user("olga")
    cup = pairs_event(olga, "round-robin")
    services.tournament_update(tournament=cup, by=olga, self_signup=True)
    services.tournament_open_registration(tournament=cup, by=olga)
    anna_user, boris_user, carl_user = (
        User.objects.create_user(name, password="pw") for name in ("anna", "boris", "carl")
    )
    Player.objects.create(display_name="Anna", user=anna_user)
    Player.objects.create(display_name="Boris", user=boris_user)
    Player.objects.create(display_name="Nobody")  # no account: cannot confirm
    anna, boris, carl = api_client(anna_user), api_client(boris_user), api_client(carl_user)
    page = f"/t/{cup.slug}/signup/"
    assert b'name="partner"' in anna.get(page).content

    refused = anna.post(page, {"action": "signup", "partner": "Nobody"})
    assert refused.status_code == 400
    assert "Nobody has no account on the site" in refused.content.decode()
    refused = anna.post(page, {"action": "signup"})
    assert "name your partner" in refused.content.decode()
    assert not cup.signups.exists()

    assert (
        anna.post(page, {"action": "signup", "partner": "Boris", "pair_name": "AB"}).status_code
        == 302
    )
    signup = cup.signups.get()
    assert signup.state == "partner" and not cup.entries.exists()
    # Boris is asked; Carl (not the partner) may not answer; Boris confirms: the pair is in.
    assert b'data-role="partner-question"' in boris.get(page).content
    assert b'data-role="partner-question"' not in anna.get(page).content
    stranger = carl.post(page, {"action": "partner-accept", "signup": signup.pk})
    assert stranger.status_code == 403
    assert boris.post(page, {"action": "partner-accept", "signup": signup.pk}).status_code == 302
    entry = cup.entries.get()
    assert entry.player.display_name == "AB"
    assert {entry.player.pair.first.display_name, entry.player.pair.second.display_name} == {
        "Anna", "Boris",
    }  # fmt: skip
    # Both see themselves in; neither may sign up again with another partner.
    assert b"AB" in boris.get(page).content
    again = boris.post(page, {"action": "signup", "partner": "Anna"})
    assert again.status_code == 409
    assert cup.entries.count() == 1


def test_a_pair_is_neither_claimed_nor_merged():
    from tournaments.players.services import claim_request, players_merge  # noqa: PLC0415

    olga = User.objects.create_user("olga", is_staff=True)
    anna, boris, carl = players()[:3]
    cup = pairs_event(olga, "round-robin")
    team = services.pair_register(tournament=cup, first=anna, second=boris, by=olga).player
    with pytest.raises(Conflict, match="a pair, not a person"):
        claim_request(player=team, by=User.objects.create_user("zed"))
    for keep, drop in ((carl, team), (carl, anna)):
        with pytest.raises(Conflict, match="not merged"):
            players_merge(keep=keep, drop=drop, by=olga)
    assert Player.objects.filter(pk__in=(team.pk, anna.pk)).count() == 2


def test_a_pairs_players_report_and_answer_as_their_pair():
    """Either player of a pair reports the pair's match; the partner of the one who reported does
    not confirm it (their side said it), a player of the other pair does; nobody else may."""
    olga = User.objects.create_user("olga-pairs")
    tournament = pairs_event(olga, "round-robin")
    people = []
    for name in NAMES[:4]:
        people.append(
            Player.objects.create(display_name=name, user=User.objects.create_user(name.lower()))
        )
    enter_pairs_by_api(olga, tournament, people)
    services.tournament_start(tournament=tournament, by=olga)
    anna, boris, carl, dina = (person.user for person in people)  # Team 1: Anna, Boris
    outsider = User.objects.create_user("outsider")
    match = tournament.matches.exclude(away__isnull=True).exclude(home__isnull=True).first()

    with pytest.raises(NotAllowed):
        match_result_record(match=match, by=outsider, score=(3, 1))
    reported = match_result_record(match=match, by=anna, score=(3, 1))
    assert reported.status == Match.Status.REPORTED and reported.reported_by == anna
    with pytest.raises(NotAllowed, match="Your partner reported this result"):
        match_result_confirm(match=reported, by=boris)  # Anna's partner: their side said it
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED
    confirmed = match_result_confirm(match=reported, by=dina)
    assert confirmed.status == Match.Status.CONFIRMED and confirmed.confirmed_by == dina
    assert {match_side(confirmed, user) for user in (anna, boris)} != {
        match_side(confirmed, user) for user in (carl, dina)
    }
    assert match_side(confirmed, outsider) is None

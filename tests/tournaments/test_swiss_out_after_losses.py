"""A Swiss that drops its losers ("out after N lost matches", the federation's own cups): a player
out is paired no more and keeps their place and score in the standings; the Swiss goes on while
two players are still in, or to its set number of rounds; the option is checked like every rule,
and shown on the pages and in the API."""

import random

import pytest
from django.contrib.auth.models import User

from tournaments.errors import Conflict, InvalidInput
from tournaments.formats import swiss
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services import (
    entry_register,
    swiss_round_pair,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
    tournament_update,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def swiss_cup(organizer, count: int, **settings) -> Tournament:
    settings = {"variant": "long", "format": "swiss", "match_length": 7, **settings}
    cup = tournament_create(organizer=organizer, name="Friendship Cup", slug="cup", **settings)
    cup = tournament_open_registration(tournament=cup, by=organizer)
    for number in range(1, count + 1):
        player = Player.objects.create(display_name=f"Player {number:02}")
        entry_register(tournament=cup, player=player, by=organizer)
    return cup


def decide_round(tournament: Tournament, organizer, rng: random.Random) -> None:
    """The organizer records every open match of the round, the winner drawn at random."""
    for match in tournament.matches.filter(status=Match.Status.SCHEDULED, away__isnull=False):
        score = (7, rng.randrange(7)) if rng.random() < 0.5 else (rng.randrange(7), 7)
        match_result_record(match=match, by=organizer, score=score)


def losses_before(tournament: Tournament, number: int) -> dict[int, int]:
    """Each entry's lost matches in the rounds before round ``number``."""
    losses: dict[int, int] = {}
    for match in tournament.matches.filter(round__number__lt=number, away__isnull=False):
        loser = match.away_id if match.winner_id == match.home_id else match.home_id
        losses[loser] = losses.get(loser, 0) + 1
    return losses


def paired_in(tournament: Tournament, number: int) -> set[int]:
    matches = tournament.matches.filter(round__number=number)
    return {match.home_id for match in matches} | {
        match.away_id for match in matches if match.away_id is not None
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_player_out_after_two_losses_is_paired_no_more_and_the_swiss_plays_on_to_one(olga, seed):
    rng = random.Random(seed)
    cup = swiss_cup(olga, 9, swiss_out_after_losses=2)
    tournament_start(tournament=cup, by=olga)
    while True:
        decide_round(cup, olga, rng)
        try:
            swiss_round_pair(tournament=cup, by=olga)
        except Conflict as refused:
            assert "Fewer than two players are still in" in str(refused)
            break
        assert cup.rounds.count() < 30, "the Swiss never ends"
    rounds = cup.rounds.count()
    for number in range(2, rounds + 1):
        out = {entry for entry, lost in losses_before(cup, number).items() if lost >= 2}
        assert not out & paired_in(cup, number), f"round {number} paired a player out"
        assert len(paired_in(cup, number)) == 9 - len(out)  # everyone still in plays
    standings = tournament_standings(tournament=cup)
    still_in = [standing for standing in standings if not standing.out]
    assert len(still_in) == 1 and still_in[0].row.losses < 2 and still_in[0].row.rank == 1
    assert {standing.entry.pk for standing in standings} == set(
        cup.entries.values_list("pk", flat=True)
    )  # the players out keep their place in the standings
    for standing in standings:
        assert standing.out == (standing.row.losses >= 2)
        wins_and_byes = (
            standing.row.wins + cup.matches.filter(home=standing.entry, away__isnull=True).count()
        )
        assert standing.row.match_points == wins_and_byes  # their score, as played
    assert tournament_finish(tournament=cup, by=olga).status == Tournament.Status.FINISHED


def test_with_a_set_number_of_rounds_the_swiss_stops_there(olga):
    rng = random.Random(4)
    cup = swiss_cup(olga, 16, swiss_out_after_losses=3, swiss_rounds=3)
    tournament_start(tournament=cup, by=olga)
    for _ in range(2):
        decide_round(cup, olga, rng)
        swiss_round_pair(tournament=cup, by=olga)
    decide_round(cup, olga, rng)
    with pytest.raises(Conflict, match="All 3 rounds"):
        swiss_round_pair(tournament=cup, by=olga)
    out = [standing for standing in tournament_standings(tournament=cup) if standing.out]
    assert all(standing.row.losses == 3 for standing in out)


def test_the_last_two_players_play_again_rather_than_stop(olga):
    """A Swiss of two, out after three losses: the two meet three times (a plain Swiss would
    refuse the rematch), and once one has lost three the Swiss is over."""
    cup = swiss_cup(olga, 2, swiss_out_after_losses=3)
    tournament_start(tournament=cup, by=olga)
    ann = cup.entries.get(player__display_name="Player 01")
    for number in (1, 2, 3):
        (match,) = cup.matches.filter(status=Match.Status.SCHEDULED)
        match_result_record(match=match, by=olga, score=(7, 2) if match.home == ann else (2, 7))
        if number < 3:
            swiss_round_pair(tournament=cup, by=olga)
    with pytest.raises(Conflict, match="Fewer than two"):
        swiss_round_pair(tournament=cup, by=olga)
    assert cup.rounds.count() == 3 and cup.matches.filter(winner=ann).count() == 3


def test_a_plain_swiss_still_refuses_a_rematch(olga):
    cup = swiss_cup(olga, 2, swiss_rounds=3)
    tournament_start(tournament=cup, by=olga)
    (match,) = cup.matches.all()
    match_result_record(match=match, by=olga, score=(7, 2))
    with pytest.raises(Conflict, match="rematch"):
        swiss_round_pair(tournament=cup, by=olga)
    assert cup.rounds.count() == 1


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"format": "round-robin", "swiss_out_after_losses": 3}, "one-stage Swiss"),
        (
            {"format": "single-elimination", "first_stage": "swiss", "swiss_rounds": 3,
             "advance": 4, "swiss_out_after_losses": 3},
            "one-stage Swiss",
        ),
        ({"format": "swiss", "swiss_out_after_losses": 0}, "greater than or equal to 1"),
        ({"format": "swiss", "swiss_out_after_losses": swiss.MAX_OUT_AFTER_LOSSES + 1}, "less"),
        ({"format": "swiss"}, "after how many lost matches"),
    ],
)  # fmt: skip
def test_the_option_is_checked_like_every_rule(olga, settings, message):
    with pytest.raises(InvalidInput, match=message):
        tournament_create(organizer=olga, name="Cup", variant="long", **settings)
    assert not Tournament.objects.exists()


def test_the_option_is_edited_before_the_start_and_locked_after(olga):
    cup = swiss_cup(olga, 4, swiss_rounds=3)
    cup = tournament_update(tournament=cup, by=olga, swiss_out_after_losses=3, swiss_rounds=None)
    assert (cup.swiss_out_after_losses, cup.swiss_rounds) == (3, None)
    tournament_start(tournament=cup, by=olga)
    with pytest.raises(Conflict, match="locked"):
        tournament_update(tournament=cup, by=olga, swiss_out_after_losses=2)
    cup.refresh_from_db()
    assert cup.swiss_out_after_losses == 3


def test_the_api_takes_the_option_and_marks_the_players_out(client, olga):
    client.force_login(olga)
    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Cup", "slug": "cup", "variant": "short", "format": "swiss",
         "match_length": 7, "swiss_out_after_losses": 1},
        content_type="application/json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["swiss_out_after_losses"] == 1 and made.json()["swiss_rounds"] is None
    refused = client.post(
        "/api/v1/tournaments/new",
        {"name": "Cup", "variant": "short", "format": "round-robin", "swiss_out_after_losses": 1},
        content_type="application/json",
    )
    assert refused.status_code == 400 and "one-stage Swiss" in refused.content.decode()
    assert Tournament.objects.count() == 1
    cup = Tournament.objects.get(slug="cup")
    cup = tournament_open_registration(tournament=cup, by=olga)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        entry_register(tournament=cup, player=Player.objects.create(display_name=name), by=olga)
    tournament_start(tournament=cup, by=olga)
    decide_round(cup, olga, random.Random(5))
    rows = client.get("/api/v1/tournaments/cup/standings/").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert sorted(row["out"] for row in rows) == [False, False, True, True]
    assert all(row["out"] == (row["losses"] >= 1) for row in rows)
    paired = client.post("/api/v1/tournaments/cup/pair")
    assert paired.status_code == 200 and paired.json()["number"] == 2
    decide_round(cup, olga, random.Random(6))
    over = client.post("/api/v1/tournaments/cup/pair")
    assert over.status_code == 409 and "Fewer than two" in over.json()["error"]["message"]
    assert cup.rounds.count() == 2


def test_the_pages_show_the_rule_and_who_is_out(client, olga):
    cup = swiss_cup(olga, 4, swiss_out_after_losses=1)
    tournament_start(tournament=cup, by=olga)
    decide_round(cup, olga, random.Random(7))
    page = client.get("/t/cup/").content.decode()
    assert "after 1 lost match" in page and "while two players are still in" in page
    standings = client.get("/t/cup/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert standings.count('data-role="out"') == 2
    russian = client.get("/t/cup/standings/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    # The badge is said of anyone, so its Russian needs no gender.
    assert russian.count('data-role="out"') == 2 and ">выбывает<" in russian

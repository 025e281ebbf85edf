"""A recorded Long Nardy match with dave offers (``tests/games/engine/cube_match.mat``), uploaded
as its .mat and analysed, through the API: a right drop of a double-drop is no error, a take of
one is, and so is a double missed in a bear-off the database decides; each side's cube error,
close cube decisions and luck agree with what the analysis found. At 2 plies an analysis is done
and says so."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

from games.engine.analysis import ERROR, game_luck
from games.engine.search import engine
from games.rules import LongNardy, Position, replay_game
from games.rules.game import Action, Double, Drop, Take, Turn
from games.rules.matfile import read_match, replay_record
from games.services import RecordedGame
from tests.games.engine.cube_match import LENGTH, staged_misses
from tests.nardy_site.test_settings_startup import start_django
from tests.web.conftest import make_site
from tournaments.analysis.models import MatchAnalysis
from tournaments.matches.results import match_result_record

pytestmark = pytest.mark.django_db

MAT = Path(__file__).parents[2] / "games" / "engine" / "cube_match.mat"


def ply_of(actions: tuple[Action, ...], kind: type) -> int:
    return next(i for i, action in enumerate(actions, start=1) if isinstance(action, kind))


def uploaded(client, site, text: str):
    """The match of Anna (home, the record's player 1) and Boris, its .mat uploaded by the
    organizer (final at once) and analysed as the result commits."""
    match = site.match("Anna", "Boris")
    client.force_login(site.organizer)
    response = client.post(f"/api/v1/matches/{match.pk}/result", text, content_type="text/plain")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "final"
    return match


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_a_match_with_dave_offers_is_judged_through_the_api(
    client, analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    site = make_site(variant="long", rated=False, match_length=LENGTH)
    assert site.tournament.dave and site.tournament.crawford
    text = MAT.read_text(encoding="utf-8")
    with django_capture_on_commit_callbacks(execute=True):
        match = uploaded(client, site, text)
    record = read_match(text)
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["state"] == "done" and data["plies"] == 0
    assert data["cube_analysed"] is True and data["luck_measured"] is True
    cube = {(m["game"], m["ply"]): m for m in data["mistakes"] if m["kind"] == "cube"}

    # Game 1: an offer of a double-drop, dropped: neither is an error, each a close decision.
    first = record.games[0].actions
    offer, drop = ply_of(first, Double), ply_of(first, Drop)
    assert drop == offer + 1 == len(first)
    assert (1, offer) not in cube and (1, drop) not in cube
    game_1 = [row for row in data["per_game"] if row["game"] == 1]
    assert all(row["close_cube_decisions"] >= 1 for row in game_1)

    # Game 2: the offer taken: the taker's error, more than a clear mistake.
    second = record.games[1]
    take = ply_of(second.actions, Take)
    taken = cube[2, take]
    assert (taken["played"], taken["best"], taken["dice"]) == ("take", "drop", "00")
    assert taken["loss"] > ERROR and taken["mark"] in ("error", "blunder")
    offered = replay_game(LongNardy(), second.actions[: take - 2]).positions[-1]
    assert taken["side"] == 3 - second.player(offered.turn)  # the side offered the dave

    # Game 3: no offer; the turn of the bear-off where the side on roll should have offered and
    # rolling on was an error is a missed double, marked as an error.
    third = record.games[2]
    assert not any(isinstance(action, Double) for action in third.actions)
    missed = staged_misses(record, engine())
    assert missed
    for ply, move, side in missed:
        decision = cube[3, ply]
        assert (decision["played"], decision["best"]) == ("no double", "double")
        assert decision["move"] == move and decision["side"] == side
        assert decision["loss"] > ERROR and decision["mark"] in ("error", "blunder")

    # Each side's figures agree with its dave decisions: its cube error is what they lost, and
    # each one that lost is a close decision (an offer, a take, a drop, or a double missed).
    for row in data["per_game"] + data["totals"]:
        mine = [
            m["loss"]
            for (game, _), m in cube.items()
            if m["side"] == row["side"] and row["game"] in (0, game)
        ]
        assert row["cube_error"] == pytest.approx(sum(mine), abs=1e-6)
        assert row["close_cube_decisions"] >= len(mine)
    for total in data["totals"]:
        games = [row for row in data["per_game"] if row["side"] == total["side"]]
        for name in ("close_cube_decisions", "luck", "result", "luck_adjusted"):
            assert total[name] == pytest.approx(sum(row[name] for row in games), abs=1e-6)
    home, away = sorted(data["totals"], key=lambda row: row["side"])
    won = {1: 0, 2: 0}
    for game in record.games:
        assert game.claim is not None
        won[game.claim.player] += game.claim.points
    match.refresh_from_db()
    assert (won[1], won[2]) == (match.score_home, match.score_away) and won[1] == LENGTH
    assert home["result"] == -away["result"] == won[1] - won[2]

    # Luck: with it taken out, a side keeps its result less its own luck plus the other's, each
    # roll's at its stake: in the game of the take, the rolls after it count double.
    for number, game in enumerate(record.games, start=1):
        rows = {row["side"]: row for row in data["per_game"] if row["game"] == number}
        if any(isinstance(action, Take) for action in game.actions):
            continue
        for side, row in rows.items():
            plain = row["result"] - row["luck"] + rows[3 - side]["luck"]
            assert row["luck_adjusted"] == pytest.approx(plain, abs=1e-6)
    rows = {row["side"]: row for row in data["per_game"] if row["game"] == 2}
    luck = game_luck(engine(), record, second, replay_record(record)[1])
    for side, row in rows.items():
        assert row["luck"] == pytest.approx(luck.total(side), abs=1e-6)
        adjusted = row["result"] - luck.at_stake[side] + luck.at_stake[3 - side]
        assert row["luck_adjusted"] == pytest.approx(adjusted, abs=1e-6)
        plain = row["result"] - row["luck"] + rows[3 - side]["luck"]
        assert row["luck_adjusted"] != pytest.approx(plain, abs=1e-6)  # the stake doubled
    assert MatchAnalysis.objects.get(match=match).games == len(record.games)


def test_the_settings_take_2_plies_and_no_more():
    show = (
        "import django; from django.conf import settings; django.setup(); "
        "print(settings.LONG_ANALYSIS_PLIES)"
    )
    taken = start_django(show, LONG_ANALYSIS_PLIES="2")
    assert taken.returncode == 0, taken.stderr
    assert taken.stdout.strip() == "2"
    refused = start_django(show, LONG_ANALYSIS_PLIES="3")
    assert refused.returncode != 0 and "LONG_ANALYSIS_PLIES" in refused.stderr


def opening(turns: int, seed: int) -> tuple[Action, ...]:
    """The first ``turns`` turns of a game of the engine against itself (0-ply, seeded dice)."""
    rng, found = random.Random(seed), engine()
    position = Position.initial(LongNardy())
    actions: list[Action] = []
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        played = found.best(position, dice, plies=0).play
        actions.append(Turn(dice, played.play))
        position = played.position
    return tuple(actions)


@override_settings(LONG_ANALYSIS_PLIES=2)
def test_at_2_plies_an_analysis_is_done_and_says_so(
    client, analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    """A short record, to keep it quick (2-ply is about 0.4 s a move): a match to 1 whose
    away player's flag fell six turns into its only game."""
    site = make_site(variant="long", rated=False, match_length=1)
    match = site.match("Anna", "Boris")
    games = [RecordedGame(1, opening(6, seed=49))]
    with django_capture_on_commit_callbacks(execute=True):
        match_result_record(match=match, by=site.organizer, games=games, lost_on_time="away")
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "done", analysis.error
    assert analysis.plies == 2
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["state"] == "done" and data["plies"] == 2
    assert sum(row["unforced_moves"] for row in data["totals"]) > 0
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "2-ply search" in page

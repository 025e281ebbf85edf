"""The dave decisions of a recorded Long Nardy match (``cube_match.mat``, written by
``cube_match.py``): a right drop of a double-drop is no error, a take of it is one, and so is a
double missed in a bear-off the database decides."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from games.analysis.runner import AWAY, HOME
from games.engine.analysis import analyse_record, long_mark_of
from games.rules import LongNardy, replay_game
from games.rules.game import Double, Drop, Take, replay_match
from games.rules.matfile import match_record, read_match
from games.rules.selfplay import random_match

from .cube_match import staged_misses

MATCH = Path(__file__).with_name("cube_match.mat").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def analysed(shipped):
    """The three staged games (the match plays on to its end, for the site, which records only
    finished matches)."""
    record = read_match(MATCH)
    return analyse_record(replace(record, games=record.games[:3]), plies=0, found=shipped)


def cube_decisions(analysed, game: int) -> dict[int, object]:
    return {d.ply: d for d in analysed.games[game - 1].decisions if d.kind == "cube"}


def ply_of(actions, kind) -> int:
    return next(i for i, action in enumerate(actions, start=1) if isinstance(action, kind))


def test_a_right_drop_of_a_double_drop_is_no_error(analysed):
    game = read_match(MATCH).games[0]
    offer, drop = ply_of(game.actions, Double), ply_of(game.actions, Drop)
    assert drop == offer + 1 == len(game.actions)
    found = cube_decisions(analysed, 1)
    assert offer not in found and drop not in found  # both were right
    doubler = game.player(replay_game(LongNardy(), game.actions[: offer - 1]).positions[-1].turn)
    figures = analysed.games[0].figures
    # Each is a close cube decision of its side.
    assert figures[doubler].close_cube_decisions >= 1
    assert figures[3 - doubler].close_cube_decisions >= 1


def test_a_take_of_a_double_drop_is_an_error(analysed):
    game = read_match(MATCH).games[1]
    take = ply_of(game.actions, Take)
    decision = cube_decisions(analysed, 2)[take]
    assert (decision.played, decision.best, decision.dice) == ("take", "drop", (0, 0))
    assert decision.loss > 0.5  # EMG: the take of a clear drop
    taker = decision.side
    figures = analysed.games[1].figures[taker]
    mine = [d for d in analysed.games[1].decisions if d.side == taker and d.kind == "cube"]
    assert figures.cube_error == pytest.approx(sum(d.loss for d in mine))
    assert figures.cube_error >= decision.loss


def test_a_missed_double_in_a_bear_off_the_database_decides_is_an_error(analysed, shipped):
    record = read_match(MATCH)
    assert not any(isinstance(action, Double) for action in record.games[2].actions)
    found = cube_decisions(analysed, 3)
    missed = staged_misses(record, shipped)
    assert missed
    for ply, move, side in missed:
        decision = found[ply]
        assert (decision.played, decision.best, decision.move, decision.side) == (
            "no double",
            "double",
            move,
            side,
        )
        assert long_mark_of(decision.loss) in ("error", "blunder")
    for side in (HOME, AWAY):
        mine = [d.loss for d in analysed.games[2].decisions if d.side == side and d.kind == "cube"]
        assert analysed.games[2].figures[side].cube_error == pytest.approx(sum(mine))


def test_the_crawford_game_and_a_dead_dave_have_no_dave_decisions(shipped):
    """A 3-point match of random play (seed 0): its second game is the Crawford game, where no
    dave may be offered; in the third the leader, 1-away, gains nothing from a higher stake."""
    games = random_match(LongNardy(), 3, random.Random(0))
    assert replay_match(LongNardy(), games, length=3).crawford_game == 2
    record = match_record(LongNardy(), ("Home", "Away"), games, length=3)
    analysis = analyse_record(record, plies=0, found=shipped)
    crawford = analysis.games[1]
    assert all(d.kind == "move" for d in crawford.decisions)
    assert all(f.close_cube_decisions == f.cube_error == 0 for f in crawford.figures.values())
    after = record.games[2]
    leader = 1 if after.score[0] == 2 else 2
    assert after.score[leader - 1] == 2 and after.score[2 - leader] < 2
    assert analysis.games[2].figures[leader].close_cube_decisions == 0
    assert not [d for d in analysis.games[2].decisions if d.kind == "cube" and d.side == leader]

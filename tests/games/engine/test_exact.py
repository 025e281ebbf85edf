"""What the rules decide is answered exactly: a mars that cannot be saved, a win the pips settle,
and the mars of a pure bear-off, checked against the rules engine's own move generator."""

from __future__ import annotations

import pytest

from games.engine.bearoff import ROLLS_21
from games.engine.evaluator import Probabilities
from games.engine.exact import first_off
from games.engine.features import boards_of
from games.rules import LongNardy, Position, legal_plays

from .conftest import played_positions

LONG = LongNardy()


def chance_to_bear_one_off(position: Position) -> float:
    """The share of rolls for which some legal play of the side on roll bears a checker off,
    by the move generator: an independent check of ``first_off``."""
    off = position.mover[0]
    return sum(
        (1 if dice[0] == dice[1] else 2) / 36
        for dice in ROLLS_21
        if any(play.position.opponent[0] > off for play in legal_plays(position, dice))
    )


def test_a_mars_that_cannot_be_saved_is_certain(shipped):
    """The audit's case: two checkers left against fifteen on the head."""
    winning = Position.from_points(LONG, {1: 2}, {24: 15})
    assert shipped.evaluate(winning) == Probabilities(1.0, 1.0, 0.0)
    assert shipped.evaluate(winning, plies=1) == Probabilities(1.0, 1.0, 0.0)
    assert shipped.evaluate(winning.swapped()) == Probabilities(0.0, 0.0, 1.0)


def test_a_race_the_pips_decide_is_a_certain_win_and_its_mars_is_left_to_the_network(shipped):
    ahead = Position.from_points(LONG, {1: 1, 2: 1, 3: 1}, {12: 5, 11: 5, 10: 5})
    found = shipped.evaluate(ahead)
    assert found.win == 1.0 and found.lose_mars == 0.0 and 0.0 < found.win_mars < 1.0
    assert shipped.evaluator.exact(boards_of([ahead])).tolist() == [False]


def test_a_side_that_has_borne_off_a_checker_cannot_lose_a_mars(shipped):
    for position, _ in played_positions(300, seed=8):
        found = shipped.evaluate(position)
        if position.mover[0]:
            assert found.lose_mars == 0.0
        if position.opponent[0]:
            assert found.win_mars == 0.0


@pytest.mark.parametrize(
    "home", [{6: 15}, {6: 10, 5: 5}, {6: 5, 5: 5, 4: 5}, {4: 8, 3: 7}, {6: 14, 1: 1}]
)
def test_the_chance_to_bear_off_a_first_checker_is_the_move_generators(home):
    counts = tuple(home.get(point, 0) for point in range(1, 7))
    position = Position.from_points(LONG, home, {1: 1})  # the other side out of the way
    assert first_off(counts, 1) == pytest.approx(chance_to_bear_one_off(position), abs=1e-6)
    assert first_off(counts, 0) == 0.0 and first_off(counts, 2) >= first_off(counts, 1) - 1e-12


def test_the_mars_of_a_bear_off_where_the_winner_needs_one_roll_is_exact(shipped):
    """The other side needs one roll for sure (two checkers on its point 1): the side on roll,
    fifteen home and none off, is marsed unless this roll bears a checker off."""
    home = {6: 9, 5: 6}
    position = Position.from_points(LONG, home, {1: 2})
    found = shipped.evaluate(position)
    saved = chance_to_bear_one_off(position)
    assert found.lose_mars == pytest.approx(1.0 - saved, abs=1e-6)
    assert found.win == 0.0  # it cannot finish fifteen checkers in one roll
    assert shipped.evaluator.exact(boards_of([position])).tolist() == [True]


def test_every_pure_bear_off_is_exact_and_coherent(shipped):
    homes = [
        (Position.from_points(LONG, {6: 5, 5: 5, 4: 5}, {3: 4, 2: 2})),
        (Position.from_points(LONG, {2: 3}, {6: 8, 5: 7})),
        (Position.from_points(LONG, {6: 15}, {6: 15})),
    ]
    boards = boards_of(homes)
    assert shipped.evaluator.exact(boards).all()
    found = shipped.evaluator.boards(boards)
    assert ((found >= 0) & (found <= 1)).all()
    assert (found[:, 1] <= found[:, 0]).all() and (found[:, 2] <= 1 - found[:, 0]).all()
    # Fifteen each at home and none off: whoever finishes first has all but saved its mars
    # (to a thousandth: a first checker off is looked for four rolls ahead).
    assert found[2, 1] < 2e-3 and found[2, 2] < 2e-3
    assert found[1, 2] == 0.0  # the side on roll has borne off twelve

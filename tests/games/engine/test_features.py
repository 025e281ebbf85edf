"""What the network sees: the mobility inputs read a block as the rules do, the first weights
read the prefix they were made for, and widening keeps a network's answers."""

from __future__ import annotations

import numpy as np
import pytest

from games.engine.features import FIRST_SIZE, MOBILITY_PER_SIDE, RACE, SIZE, boards_of, encode
from games.engine.network import Network, WeightsError
from games.rules import LongNardy, Position

from .conftest import played_positions

REAR_STUCK, MEAN_STUCK, LOST_TURN, TRAPPED, CROSSOVERS = range(MOBILITY_PER_SIDE)


def mobility(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """The mobility columns of the mover (as the blocker) and of the other side."""
    row = encode(boards_of([position]))[0]
    mover = row[FIRST_SIZE : FIRST_SIZE + MOBILITY_PER_SIDE]
    other = row[FIRST_SIZE + MOBILITY_PER_SIDE : FIRST_SIZE + 2 * MOBILITY_PER_SIDE]
    return mover, other


def test_five_points_held_in_front_of_a_checker_stop_it_on_25_rolls_of_36():
    # The other side's checker on its 20 lands on its 19…14: the mover's 7…2. The mover holds
    # 3…7, so only a six moves it (to the mover's free 2): 25 rolls of 36 leave it no move.
    position = Position.from_points(LongNardy(), {3: 3, 4: 3, 5: 3, 6: 3, 7: 3}, {20: 1, 10: 14})
    mover, _ = mobility(position)
    assert mover[REAR_STUCK] == pytest.approx(25 / 36)
    assert mover[MEAN_STUCK] == pytest.approx(25 / 36 / 15)  # the 14 on its 10 are free
    assert mover[LOST_TURN] == 0.0  # every roll moves one of them
    assert mover[TRAPPED] == pytest.approx(1 / 15)
    assert mover[CROSSOVERS] == pytest.approx(3 / 45)  # the three on 7 have one quarter to cross


def test_a_side_with_no_checker_free_loses_the_rolls_of_its_blocked_dice():
    # Alone on its 20, with the mover on 3…7: every die but the six is blocked for every checker.
    position = Position.from_points(LongNardy(), {3: 3, 4: 3, 5: 3, 6: 3, 7: 3}, {20: 1})
    mover, other = mobility(position)
    assert mover[LOST_TURN] == pytest.approx(25 / 36)
    assert other[REAR_STUCK] == 0.0  # nothing of the other side's blocks the mover's home


def test_nothing_blocks_in_a_race():
    position = Position.from_points(LongNardy(), {3: 5, 7: 10}, {2: 15})
    row = encode(boards_of([position]))[0]
    assert row[RACE] == 1.0
    assert not row[FIRST_SIZE : FIRST_SIZE + 2 * MOBILITY_PER_SIDE].any()


def test_the_features_see_both_sides_alike():
    """A position and the same position with the sides swapped give the same numbers, side for
    side: the network sees each side from its own view."""
    for position, _ in played_positions(50, seed=4):
        one = encode(boards_of([position]))[0]
        other = encode(boards_of([position.swapped()]))[0]
        half = RACE // 2
        assert np.array_equal(one[:half], other[half:RACE])
        assert one[RACE] == other[RACE] and one[RACE + 1] == pytest.approx(-other[RACE + 1])
        mover, opponent = mobility(position)
        assert np.array_equal(mover, mobility(position.swapped())[1])
        assert np.array_equal(opponent, mobility(position.swapped())[0])
        assert one[SIZE - 1] * other[SIZE - 1] <= 0.0  # the relative lead changes sides


def test_weights_of_the_first_inputs_read_their_prefix_and_widen_to_the_same_answers(tmp_path):
    boards = boards_of([position for position, _ in played_positions(200, seed=5)])
    features = encode(boards)
    first = Network.initial(8, seed=2, race=True)
    for layers in first.layers():  # weights made before the mobility inputs
        layers.w1 = layers.w1[:FIRST_SIZE].copy()
    first.save(tmp_path / "first.npz")
    loaded = Network.load(tmp_path / "first.npz")
    assert loaded.contact.inputs == FIRST_SIZE
    assert np.array_equal(encode(boards, FIRST_SIZE), features[:, :FIRST_SIZE])
    expected = loaded.forward(encode(boards, FIRST_SIZE))
    assert np.array_equal(loaded.forward(features), expected)
    widened = loaded.widened(12, seed=3, race=True)
    assert widened.contact.inputs == SIZE and widened.hidden == 12
    assert np.allclose(widened.forward(features), expected, atol=1e-6)
    widened.save(tmp_path / "widened.npz")
    assert Network.load(tmp_path / "widened.npz").contact.inputs == SIZE


def test_weights_for_other_inputs_are_refused(tmp_path):
    Network.initial(8, seed=1).save(tmp_path / "ok.npz")
    with np.load(tmp_path / "ok.npz") as found:
        arrays = {name: found[name] for name in found.files}
    arrays["w1"] = arrays["w1"][:-3]
    arrays["meta"] = np.array(f'{{"version": 2, "inputs": {SIZE - 3}}}')
    np.savez(tmp_path / "other.npz", **arrays)
    with pytest.raises(WeightsError, match=f"for {SIZE - 3} inputs"):
        Network.load(tmp_path / "other.npz")

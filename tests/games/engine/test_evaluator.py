"""The evaluator's probabilities are coherent, a finished game is exact, and the shipped weights
are the ones this engine reads."""

from __future__ import annotations

import numpy as np
import pytest

from games.engine.evaluator import Probabilities, equity_of, flipped
from games.engine.features import SIZE
from games.engine.network import INPUTS, VERSION, WEIGHTS, Network, WeightsError
from games.rules import LongNardy, Position

from .conftest import played_positions


def test_the_shipped_weights_are_small_and_of_this_version():
    assert WEIGHTS.stat().st_size <= 2 * 1024 * 1024
    network = Network.load()
    for layers in network.layers():
        assert layers.inputs in INPUTS and layers.w1.shape == (layers.inputs, network.hidden)
        assert layers.w2.shape == (network.hidden, 3)
    assert network.info["games"] > 0 and network.info["name"]
    assert VERSION == 2


def test_weights_of_another_version_are_refused(tmp_path):
    network = Network.initial(8, seed=1)
    network.save(tmp_path / "ok.npz")
    assert Network.load(tmp_path / "ok.npz").hidden == 8
    with np.load(tmp_path / "ok.npz") as found:
        arrays = {name: found[name] for name in found.files}
    arrays["meta"] = np.array(f'{{"version": 99, "inputs": {SIZE}}}')
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(WeightsError, match="version 99"):
        Network.load(tmp_path / "old.npz")


def test_the_probabilities_are_coherent_in_every_stage_of_a_game(shipped):
    positions = [position for position, _ in played_positions(400, seed=3)]
    found = shipped.evaluator.positions(positions)
    win, win_mars, lose_mars = found.T
    assert ((found >= 0) & (found <= 1)).all()
    assert (win_mars <= win + 1e-6).all() and (lose_mars <= 1 - win + 1e-6).all()
    assert np.allclose(equity_of(found), 2 * win - 1 + win_mars - lose_mars)
    assert np.allclose(flipped(flipped(found)), found, atol=1e-6)


def test_a_finished_game_is_exact(shipped):
    won = Position.from_points(LongNardy(), {}, {24: 15})  # the side on roll has borne off all
    assert shipped.evaluate(won) == Probabilities(1.0, 1.0, 0.0)  # the other none: a mars
    lost = Position.from_points(LongNardy(), {3: 2}, {})
    assert shipped.evaluate(lost) == Probabilities(0.0, 0.0, 0.0)  # borne off 13: an oyn
    assert shipped.evaluate(won).equity == 2.0
    assert shipped.evaluate(Position.from_points(LongNardy(), {}, {6: 1})).equity == 1.0

"""The 1-ply teacher: self-play positions labelled with the search's answers, and weights fitted
toward them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.engine.features import boards_of, encode
from games.engine.network import WEIGHTS, Network
from games.engine.play import VARIANT
from games.engine.search import engine
from games.engine.teach import fit, game_positions, labelled_games, main
from games.rules.position import Position


def _positions(boards: np.ndarray) -> list[Position]:
    return [Position(VARIANT, tuple(map(int, row[0])), tuple(map(int, row[1]))) for row in boards]


@pytest.fixture(scope="module")
def game() -> tuple[np.ndarray, np.ndarray]:
    """The positions of one game of self-play and their labels."""
    return labelled_games(engine(), 1, seed=4)


def test_positions_are_labelled_with_their_1_ply_answers_and_none_is_exact(game):
    found = engine()
    boards, labels = game
    assert len(boards) == len(labels) > 40
    assert not found.evaluator.exact(boards).any()
    sample = _positions(boards[::10])
    assert np.allclose(found.values(sample, 1), labels[::10], atol=1e-6)
    kept = game_positions(found, random.Random(4))
    assert kept == game_positions(found, random.Random(4))
    every = boards_of(kept)
    assert np.array_equal(every[~found.evaluator.exact(every)], boards)


def test_fitting_brings_a_network_toward_the_labels(game):
    boards, labels = game
    features = encode(boards)
    network = Network.initial(8, seed=2)
    before = float(((network.forward(features) - labels) ** 2).mean())
    errors = fit(network, features, labels, epochs=3, rate=0.5, final_rate=0.1, batch=8, seed=1)
    assert errors[-1][0] < before / 2


def test_the_commands_label_then_fit(tmp_path, capsys):
    data = tmp_path / "positions.npz"
    assert main(["label", "--weights", str(WEIGHTS), "--positions", "10",
                 "--chunk", "1", "--out", str(data)]) == 0  # fmt: skip
    with np.load(data) as found:
        assert len(found["boards"]) == len(found["labels"]) >= 10
    out = tmp_path / "taught.npz"
    assert main(["fit", "--start", str(WEIGHTS), "--data", str(data), "--epochs", "1",
                 "--out", str(out)]) == 0  # fmt: skip
    taught = Network.load(out)
    assert taught.info["teacher"] == "1-ply" and taught.info["taught_positions"] >= 10
    assert "epoch 1" in capsys.readouterr().out

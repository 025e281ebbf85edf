"""Training can be rerun: from a seed it writes checkpoints, goes on from the last one when
resumed, reports its progress against the baselines, and a checkpoint becomes the weights."""

from __future__ import annotations

import numpy as np

from games.engine.network import Network
from games.engine.train import main, ship


def test_a_short_run_resumes_from_its_checkpoint_and_ships(tmp_path, capsys):
    out = tmp_path / "run"
    common = ["--out", str(out), "--hidden", "8", "--check-games", "2", "--seed", "3"]
    assert main(["--games", "4", "--save-every", "2", "--check-every", "4", *common]) == 0
    first = Network.load(out / "checkpoint.npz")
    assert first.info["games"] == 4 and first.hidden == 8
    progress = capsys.readouterr().out
    assert "games 4" in progress and "games/s" in progress and "vs heuristic" in progress
    assert main(["--games", "6", "--resume", "--check-every", "6", *common]) == 0
    assert "resumed at 4 games" in capsys.readouterr().out
    again = Network.load(out / "checkpoint.npz")
    assert again.info["games"] == 6 and not np.array_equal(again.contact.w1, first.contact.w1)
    assert ship(out / "checkpoint.npz", tmp_path / "long.npz") == "v2-0k"
    assert Network.load(tmp_path / "long.npz").info["name"] == "v2-0k"


def test_the_same_seed_trains_the_same_weights(tmp_path):
    for name in ("a", "b"):
        main(["--games", "2", "--out", str(tmp_path / name), "--hidden", "8", "--seed", "5",
              "--check-games", "2"])  # fmt: skip
    a, b = (Network.load(tmp_path / name / "checkpoint.npz") for name in ("a", "b"))
    assert np.array_equal(a.contact.w1, b.contact.w1) and np.array_equal(a.contact.w2, b.contact.w2)

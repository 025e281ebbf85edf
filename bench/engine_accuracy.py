"""How accurate the Long Nardy engine is, against rollouts: the figures a Long Nardy engine is
judged by (issue 49). Run, once ``bench/engine_accuracy_rollouts.py`` has rolled the set out:

    .venv/bin/python bench/engine_accuracy.py [--weights games/engine/weights/long.npz OTHER.npz]
        [--plies 0,1,2]

For each weights file and each depth of search, over the positions of the accuracy benchmark
(``games.engine.accuracy``), by stage and in all, a markdown table of:

- **equity error**: the mean absolute difference between the engine's equity of a position
  before its roll (``Engine.evaluate``) and the rollout's;
- **loss**: the equity the engine's chosen play of the position's roll (``Engine.best``) loses
  against the best play the rollouts found among the candidates, mean per decision, and the share
  of decisions that lose more than 0.04 and more than 0.08 (points of a game: oyn 1, mars 2);
- **rollout ±**: the mean standard error of the positions' rollouts, the noise in the truth
  (the candidates of a position share their dice, so their differences are surer than that).

A chosen play that was not rolled out (weights the candidates were not taken from) is counted in
"missing", not guessed: roll the set out again with those weights among ``--weights``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from games.engine.accuracy import POSITIONS, ROLLOUTS, STAGES, read_set  # noqa: E402
from games.engine.network import WEIGHTS  # noqa: E402
from games.engine.search import Engine, engine_of  # noqa: E402

THRESHOLDS = (0.04, 0.08)


@dataclass
class Figures:
    """What one engine at one depth did on the positions of one stage."""

    errors: list[float] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    #: The standard errors of the rollouts the figures are measured against.
    noise: list[float] = field(default_factory=list)
    missing: int = 0

    def row(self) -> list[str]:
        losses = np.array(self.losses)
        shares = [f"{(losses > t).mean() * 100:.1f}%" if len(losses) else "–" for t in THRESHOLDS]
        return [
            str(len(self.errors)),
            f"{np.mean(self.errors):.4f}" if self.errors else "–",
            str(len(losses)),
            f"{losses.mean():.4f}" if len(losses) else "–",
            *shares,
            str(self.missing),
            f"{np.mean(self.noise):.3f}" if self.noise else "–",
        ]


def read_rollouts(path: Path) -> dict[str, dict[str | None, dict[str, Any]]]:
    """For each position: its rollout (key None) and its plays' (key: the position they leave);
    the last line of a key counts."""
    found: dict[str, dict[str | None, dict[str, Any]]] = defaultdict(dict)
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                row = json.loads(line)
                found[row["position_id"]][row["after"]] = row
    return found


def judge(
    found: Engine, plies: int, positions: Path, rollouts: Path
) -> dict[str, Figures]:  # fmt: skip
    """The figures of ``found`` at ``plies``, by stage and in all ("all")."""
    rolled = read_rollouts(rollouts)
    figures: dict[str, Figures] = defaultdict(Figures)
    for entry in read_set(positions):
        results = rolled.get(entry.position.position_id(), {})
        if not results:
            continue
        stage, whole = figures[entry.stage], figures["all"]
        if None in results:
            error = abs(found.evaluate(entry.position, plies).equity - results[None]["equity"])
            stage.errors.append(error)
            whole.errors.append(error)
            for figures_of in (stage, whole):
                figures_of.noise.append(results[None]["stderr"])
        plays = {after: row for after, row in results.items() if after is not None}
        if not plays:
            continue
        chosen = found.best(entry.position, entry.dice, plies).play.position.position_id()
        if chosen not in plays:
            stage.missing += 1
            whole.missing += 1
            continue
        loss = max(row["equity"] for row in plays.values()) - plays[chosen]["equity"]
        stage.losses.append(loss)
        whole.losses.append(loss)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, nargs="+", default=[WEIGHTS])
    parser.add_argument("--plies", default="0,1,2")
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--rollouts", type=Path, default=ROLLOUTS)
    args = parser.parse_args()
    header = ["weights", "plies", "stage", "positions", "equity error", "decisions", "loss"]
    header += [f"> {t}" for t in THRESHOLDS] + ["missing", "rollout ±"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for path in args.weights:
        found = engine_of(path)
        name = f"{path.name} ({found.evaluator.network.info.get('name', 'unnamed')})"
        for plies in (int(depth) for depth in args.plies.split(",")):
            figures = judge(found, plies, args.positions, args.rollouts)
            for stage in (*STAGES, "all"):
                if stage in figures:
                    cells = [name, str(plies), f"**{stage}**" if stage == "all" else stage]
                    print("| " + " | ".join(cells + figures[stage].row()) + " |", flush=True)


if __name__ == "__main__":
    main()

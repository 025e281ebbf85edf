"""The accuracy benchmark of the Long Nardy engine: a fixed set of positions from every stage of
play, each with a roll to play, rolled out (``bench/engine_accuracy_rollouts.py``) and judged
(``bench/engine_accuracy.py``: the equity's error and the equity the chosen plays lose).

The set (``benchmark/positions.jsonl``: ``{"position_id", "dice", "stage"}`` a line) is made by

    python -m games.engine.accuracy        # about a minute; writes the same file every time

There are no recorded human games of Long Nardy to take positions from, so they come from games
of a club-strength player against itself: the shipped engine's 0-ply equity plus Gaussian noise
of ``SIGMA`` (0.06) on each play, as ``bench/long_mistakes_bench.py`` makes such a player (about
one blunder in two games, three errors a game). Games are played from ``SEED``; from each game at
most one decision (a turn with two or more different plays) of each stage is taken, drawn at
random among the game's decisions of that stage, until every stage has its quota (``QUOTAS``);
a position is taken once (whatever the roll). The stage of a position (``stage_of``) is the first
of these that holds:

- ``start``: the first four turns of the game (two plays a side);
- ``mars``: a mars is at stake: a side has borne off no checker while the other has all its
  checkers home (is bearing off);
- ``bear-off``: both sides have all their checkers home, a pure race of two bear-offs;
- ``race``: the sides have passed each other: each has all its checkers in the last half of its
  way (points 1..12), the network's own rule for a race (``games.engine.features``);
- ``prime``: a side holds a run of 4 or more points among the six in front of the other side's
  rearmost checker (in Long Nardy one checker holds a point);
- ``contact``: the rest, the middle game.

The engine that makes the set only chooses its positions; the rollouts judge every engine alike.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from games.engine.evaluator import equity_of
from games.engine.search import Dice, Engine, engine
from games.rules.moves import legal_plays
from games.rules.position import CHECKERS, HEAD, OFF, Board, Position
from games.rules.variants import LongNardy

DIRECTORY = Path(__file__).with_name("benchmark")
POSITIONS = DIRECTORY / "positions.jsonl"
ROLLOUTS = DIRECTORY / "rollouts.jsonl"
STAGES = ("start", "mars", "bear-off", "race", "prime", "contact")
QUOTAS = {"start": 60, "mars": 70, "bear-off": 70, "race": 90, "prime": 90, "contact": 120}
SEED = 49
SIGMA = 0.06
#: A prime: this many points held in a row in front of the other side's rearmost checker.
PRIME = 4
VARIANT = LongNardy()


@dataclass(frozen=True, slots=True)
class Entry:
    """A position of the set, the roll its side on roll has to play, and its stage."""

    position: Position
    dice: Dice
    stage: str

    def to_json(self) -> dict[str, Any]:
        return {
            "position_id": self.position.position_id(),
            "dice": list(self.dice),
            "stage": self.stage,
        }

    @classmethod
    def from_json(cls, line: dict[str, Any]) -> Entry:
        position = Position.from_position_id(line["position_id"], VARIANT)
        first, second = line["dice"]
        return cls(position, (int(first), int(second)), str(line["stage"]))


def stage_of(position: Position, turn: int) -> str:
    """The stage of ``position``, reached at ``turn`` (0 for the game's first play): above."""
    mover, other = position.mover, position.opponent
    if turn < 4:
        return "start"
    if (mover[OFF] == 0 and _home(other)) or (other[OFF] == 0 and _home(mover)):
        return "mars"
    if _home(mover) and _home(other):
        return "bear-off"
    if _rearmost(mover) <= 12 and _rearmost(other) <= 12:
        return "race"
    if max(_blocking_run(mover, other), _blocking_run(other, mover)) >= PRIME:
        return "prime"
    return "contact"


def _home(side: Board) -> bool:
    return not any(side[7 : HEAD + 1])


def _rearmost(side: Board) -> int:
    return max((point for point in range(1, HEAD + 1) if side[point]), default=0)


def _blocking_run(own: Board, other: Board) -> int:
    """The longest run of points ``own`` holds among the six in front of ``other``'s rearmost
    checker, along ``other``'s way."""
    rearmost = _rearmost(other)
    run = longest = 0
    for step in range(1, 7):
        point = rearmost - step  # in ``other``'s numbering; Long Nardy's heads face each other
        held = point >= 1 and own[point + 12 if point <= 12 else point - 12] > 0
        run = run + 1 if held else 0
        longest = max(longest, run)
    return longest


def noisy_game(found: Engine, rng: random.Random, sigma: float) -> Iterator[tuple[Position, Dice]]:
    """The positions and rolls of one game of the noisy player against itself, up to its end."""
    position = Position.initial(VARIANT)
    while CHECKERS not in (position.mover[OFF], position.opponent[OFF]):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield position, dice
        plays = legal_plays(position, dice)
        noise = np.array([rng.gauss(0.0, sigma) for _ in plays])
        equities = equity_of(found.evaluator.after(plays)) + noise
        position = plays[int(np.argmax(equities))].position


def build(
    found: Engine, seed: int = SEED, quotas: dict[str, int] = QUOTAS, sigma: float = SIGMA
) -> list[Entry]:
    """The set: decisions of each stage from games of the noisy player (above), in stage order."""
    rng = random.Random(seed)
    chosen: dict[str, list[Entry]] = {stage: [] for stage in quotas}
    seen: set[str] = set()
    for _ in range(100_000):
        if all(len(chosen[stage]) >= quotas[stage] for stage in quotas):
            break
        by_stage: dict[str, list[Entry]] = {}
        for turn, (position, dice) in enumerate(noisy_game(found, rng, sigma)):
            plays = legal_plays(position, dice)
            identifier = position.position_id()
            if len({play.position for play in plays}) > 1 and identifier not in seen:
                stage = stage_of(position, turn)
                by_stage.setdefault(stage, []).append(Entry(position, dice, stage))
        for stage in quotas:
            found_here = by_stage.get(stage, [])
            if found_here and len(chosen[stage]) < quotas[stage]:
                entry = rng.choice(found_here)
                seen.add(entry.position.position_id())
                chosen[stage].append(entry)
    else:
        raise RuntimeError(
            f"the quotas were not filled: {[(s, len(c)) for s, c in chosen.items()]}"
        )
    return [entry for stage in quotas for entry in chosen[stage]]


def read_set(path: Path = POSITIONS) -> list[Entry]:
    with path.open(encoding="utf-8") as lines:
        return [Entry.from_json(json.loads(line)) for line in lines if line.strip()]


def write_set(entries: list[Entry], path: Path = POSITIONS) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(entry.to_json()) + "\n" for entry in entries), "utf-8")


def main() -> int:
    started = time.perf_counter()
    entries = build(engine())
    write_set(entries)
    counts = {stage: sum(entry.stage == stage for entry in entries) for stage in STAGES}
    print(
        f"{len(entries)} positions {counts} in {time.perf_counter() - started:.0f} s: {POSITIONS}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

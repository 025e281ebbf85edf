"""The one-sided bear-off database of Long Nardy: for every home of up to 15 checkers on points
1..6, the distribution of the number of rolls it takes to bear them all off, playing each roll to
bear off in the fewest rolls on average.

    python -m games.engine.bearoff      # builds games/engine/weights/bearoff.npz (a few minutes)

It is exact: a home is worked out from the homes with fewer pips, each roll played the way that
leaves the fewest expected rolls. The file holds each distribution over ``ROLLS`` rolls as
fixed-point numbers; it is compressed to well under a megabyte and read in a fraction of a second.
In a pure race of two bear-offs it gives each side's chance to finish first, exactly.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

Home = tuple[int, ...]  # the checkers on points 1..6
FILE = Path(__file__).with_name("weights") / "bearoff.npz"
CHECKERS = 15
#: Distributions are kept over 0..ROLLS-1 rolls: more than 31 never happens with optimal play.
ROLLS = 32
SCALE = 65535
ROLLS_21 = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def homes() -> list[tuple[int, ...]]:
    """Every home of up to 15 checkers, fewest pips first (each roll leads to fewer pips)."""
    found: list[tuple[int, ...]] = []

    def fill(counts: tuple[int, ...], left: int) -> None:
        if len(counts) == 6:
            found.append(counts)
            return
        for count in range(left + 1):
            fill((*counts, count), left - count)

    fill((), CHECKERS)
    found.sort(key=lambda home: (pips(home), home))
    return found


def pips(home: tuple[int, ...]) -> int:
    return sum(count * point for point, count in enumerate(home, start=1))


def plays(home: Home, dice: tuple[int, int]) -> set[Home]:
    """The homes a roll can leave, by the rules of bearing off (RULES.md): as many dice as can be
    played, and the higher die when only one can."""
    steps = (dice[0],) * 4 if dice[0] == dice[1] else (dice[0], dice[1])
    found: dict[int, set[Home]] = {}
    seen: set[tuple[Home, tuple[int, ...]]] = set()

    def walk(current: Home, left: tuple[int, ...], depth: int) -> None:
        found.setdefault(depth, set()).add(current)
        for i, die in enumerate(left):
            if i and die == left[i - 1]:
                continue
            rest = left[:i] + left[i + 1 :]
            for nxt in _steps(current, die):
                if (nxt, rest) not in seen:
                    seen.add((nxt, rest))
                    walk(nxt, rest, depth + 1)

    walk(home, steps, 0)
    deepest = max(found)
    results = found[deepest]
    if deepest == 1 and dice[0] != dice[1]:
        high = {nxt for nxt in _steps(home, max(dice))}
        results = (results & high) or results
    return results


def _steps(home: Home, die: int) -> Iterator[Home]:
    """The homes one die can leave: a checker moved down ``die`` points or borne off."""
    highest = max((p for p in range(6, 0, -1) if home[p - 1]), default=0)
    for point in range(1, 7):
        if not home[point - 1]:
            continue
        target = point - die
        if target < 0 and point != highest:
            continue  # a higher die bears off only from the highest point
        moved = list(home)
        moved[point - 1] -= 1
        if target > 0:
            moved[target - 1] += 1
        yield tuple(moved)


def build() -> npt.NDArray[np.float64]:
    """Every home's distribution of rolls to bear off, in ``homes()`` order."""
    order = homes()
    index = {home: number for number, home in enumerate(order)}
    table = np.zeros((len(order), ROLLS), np.float64)
    mean = np.zeros(len(order), np.float64)
    table[0, 0] = 1.0  # nothing left: borne off in no roll
    for number, home in enumerate(order[1:], start=1):
        for dice in ROLLS_21:
            best = min((index[after] for after in plays(home, dice)), key=mean.__getitem__)
            weight = 1 / 36 if dice[0] == dice[1] else 2 / 36
            table[number, 1:] += weight * table[best, :-1]
        mean[number] = table[number] @ np.arange(ROLLS)
    return table


class Database:
    """Distributions and expected rolls of every home, looked up by its six counts."""

    def __init__(self, table: npt.NDArray[np.float64]) -> None:
        self.table = table
        self.index: dict[tuple[int, ...], int] = {home: n for n, home in enumerate(homes())}
        self.mean = table @ np.arange(ROLLS)
        #: The chance of needing at least k rolls, for each home and k.
        self.at_least = np.cumsum(table[:, ::-1], axis=1)[:, ::-1]

    def distribution(self, home: tuple[int, ...]) -> npt.NDArray[np.float64]:
        """The chance of bearing ``home`` off in exactly k rolls, for k = 0 … ROLLS − 1."""
        found: npt.NDArray[np.float64] = self.table[self.index[tuple(home)]]
        return found

    def rolls(self, home: tuple[int, ...]) -> float:
        """Expected rolls to bear off ``home`` (counts on points 1..6)."""
        return float(self.mean[self.index[tuple(home)]])

    def win(self, mover: tuple[int, ...], other: tuple[int, ...]) -> float:
        """The chance that the side on roll, home ``mover``, bears off before ``other``: it
        wins in k rolls when the other needs k or more (it has had k − 1)."""
        mine = self.table[self.index[tuple(mover)]]
        theirs = self.at_least[self.index[tuple(other)]]
        return min(max(float(mine @ theirs), 0.0), 1.0)


@lru_cache(maxsize=1)
def database() -> Database:
    """The shipped database, read once per process."""
    with np.load(FILE) as found:
        table = found["table"].astype(np.float64)
    return Database(table / table.sum(axis=1, keepdims=True))  # fixed point: each sums to 1


def main() -> int:
    started = time.perf_counter()
    table = build()
    FILE.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(FILE, table=np.round(table * SCALE).astype(np.uint16))
    print(f"{len(table)} homes in {time.perf_counter() - started:.0f} s: {FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

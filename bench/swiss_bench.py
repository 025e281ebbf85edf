"""Speed of Swiss pairing (tournaments.formats.swiss.pair) from 100 to 20,000 entrants.

For each field size it plays two events, pairing every round with ``pair`` and timing it once
(a round is paired once in real life):

* a usual event: ceil(log2 n) + 2 rounds, random results with 10% draws. Its rounds are all
  decided by the Dutch method; on its last field the exact method (the blossom matching, used
  when the Dutch pairing cannot be proved to float the fewest) is also timed on its own: on the
  part of the field its proof keeps (``_Reduction``), and as ``pair`` runs it (that part cut
  further above ``_EXACT_LIMIT`` entrants);
* a long event of favourites: 2 ceil(log2 n) + 4 rounds where the higher rating wins 95% of
  the decided games, so that the leaders have played each other and late rounds need the exact
  method: how many did, and the slowest.

The goal: every round at 10,000 entrants in under 2 s, including the rounds that need the exact
method. Run:

    .venv/bin/python bench/swiss_bench.py [--sizes 100 1000 10000 20000] [--seed 7]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats import swiss  # noqa: E402
from tournaments.formats.swiss import SwissEntrant, pair  # noqa: E402

GOAL_SIZE = 10_000
GOAL_SECONDS = 2.0


@dataclass
class Event:
    """The rounds of one simulated event: each round's pairing time and whether the exact method
    decided it; the field before the round after the last."""

    seconds: list[float]
    exact: list[bool]
    last_field: list[SwissEntrant[int]]

    def slowest(self, exact_only: bool = False) -> tuple[float, int]:
        """The slowest round's time and number (of those the exact method decided)."""
        rounds = zip(self.seconds, range(1, len(self.seconds) + 1), self.exact, strict=True)
        return max(
            ((seconds, number) for seconds, number, exact in rounds if exact or not exact_only),
            default=(0.0, 0),
        )


def play(size: int, rounds: int, rng: random.Random, favourite: float | None) -> Event:
    """Pair ``rounds`` rounds; results at random (10% draws), the higher rating winning with
    probability ``favourite`` when it is given, else half the time."""
    ratings = {number: rng.randint(1200, 2400) for number in range(size)}
    scores = dict.fromkeys(ratings, 0.0)
    met: dict[int, set[int]] = {number: set() for number in ratings}
    byes: set[int] = set()

    def field() -> list[SwissEntrant[int]]:
        return [
            SwissEntrant(n, scores[n], ratings[n], frozenset(met[n]), n in byes) for n in ratings
        ]

    event = Event([], [], [])
    for _ in range(rounds):
        entrants = field()
        with exact_calls() as calls:
            began = time.perf_counter()
            pairs = pair(entrants)
            event.seconds.append(time.perf_counter() - began)
        event.exact.append(bool(calls))
        for a, b in pairs:
            if b is None:
                byes.add(a)
                scores[a] += 1
                continue
            met[a].add(b)
            met[b].add(a)
            result = rng.random()
            if result < 0.1:
                scores[a] += 0.5
                scores[b] += 0.5
            elif favourite is None:
                scores[a if result < 0.55 else b] += 1
            else:
                high, low = (a, b) if ratings[a] >= ratings[b] else (b, a)
                scores[high if rng.random() < favourite else low] += 1
    event.last_field = field()
    return event


class exact_calls:  # noqa: N801 - used as a context manager, like a function
    """Counts the exact method's runs inside ``pair`` (a private helper: this bench measures the
    inside of ``pair``)."""

    def __enter__(self) -> list[int]:
        self.calls: list[int] = []
        self.original = swiss._fewest_floaters

        def counted(*args):  # type: ignore[no-untyped-def]
            self.calls.append(1)
            return self.original(*args)

        swiss._fewest_floaters = counted
        return self.calls

    def __exit__(self, *exc: object) -> None:
        swiss._fewest_floaters = self.original


def exact_alone(entrants: list[SwissEntrant[int]]) -> tuple[int, float, float]:
    """The exact method on its own on this field, started from the Dutch same-group pairs as
    ``pair`` starts it: the size of the part its proof keeps, the time on that part, and the time
    as ``pair`` runs it."""
    ranked = sorted(entrants, key=swiss._rank_key)
    field = swiss._Field.of(ranked)
    players = list(range(len(ranked) - len(ranked) % 2))  # an odd field: the last has the bye
    dutch_pairs, _ = swiss._dutch(players, field)
    start = [(a, b) for a, b in dutch_pairs if field.group[a] == field.group[b]]
    proven = swiss._Reduction.of(players, field, start)
    return (
        len(proven.core),
        timed(lambda: swiss._heaviest_pairing(proven, field)),
        timed(lambda: swiss._fewest_floaters(players, field, start)),
    )


def timed(call: Callable[[], object]) -> float:
    began = time.perf_counter()
    call()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, GOAL_SIZE, 20_000])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"Swiss pairing, every round timed once, Python {sys.version.split()[0]}")
    worst_at_goal = None
    for size in args.sizes:
        usual_rounds = math.ceil(math.log2(size)) + 2
        usual = play(size, usual_rounds, random.Random(args.seed), favourite=None)
        slowest, number = usual.slowest()
        print(
            f"  {size:>6,} entrants, {usual_rounds} rounds of random results: slowest round "
            f"{slowest * 1000:,.0f} ms (round {number}), all rounds {sum(usual.seconds):.2f} s"
        )
        part, proven_time, used_time = exact_alone(usual.last_field)
        print(
            f"  {'':>6}   the exact method alone on the last field: its proof keeps "
            f"{part:,} entrants, {proven_time * 1000:,.0f} ms; as pair runs it "
            f"{used_time * 1000:,.0f} ms"
        )
        long_rounds = 2 * math.ceil(math.log2(size)) + 4
        long = play(size, long_rounds, random.Random(args.seed), favourite=0.95)
        slowest_exact, exact_number = long.slowest(exact_only=True)
        slowest_any, any_number = long.slowest()
        needed = (
            f"{sum(long.exact)} needed the exact method (slowest {slowest_exact * 1000:,.0f} ms, "
            f"round {exact_number})"
            if any(long.exact)
            else "none needed the exact method"
        )
        print(
            f"  {'':>6}   {long_rounds} rounds where the favourite wins: {needed}; slowest round "
            f"{slowest_any * 1000:,.0f} ms (round {any_number})"
        )
        if size == GOAL_SIZE:
            worst_at_goal = max(usual.slowest()[0], slowest_any)
    if worst_at_goal is not None:
        verdict = "within" if worst_at_goal < GOAL_SECONDS else "OVER"
        print(
            f"  slowest round at {GOAL_SIZE:,} entrants: {worst_at_goal:.2f} s, {verdict} the goal "
            f"of {GOAL_SECONDS:.0f} s"
        )


if __name__ == "__main__":
    main()

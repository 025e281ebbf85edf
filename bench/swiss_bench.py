"""Speed of Swiss pairing (tournaments.formats.swiss.pair) on mid-tournament fields.

For each field size it plays some rounds first (paired by ``pair`` itself, random results with a
few draws), then times the pairing of the next round: the best of several runs, since a run is
short and the first pays for warming up. The goal is a field of 1,000 in under 2 s.

``--exact`` also times the exact method alone (the blossom matching that decides when the Dutch
pairing cannot be proved to float the fewest), started from the Dutch same-group pairs as
``pair`` starts it: the cost of the rare rounds that need it. Run:

    .venv/bin/python bench/swiss_bench.py [--sizes 100 1000] [--rounds 5] [--runs 5] [--seed 7]
        [--exact]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats import swiss  # noqa: E402
from tournaments.formats.swiss import SwissEntrant, pair  # noqa: E402

GOAL_SIZE = 1000
GOAL_SECONDS = 2.0


def field_after(size: int, rounds: int, rng: random.Random) -> list[SwissEntrant[int]]:
    """The field before round ``rounds + 1``: ratings spread like a club's, results at random
    (10% draws, a bye worth a win)."""
    ratings = {number: rng.randint(1200, 2400) for number in range(size)}
    scores = dict.fromkeys(ratings, 0.0)
    met: dict[int, set[int]] = {number: set() for number in ratings}
    byes: set[int] = set()

    def entrants() -> list[SwissEntrant[int]]:
        return [
            SwissEntrant(n, scores[n], ratings[n], frozenset(met[n]), n in byes) for n in ratings
        ]

    for _ in range(rounds):
        for a, b in pair(entrants()):
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
            else:
                scores[a if result < 0.55 else b] += 1
    return entrants()


def best_time(entrants: list[SwissEntrant[int]], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pair(entrants)
        times.append(time.perf_counter() - start)
    return min(times)


def exact_time(entrants: list[SwissEntrant[int]], runs: int) -> float:
    """The exact method on its own (private helpers: this measures the inside of ``pair``)."""
    ranked = sorted(entrants, key=swiss._rank_key)
    field = swiss._Field.of(ranked)
    players = list(range(len(ranked) - len(ranked) % 2))  # an odd field: the last has the bye
    dutch_pairs, _ = swiss._dutch(players, field)
    start = [(a, b) for a, b in dutch_pairs if field.group[a] == field.group[b]]
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        swiss._fewest_floaters(players, field, start)
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, GOAL_SIZE])
    parser.add_argument("--rounds", type=int, default=5, help="rounds played before the timing")
    parser.add_argument("--runs", type=int, default=5, help="timed runs; the best counts")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--exact", action="store_true", help="also time the exact method alone")
    args = parser.parse_args()
    print(
        f"Swiss pairing after {args.rounds} random rounds, best of {args.runs} runs, "
        f"Python {sys.version.split()[0]}"
    )
    for size in args.sizes:
        entrants = field_after(size, args.rounds, random.Random(args.seed))
        groups = len({entrant.score for entrant in entrants})
        seconds = best_time(entrants, args.runs)
        print(f"  {size:>6,} entrants  {groups:>3} score groups  {seconds * 1000:>9.1f} ms")
        if args.exact:
            exact = exact_time(entrants, args.runs)
            print(f"  {'':>6}   exact method alone          {exact * 1000:>9.1f} ms")
        if size == GOAL_SIZE:
            verdict = "within" if seconds < GOAL_SECONDS else "OVER"
            print(f"  {verdict} the goal of {GOAL_SECONDS:.0f} s for {GOAL_SIZE:,} entrants")


if __name__ == "__main__":
    main()

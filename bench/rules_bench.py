"""Speed of the rules engine on random self-play (one core, one process).

Prints, for Long Nardy: positions per second for ``legal_plays``, recorded plays per second for
``check_play`` and whole games validated per second (``replay_game``). Run:

    .venv/bin/python bench/rules_bench.py [--games 200] [--seed 7] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import LongNardy, Position, Turn, Variant, check_play, legal_plays, replay_game  # noqa: E402
from games.rules.selfplay import random_turns  # noqa: E402


def sample(variant: Variant, games: int, seed: int) -> list[list[tuple[Position, Turn]]]:
    rng = random.Random(seed)
    return [list(random_turns(variant, rng)) for _ in range(games)]


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>10,.0f}/s  ({count:,} in {seconds:.2f} s)"


def measure(variant: Variant, recorded: list[list[tuple[Position, Turn]]]) -> None:
    turns = [turn for game in recorded for turn in game]
    start = time.perf_counter()
    for position, turn in turns:
        legal_plays(position, turn.dice)
    print(f"  legal_plays  positions   {rate(len(turns), time.perf_counter() - start)}")
    start = time.perf_counter()
    for position, turn in turns:
        check_play(position, turn.dice, turn.play)
    print(f"  check_play   plays       {rate(len(turns), time.perf_counter() - start)}")
    start = time.perf_counter()
    for game in recorded:
        replay_game(variant, [turn for _, turn in game])
    print(f"  replay_game  games       {rate(len(recorded), time.perf_counter() - start)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    args = parser.parse_args()
    variant = LongNardy()
    recorded = sample(variant, args.games, args.seed)
    print(f"Long Nardy, {args.games} random self-play games, Python {sys.version.split()[0]}")
    measure(variant, recorded)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        measure(variant, recorded)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()

"""The rates behind the Long Nardy match equity table (``games.engine.cube``): self-play of the
shipped engine at 0-ply, White moving first, and the share of games the first mover wins and the
share of wins that are mars, with their standard errors; then the table those rates make.

    .venv/bin/python bench/long_met.py [--games 3000] [--seed 49] [--length 11]
    .venv/bin/python bench/long_met.py --games 0    # the table of the rates in games.engine.cube

Each game is played by the engine's 0-ply best play for both sides, from the starting position,
with random dice; the bear-off database plays the pure bear-offs (``Engine.rank``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.search import engine  # noqa: E402
from games.rules.position import CHECKERS, OFF, Position  # noqa: E402
from games.rules.selfplay import random_roll  # noqa: E402
from games.rules.variants import LongNardy  # noqa: E402


def play(rng: random.Random) -> tuple[bool, bool]:
    """One self-play game: whether the first mover won, and whether the win was a mars."""
    found = engine()
    position = Position.initial(LongNardy())
    turn = 0
    while True:
        position = found.best(position, random_roll(rng), plies=0).play.position
        if position.opponent[OFF] == CHECKERS:  # the mover bore off its last checker
            return turn % 2 == 0, position.mover[OFF] == 0
        turn += 1


def share(count: int, total: int) -> str:
    rate = count / total
    return f"{rate:.4f} ± {math.sqrt(rate * (1 - rate) / total):.4f} ({count}/{total})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--length", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.games == 0:  # the table of the module's measured rates
        from games.engine.cube import MARS_RATE

        print_table(args.length, MARS_RATE)
        return
    engine()  # read the weights and the database before the clock starts
    started = time.monotonic()
    first_wins = mars = first_mars = 0
    for number in range(1, args.games + 1):
        first, is_mars = play(rng)
        first_wins += first
        mars += is_mars
        first_mars += first and is_mars
        if number % 500 == 0:
            print(f"{number} games, {time.monotonic() - started:.0f} s", flush=True)
    elapsed = time.monotonic() - started
    print(f"games {args.games}, seed {args.seed}, {elapsed:.0f} s ({args.games / elapsed:.1f}/s)")
    print(f"first mover wins      {share(first_wins, args.games)}")
    print(f"wins that are mars    {share(mars, args.games)}")
    print(f"  of the first mover  {share(first_mars, first_wins)}")
    print(f"  of the second mover {share(mars - first_mars, args.games - first_wins)}")
    print_table(args.length, mars / args.games)


def print_table(length: int, mars_rate: float) -> None:
    from games.engine.cube import match_equity_table

    table = match_equity_table(length, mars_rate)
    print(f"\nmatch equity table to {length}, mars rate {mars_rate:.4f}")
    print("(rows: own away, columns: other away)")
    print("      " + "".join(f"{away:>7}" for away in range(1, length + 1)))
    for own in range(1, length + 1):
        row = "".join(f"{table.pre[own][other]:7.3f}" for other in range(1, length + 1))
        print(f"{own:>5} {row}")
    print("post-Crawford (own 1 away, other away):")
    leader = (1 - table.trailer[other] for other in range(1, length + 1))
    print("      " + "".join(f"{mwc:7.3f}" for mwc in leader))


if __name__ == "__main__":
    main()

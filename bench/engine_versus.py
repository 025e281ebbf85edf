"""Two sets of Long Nardy weights head to head (issue 49: the new weights against ``v1-60k``).

    .venv/bin/python bench/engine_versus.py NEW.npz OLD.npz [--games 2000] [--plies 0]

The games are played in pairs with the same dice and the colours swapped (mirrored dice: each
pair's luck cancels out, as in duplicate bridge); both players are deterministic, so a pair's two
games see the same rolls. Reported: the first weights' share of all points, with a 95% bootstrap
interval over the pairs, and of the games won; and the time. The games and the interval are
``bench/engine_bench.py``'s.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from engine_bench import duel, share_with_interval  # noqa: E402  # bench/, the script's own folder

from games.engine.network import Network  # noqa: E402
from games.engine.play import Player  # noqa: E402
from games.engine.search import engine_of  # noqa: E402
from games.rules import LegalPlay  # noqa: E402


def player(path: str, plies: int) -> Player:
    found = engine_of(Path(path))

    def choose(plays: list[LegalPlay], dice: tuple[int, int], rng: random.Random) -> LegalPlay:
        return found.best(plays[0][1], dice, plies).play  # a LegalPlay holds the position before

    return choose


def games_of(task: tuple[str, str, int, int, int, int]) -> np.ndarray:
    """Points of ``count`` games from game ``start`` (whole pairs): one row a game."""
    first, second, plies, seed, start, count = task
    return duel(player(first, plies), player(second, plies), count, seed, True, start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--games", type=int, default=2000, help="games in all (pairs × 2)")
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    names = [Network.load(path).info.get("name", path.name) for path in (args.first, args.second)]
    per = -(-args.games // args.workers // 2) * 2
    tasks = [(str(args.first), str(args.second), args.plies, args.seed, start,
              min(per, args.games - start)) for start in range(0, args.games, per)]  # fmt: skip
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        points = np.concatenate(pool.map(games_of, tasks))
    share, low, high = share_with_interval(points.reshape(-1, 2, 2).sum(axis=1))  # by pair
    wins = (points[:, 0] > 0).mean()
    print(
        f"{names[0]} against {names[1]} at {args.plies}-ply, {len(points)} games in pairs with "
        f"mirrored dice: {share:.1%} of points (95% CI {low:.1%}–{high:.1%}), {wins:.1%} of "
        f"games, {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()

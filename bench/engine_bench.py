"""The Long Nardy engine's strength and speed (issue 32). Run:

    .venv/bin/python bench/engine_bench.py [--games 1000] [--ply-games 200] [--matches 15]

- the shipped engine at 0-ply against the fixed baselines of ``games.engine.play`` (random play,
  and the pip-and-blocks heuristic): the share of points over ``--games`` games each, colours
  alternating, with a 95% bootstrap interval over the games;
- 1-ply against 0-ply over ``--ply-games`` games, in pairs that share their dice with the
  colours swapped (luck cancels out, as in duplicate bridge);
- the analysis time of the median recorded Long Nardy match at 0-ply and at 1-ply: matches to 3
  points as the site's demo records them (random legal play, ``games.rules.selfplay``), the one of
  ``--matches`` with the median number of turns;
- evaluations a second: positions through the network in the batches the search uses, and whole
  decisions (``Engine.best``) at 0-ply and 1-ply.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from games.engine.analysis import analyse_record  # noqa: E402
from games.engine.features import boards_of  # noqa: E402
from games.engine.play import (  # noqa: E402
    VARIANT,
    Player,
    heuristic_player,
    play_game,
    random_player,
)
from games.engine.search import Engine, engine  # noqa: E402
from games.rules import LegalPlay, legal_plays  # noqa: E402
from games.rules.matfile import GameRecord, MatchRecord  # noqa: E402
from games.rules.selfplay import random_match  # noqa: E402


def engine_player(found: Engine, plies: int) -> Player:
    def choose(plays: Sequence[LegalPlay], dice: tuple[int, int], rng: random.Random) -> LegalPlay:
        return found.best(plays[0][1], dice, plies).play

    return choose


def share_with_interval(points: np.ndarray, seed: int = 1) -> tuple[float, float, float]:
    """The first player's share of all points, and a 95% bootstrap interval over the games
    (``points``: one row a game, the points of each player)."""
    share = points[:, 0].sum() / points.sum()
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(points), size=(4000, len(points)))
    sampled = points[picks]
    shares = sampled[:, :, 0].sum(axis=1) / sampled.sum(axis=(1, 2))
    low, high = np.percentile(shares, [2.5, 97.5])
    return float(share), float(low), float(high)


def duel(
    first: Player, second: Player, games: int, seed: int, duplicate: bool = False, start: int = 0
) -> np.ndarray:
    """Each game's points (first, second); colours alternate. ``duplicate``: each pair of games
    is played with the same dice, the colours swapped. ``start``: the number of the first game
    (a share of the games played elsewhere)."""
    rows = []
    for number in range(start, start + games):
        swap = number % 2 == 1
        rng = random.Random(seed + (number // 2 if duplicate else number))
        result = play_game(second, first, rng) if swap else play_game(first, second, rng)
        row = [0, 0]
        row[result.winner ^ swap] = result.points
        rows.append(row)
    return np.array(rows, dtype=float)


PLAYERS = {"random": random_player, "heuristic": heuristic_player}


def _share(task: tuple[str, str, int, int, int, bool]) -> np.ndarray:
    """One worker's share of a duel: the players by name ("0-ply", "1-ply" or a baseline)."""
    first, second, games, seed, start, duplicate = task
    found = engine()

    def player(name: str) -> Player:
        return engine_player(found, int(name[0])) if name.endswith("ply") else PLAYERS[name]

    return duel(player(first), player(second), games, seed, duplicate, start)


def parallel_duel(
    first: str, second: str, games: int, seed: int, workers: int, duplicate: bool = False
) -> np.ndarray:
    """``duel`` in ``workers`` processes, each its own run of whole pairs of games."""
    per = -(-games // workers // 2) * 2
    tasks = [(first, second, min(per, games - start), seed, start, duplicate)
             for start in range(0, games, per)]  # fmt: skip
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return np.concatenate(pool.map(_share, tasks))


def analysis_times(found: Engine, matches: int) -> None:
    records = []
    for seed in range(matches):
        games = random_match(VARIANT, 3, random.Random(1000 + seed))
        turns = sum(len(g.actions) for g in games)
        record = MatchRecord(VARIANT, ("Home", "Away"), 3,
                             tuple(GameRecord(g.white, g.actions) for g in games))  # fmt: skip
        records.append((turns, seed, record))
    records.sort(key=lambda item: item[:2])
    turns, seed, record = records[len(records) // 2]
    print(f"\nThe median of {matches} recorded matches to 3 points: {len(record.games)} games, "
          f"{turns} turns (seed {seed})")  # fmt: skip
    for plies in (0, 1, 2):
        times = []
        for _ in range(3 if plies == 0 else 1):
            started = time.perf_counter()
            analysis = analyse_record(record, plies=plies, found=found)
            times.append(time.perf_counter() - started)
        decisions = sum(f.unforced_moves for f in analysis.totals.values())
        print(f"  analysis at {plies}-ply: {min(times):.2f} s ({decisions} decisions)")


def speeds(found: Engine) -> None:
    rng = random.Random(4)
    samples = []
    while len(samples) < 300:
        for position, turn in _random_game(rng):
            if rng.random() < 0.1:
                samples.append((position, turn.dice))
    batches = [boards_of([p.position for p in legal_plays(pos, dice)]) for pos, dice in samples]
    started, evaluated = time.perf_counter(), 0
    while time.perf_counter() - started < 3:
        for boards in batches:
            found.evaluator.boards(boards)
            evaluated += len(boards)
    rate = evaluated / (time.perf_counter() - started)
    print(f"\nEvaluations: {rate:,.0f} positions/s (batches of "
          f"{statistics.mean(len(b) for b in batches):.1f}, as the search makes them)")  # fmt: skip
    for plies, count in ((0, 300), (1, 40), (2, 10)):
        started = time.perf_counter()
        for position, dice in samples[:count]:
            found.best(position, dice, plies)
        per = (time.perf_counter() - started) / count
        print(f"  best play at {plies}-ply: {1 / per:,.1f} decisions/s ({per * 1000:.1f} ms each)")


def _random_game(rng: random.Random):
    from games.rules.selfplay import random_turns  # noqa: PLC0415

    return random_turns(VARIANT, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ply-games", type=int, default=200)
    parser.add_argument("--matches", type=int, default=15)
    parser.add_argument("--only", choices=("baselines", "plies", "analysis", "speed"))
    parser.add_argument("--seed", type=int, default=0, help="added to every duel's seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes for the games (the timings run alone)")  # fmt: skip
    args = parser.parse_args()
    found = engine()
    network = found.evaluator.network
    print(f"Weights {network.info.get('name')}: {network.info.get('games'):,} games of "
          f"self-play, {network.hidden} hidden units")  # fmt: skip
    if args.only in (None, "baselines"):
        print(
            f"\nThe engine at 0-ply, {args.games} games against each baseline, colours alternating:"
        )
        for name, baseline in (
            ("random play", "random"),
            ("pip-and-blocks heuristic", "heuristic"),
        ):
            started = time.perf_counter()
            points = parallel_duel("0-ply", baseline, args.games, 7 + args.seed, args.workers)
            share, low, high = share_with_interval(points)
            wins = (points[:, 0] > 0).mean()
            print(f"  against {name}: {share:.1%} of points (95% CI {low:.1%}–{high:.1%}), "
                  f"{wins:.1%} of games, {time.perf_counter() - started:.0f} s")  # fmt: skip
    if args.only in (None, "plies"):
        started = time.perf_counter()
        points = parallel_duel(
            "1-ply", "0-ply", args.ply_games, 11 + args.seed, args.workers, duplicate=True
        )
        share, low, high = share_with_interval(points)
        print(f"\n1-ply against 0-ply, {args.ply_games} games (pairs with the same dice): "
              f"{share:.1%} of points (95% CI {low:.1%}–{high:.1%}), "
              f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    if args.only in (None, "analysis"):
        analysis_times(found, args.matches)
    if args.only in (None, "speed"):
        speeds(found)


if __name__ == "__main__":
    main()

"""How much equity a Long Nardy decision loses, by the kind of player: the figures behind the
blunder and error thresholds of the Long Nardy analysis (``tournaments.analysis.reading``).

Games are played by self-play: a random player (the demo's games), and the engine's 0-ply choice
with Gaussian noise of ``sigma`` added to each play's equity (gnubg's way of making weaker
players: 0.0 is the engine itself). Each unforced decision is then judged as the analysis judges
it (``Engine.rank`` at ``--plies``, the play made asked for by name): its loss is the best play's
equity minus the played one's, in points of a game (oyn 1, mars 2). Prints, per player, the
decisions per game, the losses' percentiles, the share over each candidate threshold and the PR.

    .venv/bin/python bench/long_mistakes_bench.py [--games 6] [--plies 1] [--sigmas 0,0.05,0.1,0.2]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.evaluator import equity_of  # noqa: E402
from games.engine.search import Engine, engine  # noqa: E402
from games.rules.moves import LegalPlay, legal_plays  # noqa: E402
from games.rules.position import CHECKERS, OFF, Position  # noqa: E402
from games.rules.selfplay import random_roll  # noqa: E402
from games.rules.variants import LongNardy  # noqa: E402

THRESHOLDS = (0.02, 0.04, 0.06, 0.08, 0.12, 0.16, 0.25)


def choose(found: Engine, plays: list[LegalPlay], sigma: float | None, rng: random.Random) -> int:
    """The index of the play a player makes: random (``sigma`` None) or the noisy 0-ply best."""
    if sigma is None:
        return rng.randrange(len(plays))
    equities = equity_of(found.evaluator.after(plays))
    noise = np.array([rng.gauss(0.0, sigma) for _ in plays]) if sigma else 0.0
    return int(np.argmax(equities + noise))


def losses_of_game(
    found: Engine, sigma: float | None, plies: int, rng: random.Random
) -> tuple[list[float], int]:
    """The loss of each unforced decision of one game (both sides play alike), and its turns."""
    position = Position.initial(LongNardy())
    losses: list[float] = []
    for turn in range(1000):
        dice = random_roll(rng)
        plays = legal_plays(position, dice)
        chosen = plays[choose(found, plays, sigma, rng)]
        ranked = found.rank(position, dice, plies, also=(chosen,))
        if len(ranked) >= 2:
            played = next(r for r in ranked if r.play == chosen)
            losses.append(max(0.0, ranked[0].equity - played.equity))
        position = chosen.position
        if position.opponent[OFF] == CHECKERS:
            return losses, turn + 1
    return losses, 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--plies", type=int, default=1)
    parser.add_argument("--sigmas", default="0,0.05,0.1,0.2")
    parser.add_argument("--seed", type=int, default=46)
    args = parser.parse_args()
    found = engine()
    players: list[tuple[str, float | None]] = [("random", None)]
    players += [(f"engine+noise {s}", float(s)) for s in args.sigmas.split(",")]
    header = " ".join(f">{t:<5}" for t in THRESHOLDS)
    print(f"{args.games} games each, judged at {args.plies}-ply; losses in points of a game")
    print(f"{'player':<20} {'dec/game':>8} {'p50':>6} {'p90':>6} {'p99':>6} {header}  PR   s/game")
    for name, sigma in players:
        rng = random.Random(args.seed)
        losses: list[float] = []
        start = time.perf_counter()
        for _ in range(args.games):
            losses += losses_of_game(found, sigma, args.plies, rng)[0]
        seconds = (time.perf_counter() - start) / args.games
        array = np.array(losses)
        p50, p90, p99 = np.percentile(array, [50, 90, 99])
        shares = " ".join(f"{(array > t).mean() * 100:5.1f}%" for t in THRESHOLDS)
        pr = array.mean() * 500
        print(f"{name:<20} {len(array) / args.games:8.1f} {p50:6.3f} {p90:6.3f} {p99:6.3f} "
              f"{shares} {pr:6.1f} {seconds:6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()

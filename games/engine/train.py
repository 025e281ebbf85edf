"""Train the Long Nardy network by self-play with TD(λ), as TD-Gammon was trained.

    python -m games.engine.train --games 100000 --out build/engine [--resume] [--seed 1]
    python -m games.engine.train --out build/engine --ship    # the checkpoint becomes the weights
    python -m games.engine.train --start games/engine/weights/long.npz --hidden 160 --race \
        --workers 2 --games 300000 --out build/v2     # go on from shipped weights, wider

``--start`` goes on from a weights file, widened to ``--hidden`` units (``Network.widened``: the
same answers, more room), with a race network of its own when ``--race``. ``--workers`` plays
games in that many processes that learn into one set of weights in shared memory, without locks
(Hogwild!, Niu et al. 2011: the updates are small and sparse enough that an occasional lost
write does no harm); one worker trains exactly the same weights from the same seed.

The network plays both sides, each play the one its 0-ply evaluation likes best. After each game
every position of it learns toward its λ-return: the blend of the network's later values and the
game's result (TD(λ) in its forward view, applied once the game is over). Checkpoints are written
to ``--out`` every ``--save-every`` games and at the end; ``--resume`` goes on from the last one.
Progress lines give the games played, games a second, and the share of points against the fixed
baselines (``games.engine.play``), from games played at 0-ply with colours alternating.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from multiprocessing import shared_memory
from pathlib import Path
from typing import Any

import numpy as np

from games.engine.evaluator import Evaluator, coherent, equity_of, flipped
from games.engine.features import boards_of, encode
from games.engine.network import VERSION, WEIGHTS, Layers, Network
from games.engine.play import VARIANT, Player, duel, heuristic_player, random_player
from games.rules.moves import LegalPlay, legal_plays
from games.rules.position import CHECKERS, OFF, Position

CHECKPOINT = "checkpoint.npz"


def engine_player(evaluator: Evaluator) -> Player:
    """A player that takes the play its 0-ply evaluation likes best."""

    def choose(plays: Sequence[LegalPlay], dice: tuple[int, int], rng: random.Random) -> LegalPlay:
        return plays[int(np.argmax(equity_of(evaluator.after(plays))))]

    return choose


def self_play(network: Network, rng: random.Random, lam: float, rate: float) -> tuple[int, float]:
    """One game of self-play and what it teaches; returns its length in turns and the error."""
    position = Position.initial(VARIANT)
    rows = [encode(boards_of([position]))[0]]
    values = [coherent(network.forward(rows[0][None, :]))[0]]
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        after = [play.position for play in plays]
        features = encode(boards_of(after))
        mine = flipped(coherent(network.forward(features)))  # for the side that plays
        chosen = int(np.argmax(equity_of(mine))) if len(plays) > 1 else 0
        position = after[chosen]
        if position.opponent[OFF] == CHECKERS:  # the mover bore off its last checker: it won
            mars = position.mover[OFF] == 0
            final = np.array([0.0, 0.0, float(mars)], np.float32)  # for the loser, now on roll
            break
        rows.append(features[chosen])
        values.append(flipped(mine[chosen : chosen + 1])[0])
    # λ-returns, backwards from the result; each state's values are for its own side on roll,
    # and the sides alternate, so each step back is seen from the other side.
    targets = np.empty((len(rows), 3), np.float32)
    following, target = final, final
    for index in range(len(rows) - 1, -1, -1):
        target = flipped(((1.0 - lam) * following + lam * target)[None, :])[0]
        targets[index] = target
        following = values[index]
    error = network.learn(np.array(rows), targets, rate)
    return len(rows), error


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=100_000, help="games to reach in all")
    parser.add_argument("--out", type=Path, default=Path("build/engine"))
    parser.add_argument("--resume", action="store_true", help="go on from the last checkpoint")
    parser.add_argument("--start", type=Path, help="go on from these weights (widened to --hidden)")
    parser.add_argument("--race", action="store_true", help="a network of its own for races")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument("--lam", type=float, default=0.7, help="TD(λ)'s λ")
    parser.add_argument("--rate", type=float, default=0.01, help="learning rate at the start")
    parser.add_argument("--final-rate", type=float, default=0.002, help="learning rate at the end")
    parser.add_argument("--save-every", type=int, default=5_000)
    parser.add_argument("--check-every", type=int, default=5_000)
    parser.add_argument("--check-games", type=int, default=200)
    parser.add_argument(
        "--ship",
        action="store_true",
        help=f"copy the last checkpoint to the shipped weights ({WEIGHTS})",
    )
    return parser.parse_args(argv)


def ship(checkpoint: Path, weights: Path = WEIGHTS) -> str:
    """Make a checkpoint the shipped weights, named after its games: "v2-300k"."""
    network = Network.load(checkpoint)
    network.info["name"] = f"v{VERSION}-{int(network.info['games']) // 1000}k"
    network.save(weights)
    return str(network.info["name"])


def _network(args: argparse.Namespace, checkpoint: Path) -> Network:
    """The network to train: the checkpoint's when resuming, else new or widened weights."""
    if args.resume and checkpoint.exists():
        network = Network.load(checkpoint)
        print(f"resumed at {network.info['games']} games", flush=True)
        return network
    if args.start is not None:
        started = Network.load(args.start)
        network = started.widened(args.hidden, args.seed, race=args.race)
        network.info = {
            "games": int(started.info["games"]),
            "seed": args.seed,
            "started_from": str(started.info.get("name", args.start.name)),
        }
    else:
        network = Network.initial(args.hidden, args.seed, race=args.race)
    network.info.update(
        lam=args.lam,
        rate=args.rate,
        final_rate=args.final_rate,
        hidden=args.hidden,
        race=args.race,
        seconds=0.0,
        first_game=int(network.info["games"]),
    )
    return network


def _rate(args: argparse.Namespace, network: Network, played: int) -> float:
    """The learning rate falls geometrically over this run's games, from ``--rate``."""
    first = int(network.info.get("first_game", 0))
    share = (played - first) / max(args.games - first, 1)
    return float(args.rate * (args.final_rate / args.rate) ** share)


def _check(args: argparse.Namespace, network: Network, played: int, rate: float,
           speed: float, turns: float) -> None:  # fmt: skip
    player = engine_player(Evaluator(network))
    against = [
        duel(player, baseline, args.check_games, seed=played).share
        for baseline in (random_player, heuristic_player)
    ]
    print(
        f"games {played}  {speed:.1f} games/s  turns/game {turns:.0f}  rate {rate:.4f}  "
        f"points vs random {against[0]:.1%}  vs heuristic {against[1]:.1%}",
        flush=True,
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    checkpoint = args.out / CHECKPOINT
    if args.ship:
        print(f"shipped {ship(checkpoint)}: {WEIGHTS}")
        return 0
    network = _network(args, checkpoint)
    if args.workers > 1:
        _train_shared(args, network, checkpoint)
    else:
        _train(args, network, checkpoint)
    return 0


def _train(args: argparse.Namespace, network: Network, checkpoint: Path) -> None:
    """Self-play in this process, the same weights from the same seed."""
    played = int(network.info["games"])
    rng = random.Random(args.seed * 1_000_003 + played)
    started, since, turns = time.perf_counter(), played, 0
    seconds = float(network.info.get("seconds", 0.0))
    while played < args.games:
        rate = _rate(args, network, played)
        length, _error = self_play(network, rng, args.lam, rate)
        played += 1
        turns += length
        if played % args.check_every == 0 or played == args.games:
            elapsed = time.perf_counter() - started
            _check(
                args, network, played, rate, (played - since) / elapsed, turns / (played - since)
            )
        if played % args.save_every == 0 or played == args.games:
            network.info.update(games=played, seconds=seconds + time.perf_counter() - started)
            network.save(checkpoint)


def _train_shared(args: argparse.Namespace, network: Network, checkpoint: Path) -> None:
    """Self-play in ``--workers`` processes learning into the same arrays (Hogwild!): this
    process counts the games, writes the checkpoints and runs the checks."""
    context = multiprocessing.get_context("fork")
    memory = [_share(layers) for layers in network.layers()]  # the arrays now live in it
    counter = context.Value("q", int(network.info["games"]))
    turns = context.Value("q", 0)
    since = int(network.info["games"])
    workers = [
        context.Process(target=_worker, args=(args, network, number, counter, turns))
        for number in range(args.workers)
    ]
    for worker in workers:
        worker.start()
    started = time.perf_counter()
    seconds = float(network.info.get("seconds", 0.0))
    saved = checked = since
    try:
        while any(worker.is_alive() for worker in workers):
            time.sleep(1.0)
            played = min(counter.value, args.games)
            network.info.update(games=played, seconds=seconds + time.perf_counter() - started)
            if played // args.save_every > saved // args.save_every or played == args.games:
                network.save(checkpoint)
                saved = played
            if played // args.check_every > checked // args.check_every:
                checked = played
                elapsed = time.perf_counter() - started
                rate = _rate(args, network, played)
                _check(args, network, played, rate, (played - since) / elapsed,
                       turns.value / max(played - since, 1))  # fmt: skip
    finally:
        for worker in workers:
            worker.join()
        network.info.update(games=min(counter.value, args.games))
        network.save(checkpoint)
        for block in memory:
            for shared in block:
                shared.close()
                shared.unlink()


def _share(layers: Layers) -> list[shared_memory.SharedMemory]:
    """Move the arrays of ``layers`` into shared memory (forked workers see and write them)."""
    blocks = []
    for name in ("w1", "b1", "w2", "b2"):
        array = getattr(layers, name)
        block = shared_memory.SharedMemory(create=True, size=array.nbytes)
        view: np.ndarray = np.ndarray(array.shape, array.dtype, buffer=block.buf)
        view[...] = array
        setattr(layers, name, view)
        blocks.append(block)
    return blocks


def _worker(args: argparse.Namespace, network: Network, number: int, counter: Any,
            turns: Any) -> None:  # fmt: skip
    rng = random.Random((args.seed * 1_000_003 + counter.value) * 31 + number)
    while True:
        with counter.get_lock():
            if counter.value >= args.games:
                return
            counter.value += 1
            played = counter.value
        length, _error = self_play(network, rng, args.lam, _rate(args, network, played))
        with turns.get_lock():
            turns.value += length


if __name__ == "__main__":
    sys.exit(main())

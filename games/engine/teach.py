"""Train the network toward its own 1-ply answers: the search's knowledge distilled into 0-ply.

    python -m games.engine.teach label --weights games/engine/weights/long.npz \
        --positions 120000 --workers 2 --out build/teach/positions.npz
    python -m games.engine.teach fit --start games/engine/weights/long.npz \
        --data build/teach/positions.npz --epochs 8 --out build/teach/long.npz

Self-play by TD(λ) learns each position toward a single sample of what follows it: one roll, the
play the network chose. The 1-ply value is the whole average: each of the 21 rolls answered with
its 0-ply best (``Engine.values``), with the exact answers of the bear-off database and of what
the pips settle at the leaves. gnubg's networks were made stronger by training on such deeper
answers rather than on more self-play; this is that step, with 1-ply as the teacher.

``label`` plays games of self-play at 0-ply and keeps the positions a 0-ply choice looks at:
the one each chosen play leaves, and the one left by another play among the roll's best five,
chosen at random (the ranking that decides a play is between such positions). One turn in ten
plays that other play, so that the games reach the positions a weaker choice leads to. Positions
the evaluator already answers exactly are not kept. Each kept position is labelled with its
1-ply probabilities, games spread over ``--workers`` processes.

``fit`` goes on from the given weights by minibatch gradient descent on the cross-entropy
toward the labels, the rate falling over the epochs, with a twentieth of the positions held out
to watch the error.

Tried on ``v2-230k`` (2026-11-29, the 2-core VM): 120,746 positions labelled in 13.6 minutes on
both cores (148 a second); four epochs (15 s) brought the network's mean squared difference
from its 1-ply answers from 0.000295 to 0.00025 (its equity's from 0.036 to 0.033), and the
result took 54.7% of the points against ``v1-60k`` over 1,000 mirrored games (95% CI
51.8–57.4%), no better than ``v2-230k`` itself (56.9%). A network trained this long by TD(λ)
is already close to its own 1-ply answers; what is left is what its units and features cannot
hold (widened to 320 units it fitted no closer). The teacher is for a network with more to
learn from the search: new inputs, or the rollouts' answers as labels.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from games.engine.features import Boards, boards_of, encode
from games.engine.network import Array, Network
from games.engine.play import VARIANT
from games.engine.search import Engine, engine_of
from games.rules.position import CHECKERS, OFF, Position

#: The other play kept each turn is among the roll's best this many at 0-ply.
NEAR = 5
#: The share of turns that play the other play, not the best.
EXPLORE = 0.1


def labelled_games(engine: Engine, games: int, seed: int) -> tuple[Boards, Array]:
    """The kept positions of ``games`` games of self-play and their 1-ply probabilities."""
    rng = random.Random(seed)
    kept: list[Position] = []
    for _ in range(games):
        kept.extend(game_positions(engine, rng))
    boards = boards_of(kept)
    exact = engine.evaluator.exact(boards)
    live = [position for position, known in zip(kept, exact, strict=True) if not known]
    labels = (
        np.concatenate([engine.values(live[i : i + 64], 1) for i in range(0, len(live), 64)])
        if live
        else np.zeros((0, 3), np.float32)
    )
    return boards[~exact], labels.astype(np.float32)


def game_positions(engine: Engine, rng: random.Random) -> list[Position]:
    """The positions one game of self-play keeps (the module's docstring says which)."""
    position = Position.initial(VARIANT)
    kept: list[Position] = []
    while True:
        ranked = engine.rank(position, (rng.randint(1, 6), rng.randint(1, 6)), 0)
        if len(ranked) == 1:
            position = ranked[0].play.position
        else:
            best = ranked[0].play
            other = ranked[rng.randrange(1, min(NEAR, len(ranked)))].play
            kept += [best.position, other.position]
            position = other.position if rng.random() < EXPLORE else best.position
        if position.opponent[OFF] == CHECKERS:
            return kept


def _label_task(task: tuple[str, int, int]) -> tuple[Boards, Array]:
    weights, games, seed = task
    return labelled_games(engine_of(Path(weights)), games, seed)


def label(
    weights: Path, positions: int, workers: int, seed: int, out: Path, chunk: int = 20
) -> None:
    """Label ``positions`` positions or a few more, ``chunk`` games a task, saved as they
    come."""
    boards: list[Boards] = []
    labels: list[Array] = []
    started = time.perf_counter()
    tasks = ((str(weights), chunk, seed * 1_000_003 + number) for number in itertools.count())
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for found, probabilities in pool.imap(_label_task, tasks):
            boards.append(found)
            labels.append(probabilities)
            count = sum(len(b) for b in boards)
            if len(boards) % 10 == 0 or count >= positions:
                _save_positions(out, boards, labels)
                speed = count / (time.perf_counter() - started)
                print(f"{count} positions  {speed:.0f}/s", flush=True)
            if count >= positions:
                pool.terminate()
                break


def _save_positions(out: Path, boards: list[Boards], labels: list[Array]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = out.with_suffix(".tmp.npz")
    np.savez_compressed(scratch, boards=np.concatenate(boards), labels=np.concatenate(labels))
    scratch.replace(out)


def fit(
    network: Network,
    features: npt.NDArray[np.float32],
    labels: Array,
    epochs: int,
    rate: float,
    final_rate: float,
    batch: int,
    seed: int,
) -> list[tuple[float, float]]:
    """Train ``network`` in place toward ``labels``; the training and held-out mean squared
    error after each epoch."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(features))
    held = order[: len(order) // 20]
    train = order[len(order) // 20 :]
    errors = []
    for epoch in range(epochs):
        step = rate * (final_rate / rate) ** (epoch / max(epochs - 1, 1)) / batch
        rng.shuffle(train)
        for start in range(0, len(train), batch):
            rows = train[start : start + batch]
            network.learn(features[rows], labels[rows], step)
        errors.append(
            (
                _error(network, features[train[:20000]], labels[train[:20000]]),
                _error(network, features[held], labels[held]),
            )  # fmt: skip
        )
        print(f"epoch {epoch + 1}  rate {step * batch:.4f}  mse train {errors[-1][0]:.5f}  "
              f"held out {errors[-1][1]:.5f}", flush=True)  # fmt: skip
    return errors


def _error(network: Network, features: npt.NDArray[np.float32], labels: Array) -> float:
    return float(((network.forward(features) - labels) ** 2).mean())


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.teach",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    labelling = commands.add_parser("label", help="label self-play positions at 1-ply")
    labelling.add_argument("--weights", type=Path, required=True)
    labelling.add_argument("--positions", type=int, default=100_000)
    labelling.add_argument("--workers", type=int, default=1)
    labelling.add_argument("--seed", type=int, default=1)
    labelling.add_argument("--chunk", type=int, default=20, help="games a task")
    labelling.add_argument("--out", type=Path, required=True)
    fitting = commands.add_parser("fit", help="train weights toward the labels")
    fitting.add_argument("--start", type=Path, required=True)
    fitting.add_argument("--data", type=Path, nargs="+", required=True)
    fitting.add_argument("--epochs", type=int, default=8)
    fitting.add_argument("--rate", type=float, default=0.01)
    fitting.add_argument("--final-rate", type=float, default=0.001)
    fitting.add_argument("--batch", type=int, default=32)
    fitting.add_argument("--seed", type=int, default=1)
    fitting.add_argument("--out", type=Path, required=True)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    if args.command == "label":
        label(args.weights, args.positions, args.workers, args.seed, args.out, args.chunk)
        return 0
    network = Network.load(args.start)
    boards, labels = [], []
    for path in args.data:
        with np.load(path) as found:
            boards.append(found["boards"])
            labels.append(found["labels"])
    features = encode(np.concatenate(boards))
    started = time.perf_counter()
    fit(network, features, np.concatenate(labels), args.epochs, args.rate, args.final_rate,
        args.batch, args.seed)  # fmt: skip
    network.info.update(
        teacher="1-ply",
        taught_positions=len(features),
        taught_epochs=args.epochs,
        taught_seconds=round(time.perf_counter() - started, 1),
    )
    network.save(args.out)
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Roll out the Long Nardy accuracy benchmark (``games.engine.accuracy``): the truth that
``bench/engine_accuracy.py`` judges the engine against. Run:

    .venv/bin/python bench/engine_accuracy_rollouts.py [--games 1296] [--plies 0]
        [--weights games/engine/weights/long.npz OTHER.npz] [--top 3] [--workers N] [--limit N]
        [--stages race mars ...] [--plain start contact]

For each position of the set (``games/engine/benchmark/positions.jsonl``), a rollout of the
position before its roll (its equity for the side on roll), then one of each candidate play of its
roll: every play that 0-, 1- or 2-ply (``--candidate-plies``) chooses under each weights file of
``--weights``, and the best ``--top`` of each one's 0-ply ranking. A play is rolled out as the
position it leaves, and its line gives the probabilities and equity for the side that plays it.
The rollouts of one position share their seed (``--seed`` plus the position's number in the
set): the candidates see the same dice, so their differences are measured with less noise.

Each rollout is one JSON line appended to ``--results`` (``games/engine/benchmark/
rollouts.jsonl``) as soon as it is done: ``{"position_id", "play": null or "24/18 13/9", "after":
null or the Position ID the play leaves, "win", "win_mars", "lose_mars", "equity", "stderr",
"games", "plies", "seed"}``. Run again, it skips what the file already holds: a long run can stop
and resume, and a new weights file adds only its new candidates. The rollout players are the
shipped weights (``--players`` for others), at ``--plies``; every core plays (``--workers``).

What a game costs, and what taking the luck out gains, measured with ``v1-60k`` on one position
of each stage of the set (36 games each, 0-ply players; the standard error of the equity):

========  ===================  ====================  ===========
stage     luck taken out       plain                 error ratio
========  ===================  ====================  ===========
start     ±0.131, 0.47 s/game  ±0.179, 0.036 s/game  1.4
contact   ±0.114, 0.39 s/game  ±0.158, 0.031 s/game  1.4
prime     ±0.034, 0.01 s/game  ±0.077, 0.002 s/game  2.3
race      ±0.007, 0.02 s/game  ±0.068, 0.002 s/game  9.7
mars      ±0.002, 0.01 s/game  ±0.047, 0.001 s/game  25
========  ===================  ====================  ===========

Measuring the luck costs the 21 rolls' plays at every turn, 13 times a plain game. Late in the
game it pays many times over; from the start and in the middle game, with this network (its 0-ply
and 1-ply equities differ by 0.04 a turn there, and that is what is left after the luck), plain
games are about 7 times cheaper for the same error: ``--plain start contact`` rolls those stages
out plainly (each line says which: ``"luck"``). A better network shrinks what is left after the
luck, so measure again with new weights. With ``v2-230k`` (one position each, 36 games):

========  ===================  ====================  ========================
stage     luck taken out       plain                 the better, for the time
========  ===================  ====================  ========================
start     ±0.128, 1.61 s/game  ±0.235, 0.106 s/game  plain, 4.5 times
contact   ±0.032, 0.095 s/game ±0.051, 0.023 s/game  plain, 1.6 times
race      ±0.001, 0.068 s/game ±0.008, 0.034 s/game  luck out, 32 times
========  ===================  ====================  ========================

The whole set with its candidates at 1,296 games a rollout (gnubg's default) is days of both
cores: choose ``--games`` for the time there is, a stage at a time (``--stages``); the run of
``bench/README.md`` takes the luck out of the late stages only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from games.engine.accuracy import POSITIONS, ROLLOUTS, STAGES, Entry, read_set  # noqa: E402
from games.engine.evaluator import flipped  # noqa: E402
from games.engine.network import WEIGHTS  # noqa: E402
from games.engine.rollout import Rollout, rollout  # noqa: E402
from games.engine.search import PLIES, Engine, engine_of  # noqa: E402
from games.rules.moves import LegalPlay  # noqa: E402
from games.rules.position import Position  # noqa: E402


def candidates(entry: Entry, engines: list[Engine], plies: list[int], top: int) -> list[LegalPlay]:
    """The plays of ``entry``'s roll worth rolling out, one for each position they leave."""
    found: dict[Position, LegalPlay] = {}
    for each in engines:
        for depth in plies:
            best = each.best(entry.position, entry.dice, depth).play
            found.setdefault(best.position, best)
        for ranked in each.rank(entry.position, entry.dice, 0)[:top]:
            found.setdefault(ranked.play.position, ranked.play)
    return list(found.values())


def line_of(
    entry: Entry, play: LegalPlay | None, measured: Rollout, plies: int, seed: int, luck: bool
) -> dict[str, Any]:
    """A result line; a play's probabilities are turned to the side that plays it."""
    row = np.array([[measured.win, measured.win_mars, measured.lose_mars]])
    if play is not None:
        row = flipped(row)
    win, win_mars, lose_mars = (round(float(value), 6) for value in row[0])
    return {
        "position_id": entry.position.position_id(),
        "play": None if play is None else str(play.play),
        "after": None if play is None else play.position.position_id(),
        "win": win,
        "win_mars": win_mars,
        "lose_mars": lose_mars,
        "equity": round(measured.equity if play is None else -measured.equity, 6),
        "stderr": round(measured.stderr, 6),
        "games": measured.games,
        "plies": plies,
        "seed": seed,
        "luck": luck,
    }


def done_in(path: Path) -> set[tuple[str, str | None]]:
    """The (position, position after the play or None) already rolled out in ``path``."""
    if not path.exists():
        return set()
    with path.open(encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return {(row["position_id"], row["after"]) for row in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--results", type=Path, default=ROLLOUTS)
    parser.add_argument("--games", type=int, default=1296, help="games a rollout")
    parser.add_argument("--plies", type=int, choices=PLIES, default=0, help="the players' plies")
    parser.add_argument("--weights", type=Path, nargs="+", default=[WEIGHTS])
    parser.add_argument("--players", type=Path, default=WEIGHTS, help="the players' weights")
    parser.add_argument("--candidate-plies", default="0,1,2")
    parser.add_argument("--top", type=int, default=3, help="also the best TOP of 0-ply")
    parser.add_argument("--workers", type=int, default=None, help="processes (all cores)")
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--limit", type=int, default=None, help="only the first LIMIT positions")
    parser.add_argument(
        "--stages", nargs="+", choices=STAGES, default=STAGES, help="only these stages' positions"
    )
    parser.add_argument(
        "--plain", nargs="*", choices=STAGES, default=[], help="stages rolled out plainly"
    )
    args = parser.parse_args()
    plies = [int(depth) for depth in args.candidate_plies.split(",")]
    engines = [engine_of(path) for path in args.weights]
    players = engine_of(args.players)
    entries = read_set(args.positions)[: args.limit]
    done = done_in(args.results)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rolled = 0
    with args.results.open("a", encoding="utf-8") as out:
        for number, entry in enumerate(entries):
            if entry.stage not in args.stages:
                continue
            seed = args.seed + number
            luck = entry.stage not in args.plain
            identifier = entry.position.position_id()
            todo: list[tuple[LegalPlay | None, Position]] = [(None, entry.position)]
            todo += [(play, play.position) for play in candidates(entry, engines, plies, args.top)]
            for play, position in todo:
                key = (identifier, None if play is None else play.position.position_id())
                if key in done:
                    continue
                measured = rollout(
                    position,
                    games=args.games,
                    seed=seed,
                    plies=args.plies,
                    workers=args.workers,
                    found=players,
                    reduce=luck,
                )
                out.write(json.dumps(line_of(entry, play, measured, args.plies, seed, luck)) + "\n")
                out.flush()
                done.add(key)
                rolled += 1
            print(
                f"{number + 1}/{len(entries)} {entry.stage:<8} {identifier} "
                f"({rolled} rollouts, {time.perf_counter() - started:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()

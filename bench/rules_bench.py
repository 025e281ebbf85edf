"""Speed of the rules engine on random self-play (one core, one process).

Prints, for each game: positions per second for ``legal_plays``, recorded plays per second for
``check_play`` and whole games validated per second (``replay_game``). For Short Nardy it also
times GNU Backgammon's C move generator (``gnubg_nn.moves``, the ``oracle`` extra) on the same
positions and prints how many times slower ours is. The corpus section reads and checks every
real match of the corpus, found as the tests find it (``NARDY_CORPUS``, else
../shared/corpora/bglab beside the checkout), in one pass. The self-play figures are each the
best of 3 runs (gnubg's of 20); each goal is printed beside its figure. Run:

    .venv/bin/python bench/rules_bench.py [--games 200] [--seed 7] [--only short|long|corpus]
        [--profile] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import (  # noqa: E402
    LongNardy,
    Position,
    ShortNardy,
    Turn,
    Variant,
    check_play,
    legal_plays,
    replay_game,
)
from games.rules.matfile import check_match, read_match  # noqa: E402
from games.rules.selfplay import random_turns  # noqa: E402
from tests.support.corpus import MISSING, corpus_folder, match_files  # noqa: E402

# The comparison takes the best of several runs: ours takes seconds a run, gnubg's tens of ms.
OUR_RUNS = 3
GNUBG_RUNS = 20
# The goal for Short Nardy's legal_plays: at most this many times slower than gnubg's C code.
GOAL_RATIO = 10
# Long Nardy's goals, per second: positions generated, recorded plays checked.
LONG_GOALS = {"legal_plays": 25_000, "check_play": 100_000}
# The whole corpus read and checked in under this many seconds.
CORPUS_GOAL_SECONDS = 5


def sample(variant: Variant, games: int, seed: int) -> list[list[tuple[Position, Turn]]]:
    rng = random.Random(seed)
    return [list(random_turns(variant, rng)) for _ in range(games)]


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>10,.0f}/s  ({count:,} in {seconds:.2f} s)"


def measure(
    variant: Variant,
    recorded: list[list[tuple[Position, Turn]]],
    goals: dict[str, int] | None = None,
) -> None:
    """Each figure is the best of ``OUR_RUNS`` runs; ``goals`` gives a rate to reach per figure."""
    turns = [turn for game in recorded for turn in game]
    goals = goals or {}

    def legal() -> None:
        for position, turn in turns:
            legal_plays(position, turn.dice)

    def check() -> None:
        for position, turn in turns:
            check_play(position, turn.dice, turn.play)

    def replay() -> None:
        for game in recorded:
            replay_game(variant, [turn for _, turn in game])

    figures = [
        ("legal_plays  positions", legal, len(turns)),
        ("check_play   plays    ", check, len(turns)),
        ("replay_game  games    ", replay, len(recorded)),
    ]
    for label, run, count in figures:
        seconds = best_time(run, OUR_RUNS)
        goal = goals.get(label.split()[0])
        verdict = ""
        if goal:
            met = "within" if count / seconds >= goal else "outside"
            verdict = f"  {met} the goal of {goal:,}/s"
        print(f"  {label}   {rate(count, seconds)}{verdict}")


def profiled(variant: Variant, recorded: list[list[tuple[Position, Turn]]]) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    measure(variant, recorded)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def best_time(run: Callable[[], None], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def compare_with_gnubg(recorded: list[list[tuple[Position, Turn]]]) -> None:
    """``legal_plays`` against ``gnubg_nn.moves`` on the same positions and rolls."""
    try:
        import gnubg_nn  # GPL: a test and benchmark dependency only, never imported by the project.
    except ImportError:
        print("  gnubg_nn is not installed (pip install -e '.[oracle]'): no comparison with gnubg")
        return
    turns = [(position, turn.dice) for game in recorded for position, turn in game]
    # gnubg's boards are made beforehand: only the move generators are timed.
    boards = [(gnubg_nn.board_from_position_id(p.position_id()), *dice) for p, dice in turns]

    def run_ours() -> None:
        for position, dice in turns:
            legal_plays(position, dice)

    def run_gnubg() -> None:
        for board, d1, d2 in boards:
            gnubg_nn.moves(board, d1, d2)

    # Results are dropped as they come, as in measure(): a list of them all would make the
    # garbage collector rescan a growing heap and slow our side down by half.
    ours, theirs = best_time(run_ours, OUR_RUNS), best_time(run_gnubg, GNUBG_RUNS)
    print(f"  Against gnubg's move generator (best of {OUR_RUNS} runs, gnubg's of {GNUBG_RUNS}):")
    print(f"  legal_plays  positions   {rate(len(turns), ours)}")
    print(f"  gnubg moves  positions   {rate(len(turns), theirs)}")
    ratio = ours / theirs
    verdict = "within" if ratio <= GOAL_RATIO else "outside"
    print(f"  ours slower by {ratio:.1f}x ({verdict} the goal of {GOAL_RATIO}x)")


# --- Sections: each prints one block of figures; add one by writing a function of the parsed
# --- arguments and listing it in SECTIONS.


def long_nardy(args: argparse.Namespace) -> None:
    variant = LongNardy()
    recorded = sample(variant, args.games, args.seed)
    print(f"Long Nardy, {args.games} random self-play games, Python {sys.version.split()[0]}")
    print(f"  (best of {OUR_RUNS} runs each)")
    measure(variant, recorded, LONG_GOALS)
    if args.profile:
        profiled(variant, recorded)


def short_nardy(args: argparse.Namespace) -> None:
    variant = ShortNardy()
    recorded = sample(variant, args.games, args.seed)
    print(f"Short Nardy, {args.games} random self-play games, Python {sys.version.split()[0]}")
    print(f"  (best of {OUR_RUNS} runs each)")
    measure(variant, recorded)
    compare_with_gnubg(recorded)
    if args.profile:
        profiled(variant, recorded)


def corpus(args: argparse.Namespace) -> None:
    """Read and check every real match of ../shared/corpora/bglab, as ``check`` does."""
    folder = Path(args.corpus) if args.corpus else corpus_folder()
    files = match_files(folder) if folder else []
    if not files:
        print(f"Corpus: no match files under {folder or MISSING} (--corpus DIR)")
        return
    start = time.perf_counter()
    plays = invalid = 0
    for path in files:
        record = read_match(path.read_text(encoding="utf-8"))
        plays += sum(isinstance(a, Turn) for game in record.games for a in game.actions)
        invalid += not check_match(record).valid
    seconds = time.perf_counter() - start
    print(f"Corpus: {len(files):,} .mat files under {folder}")
    print(f"  read + check  {plays:,} plays in {seconds:.1f} s  ({plays / seconds:,.0f} plays/s)")
    verdict = "within" if seconds < CORPUS_GOAL_SECONDS else "outside"
    print(
        f"  invalid files {invalid}; {verdict} the goal of the whole corpus in under"
        f" {CORPUS_GOAL_SECONDS} s on one core"
    )


SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {
    "long": long_nardy,
    "short": short_nardy,
    "corpus": corpus,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", choices=sorted(SECTIONS), help="run one section")
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument(
        "--corpus", help="folder of .mat files for the corpus section (default: as the tests)"
    )
    args = parser.parse_args()
    for number, (name, section) in enumerate(SECTIONS.items()):
        if args.only in (None, name):
            if number and args.only is None:
                print()
            section(args)


if __name__ == "__main__":
    main()

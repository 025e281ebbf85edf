"""How long GNU Backgammon takes to analyse a match: the corpus's median match (by its number of
moves), at 0-ply and at 2-ply, through ``games.analysis.runner.analyse`` (gnubg as a separate
program, one at a time), best of ``--runs``. Run:

    .venv/bin/python bench/analysis_bench.py [--runs 3] [--plies 0,2]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.analysis.runner import analyse, gnubg_path  # noqa: E402
from tests.support.corpus import corpus_folder, match_files  # noqa: E402

MOVE = re.compile(r"^\s*\d+\)", re.M)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--plies", default="0,2")
    args = parser.parse_args()
    folder = corpus_folder()
    if folder is None or gnubg_path() is None:
        sys.exit("needs the corpus and gnubg (apt-get install gnubg)")
    files = match_files(folder)
    sized = sorted((len(MOVE.findall(f.read_text(errors="replace"))), f) for f in files)
    moves, median = sized[len(sized) // 2]
    text = median.read_text(errors="replace")
    print(f"gnubg {gnubg_path()}; the median match of {len(files):,}: {median.name}, "
          f"{moves} move lines")  # fmt: skip
    for plies in (int(p) for p in args.plies.split(",")):
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            analysis = analyse(text, plies=plies, timeout=3600)
            times.append(time.perf_counter() - start)
        games = len(analysis.games)
        best, middle = min(times), statistics.median(times)
        print(f"  {plies}-ply: best {best:.2f} s, median {middle:.2f} s ({games} games); "
              f"one process: {3600 / best:,.0f} matches an hour")  # fmt: skip


if __name__ == "__main__":
    main()

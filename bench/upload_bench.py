"""Every .mat file of the real corpus uploaded as a match result, one file at a time, through the
result service (``tournaments.matches.results.match_result_record``, as the site and the API
call it).

In a child process with a fresh SQLite database: for each file, a running Short Nardy tournament
with the file's match length and Crawford rule and a match between its two players are made
(not timed); then the organizer's upload of the file is timed: reading the file, replaying every
game with the engine, storing the games and the result. The tasks a result enqueues on commit
(ratings, the board replay) are not run: they are the worker's part, not the upload's. Also
counted: the engine's ``check_play`` calls against the plays in the files (one replay: equal).
Run:

    .venv/bin/python bench/upload_bench.py [--corpus DIR] [--limit N]

The corpus is found as the tests find it (tests/support/corpus.py): ``NARDY_CORPUS``, else
../shared/corpora/bglab beside the checkout.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.corpus import corpus_folder, match_files  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="the folder of .mat files")
    parser.add_argument("--limit", type=int, help="only the first N files")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    corpus = args.corpus or corpus_folder()
    if corpus is None:
        parser.error("the corpus ../shared/corpora/bglab is missing: give --corpus DIR")
    if args.child:
        run(corpus, args.limit)
        return
    url = f"sqlite:///{tempfile.mkdtemp(prefix='upload-bench-')}/bench.sqlite3"
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("CELERY_BROKER_URL", None)
    command = [sys.executable, __file__, "--child", url, "--corpus", str(corpus)]
    if args.limit:
        command += ["--limit", str(args.limit)]
    subprocess.run(command, env=env, check=True, cwd=ROOT)


def run(corpus: Path, limit: int | None) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")
    import django  # noqa: PLC0415

    django.setup()
    from django.contrib.auth.models import User  # noqa: PLC0415
    from django.core.management import call_command  # noqa: PLC0415

    from games.rules import Turn  # noqa: PLC0415
    from games.rules import game as engine  # noqa: PLC0415
    from games.rules.matfile import read_match  # noqa: PLC0415
    from tournaments import queue  # noqa: PLC0415
    from tournaments.matches.results import match_result_record  # noqa: PLC0415
    from tournaments.models import Entry, Match, Player, Round, Tournament  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    queue._publish = lambda task, args: None  # the worker's part is not the upload's
    calls = [0]
    check_play = engine.check_play

    def counted(*args):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return check_play(*args)

    engine.check_play = counted
    organizer = User.objects.create_user("olga")
    files = match_files(corpus)[:limit]
    uploads, plays, games, refused = [], 0, 0, []
    for number, path in enumerate(files):
        text = path.read_text(encoding="utf-8", errors="replace")
        record = read_match(text)  # to set the tournament up: its length and Crawford rule
        plays += sum(isinstance(a, Turn) for game in record.games for a in game.actions)
        games += len(record.games)
        tournament = Tournament.objects.create(
            name=path.stem, slug=f"corpus-{number}", variant="short", status="running",
            organizer=organizer, match_length=record.length, crawford=record.crawford,
            rated=False,
        )  # fmt: skip
        sides = [
            Entry.objects.create(tournament=tournament, player=Player.objects.create(
                display_name=f"{name} {number}"[:60]))
            for name in record.players
        ]  # fmt: skip
        round_ = Round.objects.create(tournament=tournament, number=1)
        match = Match.objects.create(
            tournament=tournament, round=round_, home=sides[0], away=sides[1]
        )
        began = time.perf_counter()
        try:
            match_result_record(match=match, by=organizer, mat=text)
        except Exception as error:  # noqa: BLE001 - a refused file is reported, not fatal
            refused.append(f"{path.name}: {error}")
        uploads.append(time.perf_counter() - began)
    total = sum(uploads)
    uploads.sort()
    median, slowest = uploads[len(uploads) // 2], uploads[-1]
    print(f"Corpus uploads: {len(files):,} match files under {corpus}, Python {sys.version[:6]}")
    print(
        f"  {total:.1f} s in all for {games:,} games, {plays:,} plays ({plays / total:,.0f}"
        f" plays/s); per file median {median * 1000:.0f} ms, slowest {slowest * 1000:.0f} ms"
    )
    print(f"  check_play calls {calls[0]:,} for {plays:,} plays ({calls[0] / plays:.2f} per play)")
    print(f"  refused {len(refused)}")
    for line in refused[:10]:
        print(f"    {line}")


if __name__ == "__main__":
    main()

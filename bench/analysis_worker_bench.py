"""The analysis worker's throughput in matches an hour: a real Celery worker of the ``analysis``
queue (``--concurrency``, default one process a core) on Redis and PostgreSQL, fed ``--matches``
corpus matches recorded as results (a fixed random sample, so the mix of lengths is the corpus's).
The clock runs from the first message sent until every analysis is stored; the worker is started
and ready before. Run:

    .venv/bin/python bench/analysis_worker_bench.py [--matches 60] [--plies 0] [--concurrency N]

It recreates the PostgreSQL database ``nardy_analysis_bench`` and empties Redis database 7.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load_day import recreate_postgres  # noqa: E402  (beside this script)

from tests.support.corpus import corpus_folder, match_files  # noqa: E402

POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_analysis_bench"
REDIS_DB = 7


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--postgres", default=POSTGRES)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = corpus_folder()
    if folder is None:
        sys.exit("needs the corpus")
    recreate_postgres(args.postgres)
    broker = f"redis://127.0.0.1:6379/{REDIS_DB}"
    os.environ.update(
        {
            "DATABASE_URL": args.postgres,
            "ANALYSIS": "off",
            "DJANGO_SETTINGS_MODULE": "nardy_site.settings",
        }
    )  # this process records the results without analysing them
    os.environ.pop("CELERY_BROKER_URL", None)
    import django  # noqa: PLC0415

    django.setup()
    import logging  # noqa: PLC0415

    logging.disable(logging.WARNING)
    from django.core.management import call_command  # noqa: PLC0415

    from games.analysis.runner import gnubg_path  # noqa: PLC0415
    from nardy_site.celery import app  # noqa: PLC0415
    from tournaments.analysis.models import MatchAnalysis  # noqa: PLC0415

    if gnubg_path() is None:
        sys.exit("needs gnubg (apt-get install gnubg)")
    call_command("migrate", verbosity=0)
    files = match_files(folder)
    random.Random(args.seed).shuffle(files)
    matches, games = seed(files, args.matches)
    import redis  # noqa: PLC0415

    redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB).flushdb()
    env = {**os.environ, "CELERY_BROKER_URL": broker, "ANALYSIS": "on",
           "ANALYSIS_PLIES": str(args.plies)}  # fmt: skip
    env.pop("CELERY_RESULT_BACKEND", None)
    with tempfile.TemporaryDirectory(prefix="analysis-bench-") as work:
        log = Path(work) / "worker.log"
        worker = start_worker(env, args.concurrency, log)
        try:
            wait_ready(worker, log)
            app.conf.update(broker_url=broker, broker_write_url=broker, task_always_eager=False)
            app._pool = app.amqp._producer_pool = None  # seeding's in-memory broker pool goes
            started = time.monotonic()
            for match_id in matches:
                app.send_task("tournaments.analysis.tasks.analysis_run", args=[match_id],
                              queue="analysis")  # fmt: skip
            finished = MatchAnalysis.objects.filter(status__in=["done", "failed"])
            while finished.count() < len(matches):
                if worker.poll() is not None:
                    sys.exit(f"the worker exited:\n{log.read_text()[-3000:]}")
                time.sleep(0.1)
            took = time.monotonic() - started
        finally:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
            worker.wait()
    done = MatchAnalysis.objects.filter(status="done").count()
    failed = list(MatchAnalysis.objects.filter(status="failed").values_list("error", flat=True))
    print(f"gnubg {gnubg_path()}, {args.plies}-ply; {os.cpu_count()} cores; a Celery worker of "
          f"{args.concurrency} processes on the analysis queue (Redis, PostgreSQL)")  # fmt: skip
    print(f"  {len(matches)} corpus matches ({games} games): {done} analysed, {len(failed)} failed "
          f"in {took:.1f} s")  # fmt: skip
    print(f"  throughput: {len(matches) / took * 3600:,.0f} matches an hour, "
          f"{games / took * 3600:,.0f} games an hour")  # fmt: skip
    for error in failed[:5]:
        print(f"  failed: {error}")


def seed(files: list[Path], wanted: int) -> tuple[list[int], int]:
    """The first ``wanted`` files that are whole matches, each recorded as the result of a match
    of a Short Nardy tournament of its length."""
    from django.contrib.auth.models import User  # noqa: PLC0415
    from django.db import transaction  # noqa: PLC0415

    from games.rules.matfile import read_match  # noqa: PLC0415
    from tournaments.errors import InvalidInput  # noqa: PLC0415
    from tournaments.matches.results import match_result_record  # noqa: PLC0415
    from tournaments.models import Entry, Match, Player, Round, Tournament  # noqa: PLC0415

    organizer = User.objects.create_user("bench-olga")
    tournaments: dict[int, tuple[Tournament, Round]] = {}
    matches, games = [], 0
    for path in files:
        if len(matches) == wanted:
            break
        text = path.read_text(encoding="utf-8", errors="replace")
        record = read_match(text)
        if record.length is None or len(set(record.players)) < 2:
            continue
        length = record.length
        if length not in tournaments:
            tournament = Tournament.objects.create(
                name=f"Bench {length}", slug=f"bench-{length}", variant="short",
                status="running", organizer=organizer, match_length=length,
            )  # fmt: skip
            tournaments[length] = (
                tournament,
                Round.objects.create(tournament=tournament, number=1),
            )
        tournament, round_ = tournaments[length]
        home, away = (
            Entry.objects.get_or_create(
                tournament=tournament, player=Player.objects.get_or_create(display_name=name)[0]
            )[0]
            for name in record.players
        )
        match = Match.objects.create(tournament=tournament, round=round_, home=home, away=away)
        try:
            with transaction.atomic():
                match = match_result_record(match=match, by=organizer, mat=text)
        except InvalidInput:  # a match the file leaves unfinished
            match.delete()
            continue
        matches.append(match.pk)
        games += match.games.count()
    return matches, games


def start_worker(env: dict[str, str], concurrency: int, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "celery", "-A", "nardy_site", "worker", "--loglevel=info",
               "--queues=analysis", f"--concurrency={concurrency}", "--prefetch-multiplier=1",
               "-O", "fair", "--without-gossip", "--without-mingle",
               f"--hostname=analysis-bench-{os.getpid()}@%h"]  # fmt: skip
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip


def wait_ready(worker: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while " ready." not in log.read_text(errors="replace"):
        if worker.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"the worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.1)


if __name__ == "__main__":
    main()

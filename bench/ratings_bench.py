"""Full rating replay: 100,000 decided matches among 2,000 players, on SQLite and PostgreSQL.

For each database the script (in a child process, since Django's settings are per process)
makes a fresh database, bulk-creates the players and the decided matches of a few FIBS-rated
tournaments, then times ``tournaments.ratings.ledger.ratings_replay(None)`` twice: the first replay
writes the whole ledger (200,000 rows) and the cached ratings; the second deletes and rewrites it,
as a correction of the very first match would. Goal: under 10 s each. Run:

    .venv/bin/python bench/ratings_bench.py [--matches 100000] [--players 2000]
        [--only sqlite|postgres] [--profile] [--postgres postgres://postgres@127.0.0.1:5432/nardy_bench]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_bench"
GOAL_SECONDS = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    parser.add_argument("--postgres", default=POSTGRES, help="a database this script may recreate")
    parser.add_argument(
        "--profile", action="store_true", help="where the second replay's time goes"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run(args.matches, args.players, args.child, args.profile)
        return
    for backend in ("sqlite", "postgres"):
        if args.only in (None, backend):
            url = (
                f"sqlite:///{tempfile.mkdtemp(prefix='ratings-bench-')}/bench.sqlite3"
                if backend == "sqlite"
                else args.postgres
            )
            if backend == "postgres":
                recreate_postgres(url)
            command = [sys.executable, __file__, "--child", url]
            command += ["--matches", str(args.matches), "--players", str(args.players)]
            command += ["--profile"] if args.profile else []
            env = {**os.environ, "DATABASE_URL": url}
            env.pop("CELERY_BROKER_URL", None)
            subprocess.run(command, env=env, check=True, cwd=ROOT)


def recreate_postgres(url: str) -> None:
    import psycopg  # noqa: PLC0415

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


def run(matches: int, players: int, url: str, profile: bool) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")
    import django  # noqa: PLC0415

    django.setup()
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415

    from tournaments.models import Entry, Match, Player, Round, Tournament  # noqa: PLC0415
    from tournaments.ratings.ledger import ratings_replay  # noqa: PLC0415
    from tournaments.ratings.models import RatingChange  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    rng = random.Random(7)
    start = time.perf_counter()
    made = Player.objects.bulk_create(
        (Player(display_name=f"Player {n}") for n in range(players)), batch_size=2000
    )
    tournaments = []
    for number in range(4):
        tournament = Tournament.objects.create(
            name=f"Bench {number}",
            slug=f"bench-{number}",
            variant="short",
            status=Tournament.Status.FINISHED,
            match_length=rng.choice([3, 5, 7]),
            rated=True,  # approved by a rating officer: its results count
        )
        entries = Entry.objects.bulk_create(
            (Entry(tournament=tournament, player=player) for player in made), batch_size=2000
        )
        round_ = Round.objects.create(tournament=tournament, number=1)
        tournaments.append((tournament, round_, entries))
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    rows = []
    for number in range(matches):
        tournament, round_, entries = tournaments[number % len(tournaments)]
        home, away = rng.sample(entries, 2)
        home_won = rng.random() < 0.5
        rows.append(
            Match(
                tournament=tournament,
                round=round_,
                home=home,
                away=away,
                status=Match.Status.FINAL,
                score_home=tournament.match_length if home_won else 0,
                score_away=0 if home_won else tournament.match_length,
                winner=home if home_won else away,
                decided_at=moment + timedelta(seconds=number),
            )
        )
    Match.objects.bulk_create(rows, batch_size=2000)
    built = time.perf_counter() - start
    print(
        f"{connection.vendor}: {matches:,} decided matches among {players:,} players "
        f"(made in {built:.1f} s)"
    )
    for label in ("first replay (empty ledger)", "replay again (rewrites the ledger)"):
        profiler = cProfile.Profile() if profile and label.startswith("replay again") else None
        begin = time.perf_counter()
        if profiler:
            profiler.enable()
        report = ratings_replay(None)
        seconds = time.perf_counter() - begin
        if profiler:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        verdict = "within" if seconds < GOAL_SECONDS else "OUTSIDE"
        print(
            f"  {label:<36} {seconds:6.1f} s  {report.matches:,} matches, "
            f"{RatingChange.objects.count():,} ledger rows ({verdict} the goal of {GOAL_SECONDS} s)"
        )


if __name__ == "__main__":
    main()

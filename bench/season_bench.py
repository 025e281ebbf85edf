"""The season table of a busy club: queries and time of its page, its API and its selector.

Makes a scratch SQLite database (or PostgreSQL ``nardy_season_bench`` with ``--database
postgres``, dropped and recreated), a club and a season ("best 20 of M"), and ``--events`` (30)
finished events among ``--players`` (40): each a round robin of 16 of them drawn at random (its
results written straight to the match rows for speed), every fifth a single elimination of 16
played through the result service (so the bracket advances), every tenth of these a two-stage
event (four groups of four, the top two of each into the bracket). Then, with the page cache empty
each time, ``--runs`` (5) requests of the season page and of its API as an anonymous visitor
(Django's test client), and the selector alone: the SQL queries (the goal: a constant number, at
most 10) and the median time. Run:

    .venv/bin/python bench/season_bench.py [--players 40] [--events 30] [--runs 5]
        [--database sqlite|postgres]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_season_bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    if args.database == "postgres":
        for command in ("DROP DATABASE IF EXISTS", "CREATE DATABASE"):
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc",
                            f"{command} nardy_season_bench"], check=True)  # fmt: skip
        os.environ["DATABASE_URL"] = POSTGRES
    else:
        folder = tempfile.mkdtemp(prefix="season-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["PUBLIC_PAGE_REFRESH_SECONDS"] = "0"
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")
    import django  # noqa: PLC0415

    django.setup()
    from django.core.management import call_command  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    season, built = build(args.players, args.events, random.Random(args.seed))
    measure(season, built, args)


def build(players: int, events: int, rng: random.Random) -> tuple[object, float]:
    from django.contrib.auth.models import User  # noqa: PLC0415

    from tournaments.clubs.services import club_create  # noqa: PLC0415
    from tournaments.matches.results import match_result_record  # noqa: PLC0415
    from tournaments.models import Entry, Match, Player  # noqa: PLC0415
    from tournaments.seasons.services import season_create  # noqa: PLC0415
    from tournaments.services import (  # noqa: PLC0415
        tournament_create,
        tournament_finish,
        tournament_start,
    )
    from tournaments.stages.services import stage_two_build  # noqa: PLC0415

    start = time.perf_counter()
    owner = User.objects.create_user("bench")
    club = club_create(by=owner, name="Bench Club")
    season = season_create(club=club, by=owner, name="Bench Season", best_of=20)
    everyone = Player.objects.bulk_create(Player(display_name=f"P{n:03}") for n in range(players))

    def played_out(tournament: object) -> None:
        while match := Match.objects.filter(
            tournament=tournament, status=Match.Status.SCHEDULED, home__isnull=False,
            away__isnull=False,
        ).first():  # fmt: skip
            match_result_record(match=match, by=owner, score=rng.choice([(1, 0), (0, 1)]))

    for number in range(events):
        bracket, staged = number % 5 == 4, number % 10 == 9
        stages = {"first_stage": "groups", "groups": 4, "advance": 2} if staged else {}
        tournament = tournament_create(
            organizer=owner, name=f"Evening {number + 1}", variant="long", season=season,
            format="single-elimination" if bracket else "round-robin", match_length=1, **stages,
        )  # fmt: skip
        field = rng.sample(everyone, min(16, players))
        Entry.objects.bulk_create(
            Entry(tournament=tournament, player=player, seed=seed)
            for seed, player in enumerate(field, start=1)
        )
        tournament = tournament_start(tournament=tournament, by=owner)
        if staged:
            for group in tournament.stages.all():
                played_out(group)
            played_out(stage_two_build(event=tournament, by=owner))
        elif bracket:
            played_out(tournament)
        else:
            decided = []
            for match in tournament.matches.filter(away__isnull=False):
                home_won = rng.random() < 0.5
                match.score_home, match.score_away = (1, 0) if home_won else (0, 1)
                match.winner_id = match.home_id if home_won else match.away_id
                match.status = Match.Status.FINAL
                decided.append(match)
            Match.objects.bulk_update(decided, ["score_home", "score_away", "winner", "status"])
        tournament_finish(tournament=tournament, by=owner)
    return season, time.perf_counter() - start


def measure(season: object, built: float, args: argparse.Namespace) -> None:
    from django.core.cache import cache  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415
    from django.test import Client  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    from tournaments.models import Match  # noqa: PLC0415
    from tournaments.seasons.selectors import season_standings  # noqa: PLC0415

    client = Client()
    club, slug = season.club.slug, season.slug  # type: ignore[attr-defined]
    targets = {
        "season page": f"/c/{club}/s/{slug}/",
        "season API": f"/api/v1/clubs/{club}/seasons/{slug}/",
        "season CSV": f"/c/{club}/s/{slug}/table.csv",
    }
    matches = Match.objects.filter(tournament__season=season).count()
    print(f"Season table, {args.database}: {args.players} players, {args.events} finished events, "
          f"{matches:,} matches (built in {built:.1f} s)")  # fmt: skip
    for name, url in targets.items():
        times, queries = [], []
        for _ in range(args.runs):
            cache.clear()
            with CaptureQueriesContext(connection) as captured:
                begin = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - begin)
            assert response.status_code == 200, (url, response.status_code)
            queries.append(len(captured))
        print(f"  {name:<12} {statistics.median(times) * 1000:7.1f} ms median of {args.runs}, "
              f"{max(queries)} SQL queries (goal: at most 10)")  # fmt: skip
    times = []
    for _ in range(args.runs):
        with CaptureQueriesContext(connection) as captured:
            begin = time.perf_counter()
            table = season_standings(season=season)  # type: ignore[arg-type]
            times.append(time.perf_counter() - begin)
    print(f"  season_standings() {statistics.median(times) * 1000:.1f} ms median, "
          f"{len(captured)} SQL queries, {len(table.lines)} rows")  # fmt: skip


if __name__ == "__main__":
    main()

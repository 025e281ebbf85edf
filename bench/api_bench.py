"""The public standings endpoint under load: gunicorn, 2 workers, a 200-entrant Swiss tournament.

Makes a fresh database (PostgreSQL ``nardy_api_bench``, dropped and recreated, or a scratch
SQLite file with ``--database sqlite``), migrates it and runs two Swiss tournaments through the
services (``tournament_create``, ``tournament_open_registration``, ``entry_register``,
``tournament_start``, ``swiss_round_pair``; results written straight to the match rows for
speed): one of 50 entrants and one of ``--entrants`` (200), 7 decided rounds each, every
tie-break on and every player rated. Then:

1. In this process, through Django's test client: the SQL queries of one request to
   ``GET /api/v1/tournaments/<slug>/standings/`` for both tournaments (they must be equal: the
   count may not grow with the entrants), and where the time of one request goes (selector,
   ``compute()``, serializer, the ETag's JSON, the renderer), median of ``--runs``.
2. ``gunicorn nardy_site.wsgi -w 2`` on a loopback port (``--port``, else a free one) with
   DJANGO_DEBUG=false, and ``--clients`` threads (8) each sending requests one after another for
   ``--seconds`` (30) after a short warm-up, without If-None-Match (full responses; the standings
   are computed once per version and then served from the cache): requests/s, p50/p95/p99
   latency and the errors (anything but a 200).
3. Uncached: for ``--seconds`` more, one client corrects a result of the tournament through the
   service before each request (not timed), so every request computes the standings again.

The server reads the standings' version on every request (``PUBLIC_PAGE_REFRESH_SECONDS=0``).
The site's request log is off (``LOG_LEVEL=WARNING``, the server's output in a scratch file)
unless ``--request-logs`` is given. Run:

    .venv/bin/python bench/api_bench.py [--entrants 200] [--rounds 7] [--seconds 30]
        [--clients 8] [--workers 2] [--conn-max-age 0] [--gc-freeze] [--database postgres|sqlite]
        [--port N] [--request-logs] [--postgres postgres://postgres@127.0.0.1:5432/nardy_api_bench]
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from load_day import serving_port  # noqa: E402  (the benches' one way to choose the port)

POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_api_bench"
SMALL = 50  # the smaller tournament, for the query count
GC_FREEZE = """\
import gc


def post_worker_init(worker):
    gc.collect()
    gc.freeze()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=3, help="seconds of load not counted")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--conn-max-age", type=int, default=0, help="DATABASE_CONN_MAX_AGE")
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="each worker moves what it has loaded out of the garbage collector's reach "
        "(gc.freeze() in a gunicorn post_worker_init hook)",
    )
    parser.add_argument("--runs", type=int, default=20, help="in-process timings, median of")
    parser.add_argument("--database", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--postgres", default=POSTGRES, help="a database this script may recreate")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--port", type=int, help="serve on this loopback port (default: a free one)"
    )
    parser.add_argument(
        "--request-logs", action="store_true", help="show the site's request log lines"
    )
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    if args.database == "postgres":
        url = args.postgres
        recreate_postgres(url)
    else:
        url = f"sqlite:///{tempfile.mkdtemp(prefix='api-bench-')}/bench.sqlite3"
    # The same settings here as in gunicorn: read by Django when it starts below.
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DATABASE_CONN_MAX_AGE": str(args.conn_max_age),
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "api-bench-not-a-secret-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
        "DJANGO_SETTINGS_MODULE": "nardy_site.settings",
        # Plain HTTP on loopback: no redirect to HTTPS, cookies over HTTP.
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        # DEBUG off makes WhiteNoise look for STATIC_ROOT, which only collectstatic makes.
        "PYTHONWARNINGS": "ignore:No directory at",
        # A line per request would bury the figures: warnings and errors only, unless asked.
        "LOG_LEVEL": "INFO" if args.request_logs else "WARNING",
        # Every request reads the standings' version (the site's default, 3, serves a copy for
        # 3 s without asking): a corrected result is then seen by the very next request.
        "PUBLIC_PAGE_REFRESH_SECONDS": "0",
    }
    env.pop("CELERY_BROKER_URL", None)
    os.environ.update(env)
    warnings.filterwarnings("ignore", "No directory at")
    import django  # noqa: PLC0415

    django.setup()
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connection, connections  # noqa: PLC0415

    version = ".".join(map(str, sys.version_info[:3]))
    print(f"Standings API, {connection.vendor}, Python {version}")
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    slugs = {size: build(size, args.rounds, rng) for size in sorted({SMALL, args.entrants})}
    print(
        f"  {len(slugs)} Swiss tournaments ({', '.join(map(str, slugs))} entrants, "
        f"{args.rounds} decided rounds) made in {time.perf_counter() - start:.1f} s"
    )
    path = f"/api/v1/tournaments/{slugs[args.entrants]}/standings/"
    query_counts(slugs)
    breakdown(slugs[args.entrants], args.runs)
    connections.close_all()
    serve_and_load(path, slugs[args.entrants], args, env)


def recreate_postgres(url: str) -> None:
    import psycopg  # noqa: PLC0415

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


def build(entrants: int, rounds: int, rng: random.Random) -> str:
    """A running Swiss tournament with ``rounds`` decided rounds; its slug."""
    from django.contrib.auth.models import User  # noqa: PLC0415

    from tournaments.models import Match, Player  # noqa: PLC0415
    from tournaments.ratings.models import Rating, RatingList  # noqa: PLC0415
    from tournaments.services import (  # noqa: PLC0415
        entry_register,
        swiss_round_pair,
        tournament_create,
        tournament_open_registration,
        tournament_start,
    )
    from tournaments.standings import Tiebreak  # noqa: PLC0415

    organizer, _ = User.objects.get_or_create(username="bench")
    tournament = tournament_create(
        organizer=organizer,
        name=f"Bench Swiss {entrants}",
        variant="short",
        format="swiss",
        swiss_rounds=rounds,
        tiebreaks=[tiebreak.value for tiebreak in Tiebreak],
    )
    tournament = tournament_open_registration(tournament=tournament, by=organizer)
    players = Player.objects.bulk_create(
        Player(display_name=f"Player {entrants}-{n}") for n in range(entrants)
    )
    # Every player rated, so that the ratings query and the rating tie-break have work to do.
    rating_list, _ = RatingList.objects.get_or_create(
        system=tournament.rating_system, discipline=tournament.discipline
    )
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    Rating.objects.bulk_create(
        Rating(
            rating_list=rating_list,
            player=player,
            rating=rng.uniform(1300, 1900),
            experience=rng.randint(0, 800),
            matches=rng.randint(0, 100),
            last_delta=0,
            last_match_at=moment,
        )
        for player in players
    )
    for player in players:
        entry_register(tournament=tournament, player=player, by=organizer)
    tournament = tournament_start(tournament=tournament, by=organizer)
    length = tournament.match_length
    for number in range(rounds):
        if number:
            swiss_round_pair(tournament=tournament, by=organizer)
        decided = []
        for match in tournament.matches.filter(status=Match.Status.SCHEDULED):
            home_won = rng.random() < 0.5
            loser = rng.randint(0, length - 1)
            match.score_home, match.score_away = (length, loser) if home_won else (loser, length)
            match.winner_id = match.home_id if home_won else match.away_id
            match.status = Match.Status.FINAL
            match.decided_at = moment
            decided.append(match)
        Match.objects.bulk_update(
            decided,
            ["score_home", "score_away", "winner", "status", "decided_at"],
            batch_size=500,
        )
    return tournament.slug


def query_counts(slugs: dict[int, str]) -> None:
    from django.db import connection  # noqa: PLC0415
    from django.test import Client  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    client = Client()
    counts = {}
    for size, slug in slugs.items():
        client.get(f"/api/v1/tournaments/{slug}/standings/")  # warm the caches (content types)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/api/v1/tournaments/{slug}/standings/")
        assert response.status_code == 200, response.status_code
        assert len(response.json()) == size, len(response.json())
        counts[size] = len(captured)
    figures = ", ".join(f"{size} entrants {count}" for size, count in counts.items())
    verdict = "the same" if len(set(counts.values())) == 1 else "GROWS WITH THE ENTRANTS"
    print(f"  SQL queries per request (test client): {figures}: {verdict}")


def breakdown(slug: str, runs: int) -> None:
    """Where the time of one request goes, in this process (median of ``runs``)."""
    from unittest import mock  # noqa: PLC0415

    from django.test import Client  # noqa: PLC0415
    from rest_framework.renderers import JSONRenderer  # noqa: PLC0415

    from tournaments import selectors  # noqa: PLC0415
    from tournaments.api.serializers import StandingSerializer  # noqa: PLC0415
    from tournaments.models import Tournament  # noqa: PLC0415

    client = Client()
    url = f"/api/v1/tournaments/{slug}/standings/"
    tournament = Tournament.objects.get(slug=slug)
    compute_times: list[float] = []

    def timed_compute(*args: Any, **kwargs: Any) -> Any:
        begin = time.perf_counter()
        try:
            return real_compute(*args, **kwargs)
        finally:
            compute_times.append(time.perf_counter() - begin)

    real_compute = selectors.compute
    timings: dict[str, list[float]] = {}

    def clock(label: str, call: Any) -> Any:
        begin = time.perf_counter()
        result = call()
        timings.setdefault(label, []).append(time.perf_counter() - begin)
        return result

    size = 0
    for _ in range(runs):
        response = clock("whole request (test client)", lambda: client.get(url))
        size = len(response.content)
        with mock.patch.object(selectors, "compute", timed_compute):
            rows = clock(
                "tournament_standings()",
                lambda: selectors.tournament_standings(tournament=tournament),
            )
        data = clock(
            "StandingSerializer(...).data",
            lambda rows=rows: StandingSerializer(rows, many=True).data,
        )
        clock(
            "json.dumps for the ETag",
            lambda data=data: json.dumps(data, sort_keys=True, default=str),
        )
        clock("JSONRenderer().render", lambda data=data: JSONRenderer().render(data))
    timings["  of which compute()"] = compute_times
    order = [
        "whole request (test client)",
        "tournament_standings()",
        "  of which compute()",
        "StandingSerializer(...).data",
        "json.dumps for the ETag",
        "JSONRenderer().render",
    ]
    print(f"  One request in this process, median of {runs} ({size:,} bytes of JSON):")
    for label in order:
        print(f"    {label:<30} {statistics.median(timings[label]) * 1000:7.1f} ms")


def serve_and_load(path: str, slug: str, args: argparse.Namespace, env: dict[str, str]) -> None:
    port = serving_port(args.port)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    log = Path(tempfile.mkdtemp(prefix="api-bench-")) / "gunicorn.log"
    command = [str(gunicorn), "nardy_site.wsgi", "-w", str(args.workers)]
    command += ["-b", f"127.0.0.1:{port}", "--error-logfile", str(log)]
    if args.gc_freeze:
        config = log.with_name("gunicorn_conf.py")
        config.write_text(GC_FREEZE)
        command += ["-c", str(config)]
    env = {**env, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
    # The server's own output (its log lines) goes to the log file, not over the figures.
    output = None if args.request_logs else log.with_name("gunicorn.out").open("wb")
    server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=output, stderr=output)
    try:
        wait_until_ready(server, port, path, log)
        run_load(port, path, args.clients, args.warmup)  # warm-up, not counted
        begin = time.perf_counter()
        latencies, errors = run_load(port, path, args.clients, args.seconds)
        elapsed = time.perf_counter() - begin
        fresh, fresh_errors, fresh_elapsed = run_uncached(port, path, slug, args.seconds)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    print(
        f"  gunicorn, {args.workers} sync workers, DATABASE_CONN_MAX_AGE={args.conn_max_age}"
        f"{', gc.freeze()' if args.gc_freeze else ''}; "
        f"{args.clients} clients on loopback for {args.seconds:g} s (after {args.warmup:g} s "
        "of warm-up), no If-None-Match (the standings cached once per version):"
    )
    print_figures(latencies, errors, elapsed)
    print(
        f"  Uncached: 1 client for {args.seconds:g} s; before each request a result of the "
        "tournament is corrected (not timed), so every request computes the standings again"
        " (requests/s counts the corrections' time too; one worker serves 1000 / mean a second):"
    )
    print_figures(fresh, fresh_errors, fresh_elapsed)


def print_figures(latencies: list[float], errors: Counter[str], elapsed: float) -> None:
    latencies.sort()
    print(f"    requests        {len(latencies):,} in {elapsed:.1f} s")
    print(f"    requests/s      {len(latencies) / elapsed:,.1f}")
    print(
        "    latency         "
        + "  ".join(f"p{p} {percentile(latencies, p) * 1000:.1f} ms" for p in (50, 95, 99))
        + f"  (max {latencies[-1] * 1000:.1f} ms, mean {statistics.mean(latencies) * 1000:.1f} ms)"
    )
    detail = ", ".join(f"{what}: {count}" for what, count in errors.most_common())
    print(f"    errors          {sum(errors.values())}" + (f" ({detail})" if detail else ""))


def run_uncached(
    port: int, path: str, slug: str, seconds: float
) -> tuple[list[float], Counter[str], float]:
    """One client that corrects a result through the service (as the organizer) before each
    request: the new version makes the server compute the standings again for every request."""
    from tournaments.matches.results import match_result_correct  # noqa: PLC0415
    from tournaments.models import Match, Tournament  # noqa: PLC0415

    tournament = Tournament.objects.select_related("organizer").get(slug=slug)
    length = tournament.match_length
    matches = list(
        Match.objects.filter(tournament=tournament, status=Match.Status.FINAL, away__isnull=False)
    )
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    versions: set[str | None] = set()  # the ETags seen: each must be new
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    begin = time.perf_counter()
    deadline = begin + seconds
    turn = 0
    while time.perf_counter() < deadline:
        match = matches[turn % len(matches)]
        turn += 1
        home_wins = match.winner_id != match.home_id  # the result turned round: new standings
        score = (length, 0) if home_wins else (0, length)
        match_result_correct(match=match, by=tournament.organizer, score=score)
        match.winner_id = match.home_id if home_wins else match.away_id
        start = time.perf_counter()
        try:
            connection.request("GET", path, headers={"Accept": "application/json"})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                errors[f"HTTP {response.status}"] += 1
            elif response.getheader("ETag") in versions:
                errors["a version served twice (cached)"] += 1
            versions.add(response.getheader("ETag"))
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            errors[type(error).__name__] += 1
        latencies.append(time.perf_counter() - start)
    connection.close()
    return latencies, errors, time.perf_counter() - begin


def wait_until_ready(server: subprocess.Popen[bytes], port: int, path: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn stopped (exit {server.returncode}):\n{log.read_text()}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", path, headers={"Accept": "application/json"})
            response = connection.getresponse()
            body = response.read()
        except OSError:
            time.sleep(0.1)
            continue
        finally:
            connection.close()
        if response.status != 200 or not response.getheader("ETag"):
            sys.exit(f"gunicorn answered {response.status}: {body[:500]!r}\n{log.read_text()}")
        return
    sys.exit(f"gunicorn did not answer within 60 s:\n{log.read_text()}")


def run_load(port: int, path: str, clients: int, seconds: float) -> tuple[list[float], Counter]:
    """``clients`` threads, each with its own connection, sending one request after another."""
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    lock = threading.Lock()
    ready = threading.Barrier(clients + 1)
    deadline = [0.0]

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        failed: Counter[str] = Counter()
        ready.wait()
        while (begin := time.perf_counter()) < deadline[0]:
            try:
                # HTTP/1.1, keep-alive asked for; gunicorn's sync workers close after each
                # response, and http.client then reconnects for the next request.
                connection.request("GET", path, headers={"Accept": "application/json"})
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    failed[f"HTTP {response.status}"] += 1
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                failed[type(error).__name__] += 1
            mine.append(time.perf_counter() - begin)
        connection.close()
        with lock:
            latencies.extend(mine)
            errors.update(failed)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    deadline[0] = time.perf_counter() + seconds
    ready.wait()
    for thread in threads:
        thread.join()
    return latencies, errors


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank percentile of sorted values."""
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


if __name__ == "__main__":
    main()

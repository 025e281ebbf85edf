"""A tournament day under load: browsers read standings and brackets while players report and
confirm results, against gunicorn, PostgreSQL, Redis and a real Celery worker.

One command does everything, all on 127.0.0.1:

1. Recreates the PostgreSQL database ``nardy_load`` and migrates it; empties its own Redis
   databases for the Celery broker (``--redis-db``, 11) and the site's cache (``--cache-db``,
   12: ``CACHE_URL``, as in production).
2. Seeds a club day through the services: 200 players, each with a user account, and four
   running tournaments -- a 12-player Long Nardy round robin (3 of 11 rounds played), a
   124-player Short Nardy Swiss of 9 rounds (2 played, the 3rd all but 8 matches), 32-player
   double-elimination and consolation brackets (first round played); played matches carry full
   game records (seeded self-play) or a score. Players of the round robin and of the brackets
   use the site (session and CSRF through the login page), the Swiss players the API (a token
   each); an organizer and a co-organizer use both.
3. Starts a Celery worker (``--celery-concurrency``, default ``nproc``), Celery beat when the
   project has a beat schedule, and gunicorn as the README's production guide runs it
   (``--workers``, default nproc + 1, of ``--threads`` 4 each; 1 gives sync workers; and
   ``--conn-max-age`` 60), DEBUG off, with the project's settings except: STATIC_ROOT
   in a scratch directory (collectstatic runs there), no redirect to https and no Secure cookies
   (plain HTTP on loopback), and 500s logged to gunicorn's stderr when the settings have no
   LOGGING.
4. Runs Locust as a library (headless, ``locust.env.Environment`` with a local runner) in a
   child process, so that gevent's monkey-patching never touches Django:

   * first the site players log in through the login page (the morning: PBKDF2 makes a login
     cost ~0.4 s of CPU, so it is not mixed into the measured window);
   * then all users arrive (100 a second) and play for ``--warmup`` seconds (10) while the
     caches fill: measured and shown apart, with its 5xx counted, but not in the window;
   * then, for ``--seconds``: ``--browsers`` users (200) with 1-3 s of think time following a
     tournament (its page, standings or bracket, rounds, match and player pages, the API
     standings), and ``--reporters`` users (20, of which one in ten is an organizer) playing
     the day: a reporter takes a scheduled match, one player reports it (site form ``mode=score``
     or ``mode=games``; API score or full game records), the opponent confirms. A quarter of the
     matches are reported by both players at the same moment (one must get 409, never 5xx), a
     tenth are confirmed twice at once (a double submit: one 409). Organizers pair the next
     Swiss round once the last one is decided (both may try at once: one 409).
5. Stops gunicorn, waits for the worker to drain, stops it, then checks that every match
   reported during the run holds exactly the one result that was accepted (score, games,
   reporter, confirmer, status; no duplicate Game rows; each accepted write accounted for, no
   other match changed; each 409 explained by a competing write that won), that every decided
   match has its two rating rows, that the worker ran one ratings_apply per confirmation, and
   that the ledger and cached ratings equal a serial replay
   (``tournaments.ratings.ledger.ratings_replay(None)``).
6. Prints per kind of request: count, req/s, p50, p95, max (client side), the server's own
   time (gunicorn's access log: without the wait in the listen queue), the mean CPU time the
   server spent on one (the site's request log, ``cpu_ms``), errors by status and the 409s of
   the deliberate races; the CPU used by each part (and by other processes on the
   machine), connections, transactions and statement time in PostgreSQL per request, the
   errors PostgreSQL logged for the database (deadlocks); and PASS/FAIL against the targets (no
   5xx, p95 of every page under 200 ms, the match and player pages under 5 ms of CPU a request,
   exactly-once results, ratings of a serial replay).

    .venv/bin/python bench/load_day.py [--seconds 60] [--warmup 10] [--browsers 200]
        [--reporters 20] [--workers N] [--threads 4] [--conn-max-age 60] [--gc-freeze]
        [--celery-concurrency N] [--redis-db 11] [--cache-db 12] [--seed 7] [--keep] [--port N]
        [--postgres postgres://postgres@127.0.0.1/nardy_load]

Exit status 0 when every check passes. Needs the ``load`` extra (``pip install -e '.[load]'``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_load"
PASSWORD = "load-day-not-a-secret"
PAGE_TARGET_MS = 200
#: The pages a spectator opens from a live board cost no more CPU a request than this (mean).
CPU_TARGET_MS = 5.0
CPU_KINDS = ["match page", "player page"]
SWISS_OPEN = 8  # matches of the Swiss's 3rd round left to play at the start
PAGE_KINDS = [
    "tournament page",
    "standings page",
    "bracket page",
    "rounds page",
    "match page",
    "player page",
    "API standings",
]
WRITE_KINDS = ["API matches", "report form", "report", "confirm", "pair"]
LOGIN_KINDS = ["login page", "login"]
SCORES = [(3, 0), (3, 1), (3, 2), (0, 3), (1, 3), (2, 3)]
# Games entered one by one on the site form (winner side, value): scores 3-1, 0-3, 3-2.
OUTCOMES = [
    [(1, 2), (2, 1), (1, 1)],
    [(2, 1), (2, 2)],
    [(1, 1), (2, 1), (1, 1), (2, 1), (1, 1)],
]
GC_FREEZE = """\
import gc


def post_worker_init(worker):
    gc.collect()
    gc.freeze()
"""
# Without a LOGGING setting, Django sends the tracebacks of 500s only to ADMINS by mail when
# DEBUG is off: here they go to gunicorn's stderr (the work directory's gunicorn.out).
STDERR_ERRORS = """
try:
    LOGGING  # noqa: B018
except NameError:
    LOGGING = {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"stderr": {"class": "logging.StreamHandler"}},
        "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
    }
"""
POSTGRES_LOGS = Path("/var/log/postgresql")
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(L)s %(p)s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cores = os.cpu_count() or 1
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10, help="seconds before the window")
    parser.add_argument("--browsers", type=int, default=200)
    parser.add_argument("--reporters", type=int, default=20, help="players and organizers")
    parser.add_argument("--workers", type=int, default=cores + 1, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="> 1: gthread workers")
    parser.add_argument("--conn-max-age", type=int, default=60, help="DATABASE_CONN_MAX_AGE")
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() in each worker")
    parser.add_argument("--celery-concurrency", type=int, default=cores)
    parser.add_argument("--race-share", type=float, default=0.25, help="both players report")
    parser.add_argument("--double-confirm-share", type=float, default=0.10)
    parser.add_argument("--redis-db", type=int, default=11, help="the broker's Redis database")
    parser.add_argument("--cache-db", type=int, default=12, help="the cache's (CACHE_URL)")
    parser.add_argument("--postgres", default=POSTGRES, help="a database this script may recreate")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--drain-timeout", type=float, default=180)
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    parser.add_argument(
        "--port", type=int, help="serve on this loopback port (default: a free one)"
    )
    parser.add_argument("--load-phase", nargs=2, metavar=("PLAN", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.load_phase:
        load_phase(Path(args.load_phase[0]), Path(args.load_phase[1]))
        return
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    run(args)


# --- The orchestra: database, seed, servers, load, checks ---------------------------------------


def run(args: argparse.Namespace) -> None:
    try:
        import locust  # noqa: F401, PLC0415  (only to fail early: the load runs in a child)
    except ImportError:
        sys.exit("Locust is missing: .venv/bin/pip install -e '.[load]' (or pip install locust)")
    work = Path(tempfile.mkdtemp(prefix="load-day-"))
    broker = f"redis://127.0.0.1:6379/{args.redis_db}"
    recreate_postgres(args.postgres)
    empty_redis(args.redis_db)
    empty_redis(args.cache_db)
    # The project's settings with STATIC_ROOT in the work directory: DEBUG off serves the files
    # collectstatic makes (the manifest storage), and the checkout is left alone.
    (work / "load_day_settings.py").write_text(
        "from nardy_site.settings import *  # noqa: F403\n"
        f"STATIC_ROOT = {str(work / 'static')!r}\n" + STDERR_ERRORS
    )
    sys.path.insert(0, str(work))
    env = site_env(work, "load_day_settings", args.postgres, args.conn_max_age, args.cache_db)
    env.pop("CELERY_BROKER_URL", None)  # this process seeds in eager mode
    env.pop("CELERY_RESULT_BACKEND", None)
    os.environ.update(env)
    import django  # noqa: PLC0415

    django.setup()
    import logging  # noqa: PLC0415

    logging.disable(logging.WARNING)  # this process's own log lines (eager seeding): quiet
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connections  # noqa: PLC0415

    version = ".".join(map(str, sys.version_info[:3]))
    print(f"Tournament day under load, Python {version}, {os.cpu_count()} cores")
    begin = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    plan = seed(args)
    connections.close_all()
    print(
        f"  seeded in {time.perf_counter() - begin:.1f} s: {len(plan['accounts'])} players with "
        f"accounts, tournaments "
        + ", ".join(f"{t['kind']} {t['entrants']}" for t in plan["tournaments"])
    )

    server_env = {**env, "CELERY_BROKER_URL": broker, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
    port = serving_port(args.port)
    plan["base_url"] = f"http://127.0.0.1:{port}"
    plan["seconds"] = args.seconds
    plan["warmup"] = args.warmup
    plan["browsers"] = args.browsers
    plan["reporters"] = args.reporters
    plan["race_share"] = args.race_share
    plan["double_confirm_share"] = args.double_confirm_share
    plan["seed"] = args.seed
    plan["password"] = PASSWORD
    plan_file, out_file = work / "plan.json", work / "results.json"
    plan_file.write_text(json.dumps(plan))

    worker = start_worker(server_env, args, work)
    beat = server = None
    cpu: dict[str, float] = {}
    try:
        wait_for_worker(worker, work / "celery.log")
        schedule = beat_schedule()
        if schedule:
            beat = start_beat(server_env, work)
        server = start_gunicorn(server_env, args, port, work)
        wait_for_gunicorn(server, port, work / "gunicorn.log")
        print(
            f"  gunicorn: {args.workers} {'gthread' if args.threads > 1 else 'sync'} workers"
            f"{f' x {args.threads} threads' if args.threads > 1 else ''}, "
            f"DATABASE_CONN_MAX_AGE={args.conn_max_age}{', gc.freeze()' if args.gc_freeze else ''}"
            f"; Celery worker, concurrency {args.celery_concurrency}"
            + (f", and beat ({', '.join(schedule)})" if schedule else "")
            + f"; broker {broker}"
        )
        cpu = run_load_child(plan_file, out_file, server, worker)
        stop(server)
        if beat is not None:
            stop(beat)
        results = json.loads(out_file.read_text())
        drained = drain(args, worker, work / "celery.log")
    finally:
        for process in (server, beat, worker):
            if process is not None:
                stop(process)

    server_times = parse_access_log(work / "access.log", results)
    cpu_times = parse_request_log(work / "gunicorn.out")
    print_table(results, server_times, cpu_times, cpu, args)
    verdicts = []
    verdicts += http_verdicts(results)
    verdicts.append(cpu_verdict(cpu_times))
    verdicts.append(exactly_once(plan, results))
    verdicts.append(ratings_check(drained))
    verdicts.append(tasks_check(results, work / "celery.log"))
    print()
    for ok, line in verdicts:
        print(f"  {'PASS' if ok else 'FAIL'}  {line}")
    passed = all(ok for ok, _ in verdicts)
    print(f"  {'PASS' if passed else 'FAIL'} overall")
    database_errors(args.postgres.rsplit("/", 1)[1], results["window"]["login_start"])
    server_errors(work / "gunicorn.out")
    if args.keep or not passed:
        print(f"  logs and the plan: {work}")
    else:
        shutil.rmtree(work)
    sys.exit(0 if passed else 1)


def site_env(
    work: Path, settings_module: str, database: str, conn_max_age: int, cache_db: int
) -> dict[str, str]:
    """The environment of the site as production runs it, with ``settings_module`` (in
    ``work``) for settings, on ``database`` and the Redis cache database ``cache_db``."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(work), str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "DATABASE_URL": database,
        "DATABASE_CONN_MAX_AGE": str(conn_max_age),
        "CACHE_URL": f"redis://127.0.0.1:6379/{cache_db}",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-not-a-secret-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
        "DJANGO_SETTINGS_MODULE": settings_module,
        # Plain HTTP on loopback, as behind a TLS proxy but without one: no redirect to https,
        # cookies not marked Secure (the clients would not send them back over http).
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_HSTS_SECONDS": "0",
        # A tournament day squeezed into minutes reports many times the results a minute of a
        # real club day, from few tournaments: the rate limits (nardy_site/throttle.py) would
        # answer 429, and they are not what this measures.
        **dict.fromkeys(BENCH_UNLIMITED, "1000000/h"),
    }


#: The rate limits a load test lifts (see ``site_env``).
BENCH_UNLIMITED = (
    "UPLOADS_PER_USER", "UPLOADS_PER_TOURNAMENT", "ANALYSES_PER_USER", "ANALYSES_PER_TOURNAMENT",
    "CORRECTIONS_PER_USER", "CORRECTIONS_PER_TOURNAMENT",
)  # fmt: skip


def server_errors(log: Path) -> None:
    """How many 500s Django logged, and the first one's traceback (plain or JSON lines)."""
    text = log.read_text(errors="replace") if log.exists() else ""
    if "Traceback" not in text:
        return
    count = text.count("Internal Server Error") or text.count("Traceback")
    first = text[text.index("Traceback") :].split("\n\n")[0]
    for line in text.splitlines():
        if "Traceback" in line and line.startswith("{"):
            try:
                record = json.loads(line)
            except ValueError:
                break
            first = f"{record.get('message', '')}\n{record.get('exception', '')}"
            break
    lines = first.splitlines()
    shown = "\n".join([lines[0], "    ...", *lines[-8:]] if len(lines) > 10 else lines)
    print(f"  the first of {count} server errors logged:\n{shown}")


def database_errors(name: str, since: float) -> None:
    """The errors PostgreSQL logged for this database during the run (deadlocks, lock
    timeouts), when its log is readable here."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(since))
    found: Counter[str] = Counter()
    for log in sorted(POSTGRES_LOGS.glob("postgresql-*.log")) if POSTGRES_LOGS.is_dir() else []:
        try:
            lines = log.read_text(errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            if line[:19] >= stamp and f"@{name} ERROR:" in line:
                found[line.split("ERROR:", 1)[1].strip()[:80]] += 1
    if found:
        shown = "; ".join(f"{message} x{count}" for message, count in found.most_common(5))
        print(f"  PostgreSQL logged for {name}: {shown}")


def recreate_postgres(url: str) -> None:
    import psycopg  # noqa: PLC0415

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def empty_redis(db: int) -> None:
    import redis  # noqa: PLC0415

    redis.Redis(host="127.0.0.1", port=6379, db=db).flushdb()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serving_port(asked: int | None) -> int:
    """The loopback port to serve on: ``--port`` when given (it must be free), else a free one."""
    if not asked:
        return free_port()
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", asked))
        except OSError as error:
            sys.exit(f"--port {asked}: {error.strerror}; give a free port, or none to pick one")
    return asked


# --- Seed: the club's day, through the services -------------------------------------------------


def seed(args: argparse.Namespace) -> dict[str, Any]:
    from django.contrib.auth.hashers import make_password  # noqa: PLC0415
    from django.contrib.auth.models import User  # noqa: PLC0415

    from nardy_site.accounts.models import ApiToken  # noqa: PLC0415
    from tournaments.models import Player  # noqa: PLC0415

    rng = random.Random(args.seed)
    hashed = make_password(PASSWORD)  # one PBKDF2 run: every account shares the password
    organizers = User.objects.bulk_create(
        User(username=f"organizer-{n}", password=hashed) for n in range(1, 3)
    )
    sizes = {"round-robin": 12, "swiss": 124, "double-elimination": 32, "consolation": 32}
    users = User.objects.bulk_create(
        User(username=f"player-{n:03}", password=hashed) for n in range(sum(sizes.values()))
    )
    players = Player.objects.bulk_create(
        Player(display_name=f"Player {n:03}", club="Load Day Club", user=user)
        for n, user in enumerate(users)
    )
    tokens = {}
    for user in [*organizers, *users]:
        tokens[user.pk] = ApiToken.issue(user=user, name="load day")[1]
    plan: dict[str, Any] = {"accounts": {}, "tournaments": [], "organizers": []}
    for n, organizer in enumerate(organizers):
        mode = "site" if n % 2 == 0 else "api"
        plan["organizers"].append(
            {"username": organizer.username, "token": tokens[organizer.pk], "mode": mode}
        )
    start = 0
    for format, size in sizes.items():
        field = players[start : start + size]
        start += size
        tournament = seed_tournament(format, field, organizers, rng)
        mode = "api" if format == "swiss" else "site"
        for entry in tournament.entries.select_related("player__user"):
            user = entry.player.user
            plan["accounts"][str(entry.pk)] = {
                "username": user.username,
                "user_id": user.pk,
                "token": tokens[user.pk],
                "mode": mode,
            }
        plan["tournaments"].append(tournament_plan(tournament, format, size, rng))
    return plan


def seed_tournament(format: str, players: list[Any], organizers: list[Any], rng: random.Random):
    from django.contrib.auth.models import User  # noqa: PLC0415

    from tournaments.models import Match  # noqa: PLC0415
    from tournaments.ratings.services import ratings_approve  # noqa: PLC0415
    from tournaments.services import (  # noqa: PLC0415
        entry_register,
        swiss_round_pair,
        tournament_create,
        tournament_open_registration,
        tournament_start,
    )

    organizer = organizers[0]
    settings: dict[str, Any] = {"format": format, "match_length": 3}
    if format == "round-robin":
        settings |= {"variant": "long", "tiebreaks": ["sonneborn-berger", "direct-encounter"]}
    else:
        settings["variant"] = "short"
    if format == "swiss":
        settings |= {
            "swiss_rounds": 9,
            "tiebreaks": ["buchholz", "buchholz-cut-1", "sonneborn-berger", "wins"],
        }
    title = format.replace("-", " ").title()
    tournament = tournament_create(organizer=organizer, name=f"Load Day {title}", **settings)
    tournament.co_organizers.add(*organizers[1:])
    # A rated event, approved by a rating officer before the start: every result counts.
    officer, _ = User.objects.get_or_create(username="rating-officer", defaults={"is_staff": True})
    tournament = ratings_approve(tournament=tournament, by=officer)
    tournament = tournament_open_registration(tournament=tournament, by=organizer)
    for number, player in enumerate(players, start=1):
        entry_register(tournament=tournament, player=player, by=organizer, seed=number)
    tournament = tournament_start(tournament=tournament, by=organizer)
    if format == "round-robin":
        for number in range(1, 4):
            play(tournament.matches.filter(round__number=number), organizer, rng)
    elif format == "swiss":
        for number in range(2):
            if number:
                swiss_round_pair(tournament=tournament, by=organizer)
            play(tournament.matches.filter(status=Match.Status.SCHEDULED), organizer, rng)
        swiss_round_pair(tournament=tournament, by=organizer)
        # Round 3 nearly done, so that the organizers pair round 4 during the run.
        third = tournament.matches.filter(status=Match.Status.SCHEDULED).order_by("pk")
        play(third.filter(pk__in=list(third.values_list("pk", flat=True)[SWISS_OPEN:])),
             organizer, rng)  # fmt: skip
    else:
        play(tournament.matches.filter(bracket_round=1), organizer, rng)
    return tournament


def play(matches: Any, organizer: Any, rng: random.Random) -> None:
    """The organizer records these matches: half with every game's record, half a score."""
    from games.rules.selfplay import random_match  # noqa: PLC0415
    from games.services import RecordedGame  # noqa: PLC0415
    from tournaments.matches.results import match_result_record  # noqa: PLC0415
    from tournaments.models import Match  # noqa: PLC0415

    for match in list(matches.filter(home__isnull=False, away__isnull=False).order_by("pk")):
        if match.status != Match.Status.SCHEDULED:
            continue
        tournament = match.tournament
        if rng.random() < 0.5:
            played = random_match(tournament.game_variant(), tournament.match_length, rng)
            games = [RecordedGame(game.white, game.actions) for game in played]
            match_result_record(match=match, by=organizer, games=games)
        else:
            match_result_record(match=match, by=organizer, score=rng.choice(SCORES))


def tournament_plan(tournament: Any, format: str, size: int, rng: random.Random) -> dict:
    """What the load needs to know of a tournament: its pages, players, matches, and results
    to report with their expected scores (the server must store exactly these)."""
    from games.rules import Ending, action_to_json  # noqa: PLC0415
    from games.rules.selfplay import random_match  # noqa: PLC0415
    from games.services import RecordedGame  # noqa: PLC0415
    from tournaments.matches.results import result_of  # noqa: PLC0415
    from tournaments.scoring import PlayedGame  # noqa: PLC0415

    kind = {"round-robin": "round robin", "swiss": "swiss", "double-elimination": "double "
            "elimination", "consolation": "consolation"}[format]  # fmt: skip
    records = []
    if format == "swiss":  # API players send some results as full game records
        for _ in range(24):
            played = random_match(tournament.game_variant(), tournament.match_length, rng)
            games = [RecordedGame(game.white, game.actions) for game in played]
            result, validated = result_of(tournament, score=None, games=games, mat=None)
            payload = [
                {"white": game.white, "actions": [action_to_json(a) for a in game.actions]}
                for game in played
            ]
            records.append(
                {"games": payload, "expected": [str(result.home), str(result.away)],
                 "count": len(validated)}
            )  # fmt: skip
    outcomes = []
    for rows in OUTCOMES:
        played = [PlayedGame.won(side, value, 1, Ending.BEAR_OFF) for side, value in rows]
        result, validated = result_of(tournament, score=None, games=None, mat=None, outcomes=played)
        outcomes.append(
            {"rows": rows, "expected": [str(result.home), str(result.away)],
             "count": len(validated)}
        )  # fmt: skip
    scores = []
    for home, away in SCORES:
        result, _ = result_of(tournament, score=(home, away), games=None, mat=None)
        scores.append({"score": [home, away], "expected": [str(result.home), str(result.away)]})
    return {
        "slug": tournament.slug,
        "format": format,
        "kind": kind,
        "entrants": size,
        "bracket": format not in ("round-robin", "swiss"),
        "players": list(tournament.entries.values_list("player_id", flat=True)),
        "matches": list(tournament.matches.values_list("pk", flat=True)),
        "rounds_before": tournament.rounds.count(),
        "records": records,
        "outcomes": outcomes,
        "scores": scores,
    }


# --- The servers ---------------------------------------------------------------------------------


def start_worker(env: dict[str, str], args: argparse.Namespace, work: Path):
    log = (work / "celery.log").open("wb")
    command = [sys.executable, "-m", "celery", "-A", "nardy_site", "worker", "--loglevel=info",
               f"--concurrency={args.celery_concurrency}", "--without-gossip",
               "--without-mingle", f"--hostname=load-day-{os.getpid()}@%h"]  # fmt: skip
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def beat_schedule() -> list[str]:
    """The project's periodic tasks, if it has any (then Celery beat runs too)."""
    from nardy_site.celery import app  # noqa: PLC0415

    return sorted(app.conf.beat_schedule or {})


def start_beat(env: dict[str, str], work: Path):
    log = (work / "beat.log").open("wb")
    command = [sys.executable, "-m", "celery", "-A", "nardy_site", "beat", "--loglevel=info",
               f"--schedule={work / 'beat-schedule'}",
               f"--pidfile={work / 'beat.pid'}"]  # fmt: skip
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def wait_for_worker(worker: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            sys.exit(f"the Celery worker stopped (exit {worker.returncode}):\n{log.read_text()}")
        if " ready." in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    sys.exit(f"the Celery worker was not ready within 60 s:\n{log.read_text()}")


def start_gunicorn(
    env: dict[str, str], args: argparse.Namespace, port: int, work: Path,
    access_format: str = ACCESS_FORMAT,
):  # fmt: skip
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "nardy_site.wsgi", "-w", str(args.workers), "-b",
               f"127.0.0.1:{port}", "--error-logfile", str(work / "gunicorn.log"),
               "--access-logfile", str(work / "access.log"), "--access-logformat",
               access_format, "--backlog", "2048", "--timeout", "60"]  # fmt: skip
    if args.threads > 1:
        command += ["--threads", str(args.threads)]
    if args.gc_freeze:
        config = work / "gunicorn_conf.py"
        config.write_text(GC_FREEZE)
        command += ["-c", str(config)]
    out = (work / "gunicorn.out").open("wb")  # Django's error log (tracebacks) goes to stderr
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def wait_for_gunicorn(server: subprocess.Popen[bytes], port: int, log: Path) -> None:
    import http.client  # noqa: PLC0415

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn stopped (exit {server.returncode}):\n{log.read_text()}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            body = response.read()
        except OSError:
            time.sleep(0.1)
            continue
        finally:
            connection.close()
        if response.status != 200:
            sys.exit(f"/healthz answered {response.status}: {body[:500]!r}\n{log.read_text()}")
        return
    sys.exit(f"gunicorn did not answer within 60 s:\n{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def run_load_child(plan: Path, out: Path, server: Any, worker: Any) -> dict[str, float]:
    """The load, in a child process; CPU seconds of each part over the measured window."""
    command = [sys.executable, __file__, "--load-phase", str(plan), str(out)]
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    roots = {server.pid: "gunicorn", worker.pid: "celery worker", child.pid: "load generator"}
    before: dict[str, float] = {}
    cpu: dict[str, float] = {}
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith("@window-start"):
            before = cpu_snapshot(roots) | database_snapshot()
        elif line.startswith("@window-end"):
            after = cpu_snapshot(roots) | database_snapshot()
            cpu = {group: after[group] - before.get(group, 0.0) for group in after}
        else:
            print(line, end="")
    if child.wait() != 0:
        sys.exit(f"the load phase failed (exit {child.returncode})")
    return cpu


def database_snapshot() -> dict[str, float]:
    """This database's counters in PostgreSQL: connections opened (sessions), transactions,
    and the time its backends spent running statements (active_time, ms)."""
    from django.db import connection  # noqa: PLC0415

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT sessions, xact_commit + xact_rollback, active_time FROM pg_stat_database "
            "WHERE datname = current_database()"
        )
        sessions, transactions, active = cursor.fetchone()
    connection.close()
    return {"db sessions": sessions, "db transactions": transactions, "db active ms": active}


def cpu_snapshot(roots: dict[int, str]) -> dict[str, float]:
    """CPU seconds used so far by each group of processes: our process trees, PostgreSQL (all
    its databases), the whole machine busy. A process counts with its ended children, so that a
    group's difference between two snapshots is right when processes end in between."""
    import psutil  # noqa: PLC0415  (a dependency of Locust)

    parents: dict[int, int] = {}
    found = []
    for process in psutil.process_iter(["pid", "ppid", "name", "cpu_times"]):
        info = process.info
        if info["cpu_times"] is not None:
            parents[info["pid"]] = info["ppid"]
            found.append(info)
    shot: dict[str, float] = defaultdict(float)
    for info in found:
        group, pid = None, info["pid"]
        while pid and group is None:
            group = roots.get(pid)
            pid = parents.get(pid, 0)
        if group is None and (info["name"] or "").startswith("postgres"):
            group = "PostgreSQL"
        if group is not None:
            shot[group] += sum(info["cpu_times"][:4])
    times = psutil.cpu_times()
    shot["machine busy"] = sum(times) - times.idle - getattr(times, "iowait", 0.0)
    shot["wall"] = time.monotonic()
    return shot


def drain(args: argparse.Namespace, worker: Any, log: Path) -> dict[str, Any]:
    """Wait until the broker's queue is empty and the ledger shows every decided match."""
    import redis  # noqa: PLC0415

    from tournaments.models import Match  # noqa: PLC0415
    from tournaments.ratings.ledger import ratings_pending  # noqa: PLC0415
    from tournaments.ratings.models import RatingChange  # noqa: PLC0415

    broker = redis.Redis(host="127.0.0.1", port=6379, db=args.redis_db)
    begin = time.monotonic()
    last, still_since = None, time.monotonic()
    while time.monotonic() - begin < args.drain_timeout:
        decided = Match.objects.filter(decided_at__isnull=False).select_related(
            "tournament", "home", "away"
        )
        pending = ratings_pending(decided)
        queued = broker.llen("celery") + broker.hlen("unacked")
        state = (pending, queued, RatingChange.objects.count())
        if state != last:
            last, still_since = state, time.monotonic()
        elif pending == 0 and queued == 0 and time.monotonic() - still_since > 2:
            return {"ok": True, "seconds": time.monotonic() - begin, "worker": worker.pid}
        if worker.poll() is not None:
            return {"ok": False, "why": f"the worker exited:\n{log.read_text()[-3000:]}"}
        time.sleep(0.5)
    return {"ok": False, "why": f"not drained after {args.drain_timeout:g} s: {last}"}


# --- The checks ---------------------------------------------------------------------------------


def exactly_once(plan: dict[str, Any], results: dict[str, Any]) -> tuple[bool, str]:
    """Every accepted write is in the database once, as sent; nothing else changed."""
    from games.models import Game  # noqa: PLC0415
    from tournaments.models import Entry, Match  # noqa: PLC0415
    from tournaments.ratings.models import RatingChange  # noqa: PLC0415

    writes = defaultdict(list)
    for write in results["writes"]:
        writes[write["match"]].append(write)
    problems: list[str] = []
    matches = Match.objects.in_bulk(list(writes))
    usernames = dict(
        Entry.objects.values_list("pk", "player__user__username").filter(
            pk__in={e for m in matches.values() for e in (m.home_id, m.away_id) if e}
        )
    )
    from django.contrib.auth.models import User  # noqa: PLC0415

    names = dict(User.objects.values_list("pk", "username"))
    games = Counter(Game.objects.filter(match__in=list(writes)).values_list("match_id", flat=True))
    numbers = defaultdict(set)
    for match_id, number in Game.objects.filter(match__in=list(writes)).values_list(
        "match_id", "number"
    ):
        numbers[match_id].add(number)
    counts = Counter()
    for match_id, attempts in writes.items():
        match = matches.get(match_id)
        if match is None:
            problems.append(f"match {match_id} is gone")
            continue
        reports = [w for w in attempts if w["action"] == "report"]
        confirms = [w for w in attempts if w["action"] == "confirm"]
        won = [w for w in reports if w["ok"]]
        confirmed = [w for w in confirms if w["ok"]]
        unknown = [w for w in attempts if w["status"] == 0 or w["status"] >= 500]
        counts["matches"] += 1
        counts["races"] += any(w["race"] for w in reports)
        counts["double confirms"] += any(w["race"] for w in confirms)
        if unknown:
            problems.append(f"match {match_id}: {len(unknown)} writes failed ({unknown[0]})")
            continue
        if len(won) > 1:
            problems.append(f"match {match_id}: {len(won)} reports accepted")
            continue
        if len(confirmed) > 1:
            problems.append(f"match {match_id}: {len(confirmed)} confirmations accepted")
        for lost in (w for w in attempts if w["status"] == 409):
            rival = won if lost["action"] == "report" else confirmed
            if not rival or not lost["race"]:
                problems.append(f"match {match_id}: an unexplained 409 on {lost['action']}")
        for other in (w for w in attempts if not w["ok"] and w["status"] != 409):
            problems.append(f"match {match_id}: {other['action']} answered {other['status']}")
        if not won:
            if match.status != Match.Status.SCHEDULED:
                problems.append(f"match {match_id} is {match.status} with no accepted report")
            continue
        report = won[0]
        counts["reported"] += 1
        stored = [str(match.score_home), str(match.score_away)]
        if [str(float(x)) for x in stored] != [str(float(x)) for x in report["expected"]]:
            problems.append(f"match {match_id}: stored {stored}, reported {report['expected']}")
        if names.get(match.reported_by_id) != report["user"]:
            problems.append(f"match {match_id}: reported by {names.get(match.reported_by_id)}")
        if games[match_id] != report["games"] or numbers[match_id] != set(
            range(1, report["games"] + 1)
        ):
            problems.append(
                f"match {match_id}: {games[match_id]} Game rows {sorted(numbers[match_id])}, "
                f"{report['games']} reported"
            )
        if report["user"] not in (usernames.get(match.home_id), usernames.get(match.away_id)):
            problems.append(f"match {match_id}: reported by a stranger {report['user']}")
        if confirmed:
            counts["confirmed"] += 1
            if match.status != Match.Status.CONFIRMED or match.decided_at is None:
                problems.append(f"match {match_id}: confirmed, but {match.status}")
            if names.get(match.confirmed_by_id) != confirmed[0]["user"]:
                problems.append(
                    f"match {match_id}: confirmed by {names.get(match.confirmed_by_id)}"
                )
        elif match.status != Match.Status.REPORTED:
            problems.append(f"match {match_id}: not confirmed, but {match.status}")
    # Nothing changed that no accepted write explains.
    start = results["window"]["login_start"]
    from datetime import UTC, datetime  # noqa: PLC0415

    moment = datetime.fromtimestamp(start, tz=UTC)
    changed = set(Match.objects.filter(reported_at__gte=moment).values_list("pk", flat=True))
    accepted = {
        m for m, ws in writes.items() if any(w["ok"] and w["action"] == "report" for w in ws)
    }
    if changed != accepted:
        problems.append(
            f"reported in the database but not by an accepted write: {sorted(changed - accepted)}"
            f"; accepted but not in the database: {sorted(accepted - changed)}"
        )
    # Every decided match has exactly one rating row per player.
    rows = Counter(RatingChange.objects.values_list("match_id", flat=True))
    decided = set(Match.objects.filter(status__in=["confirmed", "final"], away__isnull=False)
                  .values_list("pk", flat=True))  # fmt: skip
    wrong = {m: rows.get(m, 0) for m in decided | set(rows) if rows.get(m, 0) != 2}
    if wrong:
        problems.append(f"rating rows per decided match not 2: {dict(list(wrong.items())[:10])}")
    # Swiss rounds: numbered once, each entrant at most once a round.
    problems += swiss_rounds_check(results)
    counts["pairs"] = sum(1 for p in results["pairs"] if p["ok"])
    counts["pair 409"] = sum(1 for p in results["pairs"] if p["status"] == 409)
    summary = (
        f"exactly once: {counts['matches']} matches written, {counts['reported']} reports "
        f"accepted ({counts['races']} reported by both players at once), {counts['confirmed']} "
        f"confirmed ({counts['double confirms']} confirmed twice at once), "
        f"{counts['pairs']} Swiss rounds paired ({counts['pair 409']} pairings refused 409); "
        f"rating rows: 2 for each of {len(decided)} decided matches"
    )
    if problems:
        return False, summary + "\n        " + "\n        ".join(problems[:25])
    return True, summary


def swiss_rounds_check(results: dict[str, Any]) -> list[str]:
    from tournaments.models import Match, Round  # noqa: PLC0415

    problems = []
    for tournament_id in set(Round.objects.values_list("tournament_id", flat=True)):
        numbers = list(Round.objects.filter(tournament_id=tournament_id).values_list(
            "number", flat=True))  # fmt: skip
        if len(numbers) != len(set(numbers)) or sorted(numbers) != list(range(1, len(numbers) + 1)):
            problems.append(f"tournament {tournament_id}: rounds {sorted(numbers)}")
        seen = Counter()
        for round_id, home, away in Match.objects.filter(
            tournament_id=tournament_id, round__isnull=False
        ).values_list("round_id", "home_id", "away_id"):
            for entry in (home, away):
                if entry:
                    seen[(round_id, entry)] += 1
        twice = [key for key, count in seen.items() if count > 1]
        if twice:
            problems.append(
                f"tournament {tournament_id}: entries paired twice in a round {twice[:5]}"
            )
    return problems


def tasks_check(results: dict[str, Any], log: Path) -> tuple[bool, str]:
    """One ratings_apply task per accepted confirmation (each decided once), as the worker's
    log shows them (Celery's own lines or the project's task log): received, how they ended,
    retries; and the periodic catch-up tasks beat sent."""
    accepted = sum(1 for w in results["writes"] if w["action"] == "confirm" and w["ok"])
    text = log.read_text(errors="replace") if log.exists() else ""
    task = r"ratings_apply\[[^\]]+\]"
    received = len(re.findall(task + r" received", text))
    ended = Counter(re.findall(task + r" succeeded in [0-9.e-]+s: '(\w[\w ]*)'", text))
    ended += Counter(re.findall(task + r" ([A-Z]+) in [0-9.]+ms", text))
    retries = len(re.findall(task + r" (?:will be retried|retry)", text, re.IGNORECASE))
    failed = len(re.findall(task + r" (?:raised|failed)", text))
    catch_up = len(re.findall(r"ratings_catch_up\[[^\]]+\] received", text))
    if not received:
        return True, "rating tasks: none found in the worker's log (its format changed?)"
    shown = ", ".join(f"{what} {count}" for what, count in ended.most_common())
    ok = received - retries == accepted and not failed
    return ok, (
        f"rating tasks: {received} ratings_apply received for {accepted} confirmations "
        f"({shown}; {retries} retries, {failed} failed); {catch_up} ratings_catch_up by beat"
    )


def ratings_check(drained: dict[str, Any]) -> tuple[bool, str]:
    """The ledger and the cached ratings the worker wrote equal a serial replay."""
    from tournaments.ratings.ledger import ratings_replay  # noqa: PLC0415
    from tournaments.ratings.models import Rating, RatingChange  # noqa: PLC0415

    if not drained["ok"]:
        return False, f"ratings: the worker did not drain: {drained['why']}"

    def ledger() -> list[tuple[Any, ...]]:
        rows = RatingChange.objects.values_list(
            "rating_list_id", "match_id", "player_id", "before", "after", "experience_after"
        )
        return sorted(
            (list_id, match, player, round(before, 9), round(after, 9), experience)
            for list_id, match, player, before, after, experience in rows
        )

    def cache() -> list[tuple[Any, ...]]:
        return sorted(
            (list_id, player, round(rating, 9), experience, matches)
            for list_id, player, rating, experience, matches in Rating.objects.values_list(
                "rating_list_id", "player_id", "rating", "experience", "matches"
            )
        )

    by_worker, cached = ledger(), cache()
    begin = time.perf_counter()
    report = ratings_replay(None)
    took = time.perf_counter() - begin
    replayed, recached = ledger(), cache()
    differ = len(set(by_worker) ^ set(replayed))
    ok = by_worker == replayed and cached == recached and not report.drifted
    line = (
        f"ratings: worker drained in {drained['seconds']:.1f} s; its ledger "
        f"({len(by_worker)} rows, "
        f"{len(cached)} cached ratings) {'equals' if ok else 'DIFFERS FROM'} a serial replay of "
        f"{report.matches} matches ({took:.1f} s)"
    )
    if not ok:
        line += f": {differ} ledger rows differ, {len(report.drifted)} cached ratings drifted"
    return ok, line


# --- The table ----------------------------------------------------------------------------------


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank percentile of sorted values."""
    if not ordered:
        return float("nan")
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


ROUTES = [
    (re.compile(r"^/t/[^/]+/$"), "tournament page"),
    (re.compile(r"^/t/[^/]+/standings/$"), "standings page"),
    (re.compile(r"^/t/[^/]+/bracket/$"), "bracket page"),
    (re.compile(r"^/t/[^/]+/rounds/$"), "rounds page"),
    (re.compile(r"^/m/\d+/$"), "match page"),
    (re.compile(r"^/p/\d+/$"), "player page"),
    (re.compile(r"^/api/v1/tournaments/[^/]+/standings/$"), "API standings"),
    (re.compile(r"^/api/v1/tournaments/[^/]+/matches/$"), "API matches"),
    (re.compile(r"^/m/\d+/report/$"), "report"),
    (re.compile(r"^/api/v1/matches/\d+/result$"), "report"),
    (re.compile(r"^/m/\d+/answer/$"), "confirm"),
    (re.compile(r"^/api/v1/matches/\d+/confirm$"), "confirm"),
    (re.compile(r"^/t/[^/]+/step/pair/$"), "pair"),
    (re.compile(r"^/api/v1/tournaments/[^/]+/pair$"), "pair"),
    (re.compile(r"^/accounts/login/$"), "login"),
]


def request_kind(method: str, path: str) -> str:
    kind = next((k for pattern, k in ROUTES if pattern.match(path)), "other")
    if kind == "report" and method == "GET":
        return "report form"
    if kind == "login" and method == "GET":
        return "login page"
    return kind


def parse_access_log(log: Path, results: dict[str, Any]) -> dict[str, list[float]]:
    """The server's own time per kind (gunicorn's %(L)s: from reading the request to the end
    of the response; the wait in the listen queue is not in it)."""
    times: dict[str, list[float]] = defaultdict(list)
    if not log.exists():
        return times
    for line in log.read_text(errors="replace").splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        method, path, _, seconds, _pid = parts
        times[request_kind(method, path)].append(float(seconds) * 1000)
    for values in times.values():
        values.sort()
    return times


def parse_request_log(log: Path) -> dict[str, list[float]]:
    """The CPU time of each request by kind, from the site's own request log lines (JSON, in
    gunicorn's output: ``cpu_ms``, the serving thread's); empty when the site logs none."""
    cpu: dict[str, list[float]] = defaultdict(list)
    if not log.exists():
        return cpu
    for line in log.read_text(errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("logger") == "nardy_site.requests" and "cpu_ms" in record:
            cpu[request_kind(record["method"], record["path"])].append(record["cpu_ms"])
    return cpu


def of_kind(by_kind: dict[str, list[float]], kind: str) -> list[float]:
    """The values logged for one kind of request, or for "all": every kind but the logins."""
    if kind != "all":
        return by_kind.get(kind, [])
    return [value for k, values in by_kind.items() if k not in LOGIN_KINDS for value in values]


def print_table(
    results: dict[str, Any],
    server: dict[str, list[float]],
    server_cpu: dict[str, list[float]],
    cpu: dict[str, float],
    args: Any,
) -> None:
    samples = [s for s in results["samples"] if s["phase"] in ("run", "login")]
    window = results["window"]
    seconds = window["end"] - window["start"]
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for sample in samples:
        by_kind[sample["kind"]].append(sample)
    print()
    print(
        f"  {args.browsers} browsers and {args.reporters} reporters for {seconds:.1f} s "
        f"(requests of the window; the logins before it apart)"
    )
    header = (
        f"  {'kind':<16}{'count':>7}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}"
        f"{'srv p50':>9}{'srv p95':>9}{'cpu ms':>8}  {'409 race':>8}  errors"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    kinds = [k for k in PAGE_KINDS + WRITE_KINDS if k in by_kind] + [
        k for k in by_kind if k not in PAGE_KINDS + WRITE_KINDS + LOGIN_KINDS
    ]
    for kind in kinds + ["all", *[k for k in LOGIN_KINDS if k in by_kind]]:
        if kind == "all":
            rows = [s for s in samples if s["kind"] not in LOGIN_KINDS]
            print("  " + "-" * (len(header) - 2))
        else:
            rows = by_kind[kind]
        if kind == LOGIN_KINDS[0]:
            print(f"  before the window ({window['login_seconds']:.1f} s):")
        times = sorted(s["ms"] for s in rows)
        errors = Counter(str(s["status"]) for s in rows if not s["ok"] and not s["tolerated"])
        raced = sum(1 for s in rows if s["tolerated"] and not s["ok"])
        rate = len(rows) / (window["login_seconds"] if kind in LOGIN_KINDS else seconds)
        srv = sorted(of_kind(server, kind))
        shown = ", ".join(f"{status}: {n}" for status, n in sorted(errors.items())) or "0"
        used = of_kind(server_cpu, kind)
        mean_cpu = f"{sum(used) / len(used):8.1f}" if used else f"{'-':>8}"
        print(
            f"  {kind:<16}{len(rows):>7}{rate:>8.1f}{percentile(times, 50):>8.0f}"
            f"{percentile(times, 95):>8.0f}{(times[-1] if times else 0):>8.0f}"
            f"{percentile(srv, 50):>9.0f}{percentile(srv, 95):>9.0f}{mean_cpu}  {raced:>8}  {shown}"
        )
    warm = [s for s in results["samples"] if s["phase"] == "warm-up"]
    if warm:
        pages = sorted(s["ms"] for s in warm if s["kind"] in PAGE_KINDS)
        failed = sum(1 for s in warm if not s["ok"] and not s["tolerated"])
        print(
            f"  warm-up before the window ({window['start'] - window['warmup_start']:.1f} s, users "
            f"arriving, caches filling; not in the rows above): {len(warm)} requests, pages p50 "
            f"{percentile(pages, 50):.0f} ms, p95 {percentile(pages, 95):.0f} ms, max "
            f"{(pages[-1] if pages else 0):.0f} ms, {failed} errors"
        )
        print("  (srv and cpu columns: every request of the run, warm-up included)")
    if cpu:
        ours = ["gunicorn", "PostgreSQL", "celery worker", "load generator"]
        cores = {group: cpu.get(group, 0.0) / cpu["wall"] for group in [*ours, "machine busy"]}
        others = max(0.0, cores["machine busy"] - sum(cores[group] for group in ours))
        shown = ", ".join(f"{group} {cores[group]:.2f}" for group in ours)
        print(
            f"  CPU over the window, in cores (of {os.cpu_count()}): {shown} (all its "
            f"databases), other processes {others:.2f}; machine busy {cores['machine busy']:.2f}"
        )
        requests = len(samples) - sum(1 for s in samples if s["kind"] in LOGIN_KINDS) or 1
        print(
            f"  per request: gunicorn {cores['gunicorn'] * cpu['wall'] / requests * 1000:.1f} ms "
            f"of CPU; PostgreSQL ({args.postgres.rsplit('/', 1)[1]}): "
            f"{cpu['db sessions'] / requests:.2f} connections opened, "
            f"{cpu['db transactions'] / requests:.1f} transactions, "
            f"{cpu['db active ms'] / requests:.1f} ms running statements"
        )
        per_request = cores["gunicorn"] * cpu["wall"] / requests
        asked = args.browsers / 2.0  # think time 1-3 s, 2 s on average
        print(
            f"  demand: the browsers alone ask ~{asked:.0f} requests/s when answered at once; "
            f"served {requests / seconds:.1f}/s; at {per_request * 1000:.1f} ms each that is "
            f"{asked * per_request:.2f} cores of gunicorn alone"
        )


def http_verdicts(results: dict[str, Any]) -> list[tuple[bool, str]]:
    samples = [s for s in results["samples"]]
    fives = Counter(s["kind"] for s in samples if s["status"] >= 500)
    broken = Counter(s["kind"] for s in samples if s["status"] == 0)
    other = Counter(
        f"{s['kind']} {s['status']}"
        for s in samples
        if not s["ok"] and not s["tolerated"] and 0 < s["status"] < 500
    )
    verdicts = [
        (not fives, f"5xx responses: {sum(fives.values())}" + (f" {dict(fives)}" if fives else "")),
        (not broken and not other,
         f"other errors: {sum(broken.values())} connection errors, {sum(other.values())} "
         f"unexpected 4xx" + (f" {dict(broken)} {dict(other)}" if broken or other else "")
         + "".join(f"\n        {s['kind']}: {s['error']}" for s in samples if s["status"] == 0)),
    ]  # fmt: skip
    slow = []
    for kind in PAGE_KINDS:
        times = sorted(s["ms"] for s in samples if s["kind"] == kind and s["phase"] == "run")
        if times and percentile(times, 95) >= PAGE_TARGET_MS:
            slow.append(f"{kind} {percentile(times, 95):.0f} ms")
    verdicts.append(
        (not slow, f"p95 of every page under {PAGE_TARGET_MS} ms"
         + (f": over it {', '.join(slow)}" if slow else ""))
    )  # fmt: skip
    return verdicts


def cpu_verdict(cpu_times: dict[str, list[float]]) -> tuple[bool, str]:
    """The match and player pages cost under ``CPU_TARGET_MS`` of the server's CPU a request."""
    means = {kind: sum(cpu_times[kind]) / len(cpu_times[kind]) for kind in CPU_KINDS
             if cpu_times.get(kind)}  # fmt: skip
    figures = ", ".join(f"{kind} {mean:.1f} ms" for kind, mean in means.items())
    return (
        len(means) == len(CPU_KINDS) and all(mean < CPU_TARGET_MS for mean in means.values()),
        f"CPU a request under {CPU_TARGET_MS:g} ms: {figures or 'no request log'}",
    )


# --- The load: Locust users, in the child process ------------------------------------------------


def load_phase(plan_file: Path, out_file: Path) -> None:  # noqa: C901 (one place for the users)
    from urllib.parse import urlencode  # noqa: PLC0415

    import gevent  # noqa: PLC0415
    import gevent.event  # noqa: PLC0415
    import gevent.pool  # noqa: PLC0415
    from gevent.lock import Semaphore  # noqa: PLC0415
    from locust import FastHttpUser, User, between, task  # noqa: PLC0415
    from locust.contrib.fasthttp import FastHttpSession  # noqa: PLC0415
    from locust.env import Environment  # noqa: PLC0415

    plan = json.loads(plan_file.read_text())
    base = plan["base_url"]
    rng = random.Random(plan["seed"])
    tournaments = plan["tournaments"]
    by_slug = {t["slug"]: t for t in tournaments}
    known_matches = {t["slug"]: list(t["matches"]) for t in tournaments}
    state = {"phase": "login", "stopping": False}
    samples: list[dict[str, Any]] = []
    writes: list[dict[str, Any]] = []
    pairs: list[dict[str, Any]] = []

    def on_request(request_type, name, response_time, response_length, response=None,
                   context=None, exception=None, start_time=None, **_kwargs):  # fmt: skip
        status = getattr(response, "status_code", 0) or 0
        context = context or {}
        expected = context.get("expect", (200,))
        samples.append({
            "phase": state["phase"], "kind": name, "ms": response_time, "status": status,
            "ok": status in expected, "tolerated": status in context.get("tolerate", ()),
            "at": start_time, "error": repr(exception)[:300] if not status else None,
        })  # fmt: skip

    class Env(Environment):
        pass

    env = Env(user_classes=[], stop_timeout=60)
    env.events.request.add_listener(on_request)

    def session(headers: dict[str, str] | None = None) -> Any:
        # The players' sessions ask for a new connection per request: a POST sent on a
        # keep-alive connection that gthread closes after 2 s idle fails before the server
        # reads it (a browser resends it; this client would count a connection error). No
        # retries, so that a write is never sent twice behind our back.
        made = FastHttpSession(base, request_event=env.events.request, user=None,
                               concurrency=4, network_timeout=60, connection_timeout=60,
                               max_retries=0)  # fmt: skip
        made.client.default_headers["Connection"] = "close"
        made.headers = headers or {}
        # Never follow redirects (the follow-up GETs are explicit). Locust's allow_redirects=False
        # swaps this attribute for the time of a request, which two requests at once on one
        # session (a double submit) would leave half-restored.
        made.client.redirect_response_codes = frozenset()
        return made

    def csrf(client: Any) -> str:
        for cookie in client.cookiejar:
            if cookie.name == "csrftoken":
                return str(cookie.value)
        return ""

    def form_post(client: Any, path: str, fields: dict[str, Any], kind: str, **context: Any):
        body = urlencode({**fields, "csrfmiddlewaretoken": csrf(client)}, doseq=True)
        return client.request(
            "POST", path, name=kind, data=body, allow_redirects=False,
            headers={"Content-Type": "application/x-www-form-urlencoded",
                     "Referer": base + path},
            context={"expect": (302,), **context},
        )  # fmt: skip

    def api(client: Any, method: str, path: str, kind: str, payload: Any = None, **context: Any):
        return client.request(
            method, path, name=kind, allow_redirects=False,
            headers={**client.headers, "Accept": "application/json",
                     **({"Content-Type": "application/json"} if payload is not None else {})},
            data=json.dumps(payload) if payload is not None else None,
            context={"expect": (200,), **context},
        )  # fmt: skip

    # The accounts: a logged-in site session, or an API token.
    accounts: dict[str, dict[str, Any]] = {}
    for entry_id, account in plan["accounts"].items():
        accounts[entry_id] = dict(account)
    organizers = [dict(o) for o in plan["organizers"]]

    def log_in(account: dict[str, Any]) -> None:
        if account["mode"] == "api":
            account["client"] = session({"Authorization": f"Token {account['token']}"})
            return
        client = session()
        client.request("GET", "/accounts/login/", name="login page")
        form_post(client, "/accounts/login/",
                  {"username": account["username"], "password": plan["password"], "next": "/"},
                  "login")  # fmt: skip
        account["client"] = client

    for organizer in organizers:
        organizer["api"] = session({"Authorization": f"Token {organizer['token']}"})
    login_start = time.time()
    pool = gevent.pool.Pool(4)
    for account in [*accounts.values(), *organizers]:
        pool.spawn(log_in, account)
    pool.join()
    login_seconds = time.time() - login_start
    logins = [s for s in samples if s["kind"] == "login"]
    print(
        f"  logins before the window: {len(logins)} site accounts in {login_seconds:.1f} s "
        f"({sum(1 for s in logins if s['ok'])} accepted)"
    )

    # --- Work: the scheduled matches, shared by the reporters ---
    available: dict[str, list[dict[str, Any]]] = defaultdict(list)
    claimed: set[int] = set()
    refreshed: dict[str, float] = defaultdict(float)
    refreshing = {slug: Semaphore() for slug in by_slug}
    reader = session()

    def refresh(slug: str) -> None:
        if time.monotonic() - refreshed[slug] < 2 or refreshing[slug].locked():
            return
        with refreshing[slug]:
            refreshed[slug] = time.monotonic()
            found, page = [], 1
            while page:
                response = api(reader, "GET", f"/api/v1/tournaments/{slug}/matches/"
                               f"?status=scheduled&page={page}", "API matches")  # fmt: skip
                if response.status_code != 200:
                    return
                body = response.json()
                found += body["results"]
                page = page + 1 if body.get("next") else 0
            fresh = [m for m in found if m["home_id"] and m["away_id"] and m["id"] not in claimed]
            available[slug] = fresh
            for match in fresh:
                if match["id"] not in known_matches[slug]:
                    known_matches[slug].append(match["id"])

    def claim() -> tuple[str, dict[str, Any]] | None:
        slugs = [slug for slug, matches in available.items() if matches]
        if not slugs:
            for slug in by_slug:
                refresh(slug)
            return None
        slug = rng.choice(slugs)
        matches = available[slug]
        match = matches.pop(rng.randrange(len(matches)))
        if match["id"] in claimed:
            return None
        claimed.add(match["id"])
        return slug, match

    def result_for(tournament: dict[str, Any], account: dict[str, Any]) -> dict[str, Any]:
        """A result to report: what to send and what the server must store."""
        if account["mode"] == "api":
            if tournament["records"] and rng.random() < 0.3:
                record = rng.choice(tournament["records"])
                return {"payload": {"games": record["games"]}, "expected": record["expected"],
                        "games": record["count"]}  # fmt: skip
            score = rng.choice(tournament["scores"])
            return {"payload": {"score": score["score"]}, "expected": score["expected"],
                    "games": 0}  # fmt: skip
        if rng.random() < 0.25:
            outcome = rng.choice(tournament["outcomes"])
            fields: dict[str, Any] = {"mode": "games"}
            for number, (side, value) in enumerate(outcome["rows"], start=1):
                fields |= {f"game-{number}-winner": str(side), f"game-{number}-value": value,
                           f"game-{number}-stake": 1}  # fmt: skip
            return {"fields": fields, "expected": outcome["expected"], "games": outcome["count"]}
        score = rng.choice(tournament["scores"])
        home, away = score["score"]
        return {"fields": {"mode": "score", "score_home": home, "score_away": away},
                "expected": score["expected"], "games": 0}  # fmt: skip

    def report(match_id: int, account: dict[str, Any], result: dict[str, Any], race: bool):
        client = account["client"]
        tolerate = (409,) if race else ()
        begin = time.time()
        if account["mode"] == "api":
            response = api(client, "POST", f"/api/v1/matches/{match_id}/result", "report",
                           result["payload"], tolerate=tolerate)  # fmt: skip
            ok = response.status_code == 200
        else:
            response = form_post(client, f"/m/{match_id}/report/", result["fields"], "report",
                                 tolerate=tolerate)  # fmt: skip
            ok = response.status_code == 302
        writes.append({
            "action": "report", "match": match_id, "user": account["username"], "ok": ok,
            "status": response.status_code, "race": race, "expected": result["expected"],
            "games": result["games"], "begin": begin, "end": time.time(),
        })  # fmt: skip
        if ok and account["mode"] == "site":
            client.request("GET", f"/m/{match_id}/", name="match page")
        return ok

    def confirm(match_id: int, account: dict[str, Any], race: bool) -> bool:
        client = account["client"]
        tolerate = (409,) if race else ()
        begin = time.time()
        if account["mode"] == "api":
            response = api(client, "POST", f"/api/v1/matches/{match_id}/confirm", "confirm",
                           tolerate=tolerate)  # fmt: skip
            ok = response.status_code == 200
        else:
            response = form_post(client, f"/m/{match_id}/answer/", {"answer": "confirm"},
                                 "confirm", tolerate=tolerate)  # fmt: skip
            ok = response.status_code == 302
        writes.append({
            "action": "confirm", "match": match_id, "user": account["username"], "ok": ok,
            "status": response.status_code, "race": race, "begin": begin, "end": time.time(),
        })  # fmt: skip
        if ok and account["mode"] == "site" and not race:
            client.request("GET", f"/m/{match_id}/", name="match page")
        return ok

    def at_once(*calls: Any) -> list[Any]:
        """Start the calls together (each in its own greenlet, its own connection)."""
        gate = gevent.event.Event()

        def run(call: Any) -> Any:
            gate.wait()
            return call()

        lets = [gevent.spawn(run, call) for call in calls]
        gevent.sleep(0)
        gate.set()
        gevent.joinall(lets)
        return [let.value for let in lets]

    class Reporter(User):
        """A player (or two: both sides of a match) reporting and confirming."""

        fixed_count = plan["reporters"] - max(1, plan["reporters"] // 10)
        wait_time = between(1, 3)

        @task
        def play_a_match(self) -> None:
            if state["stopping"]:
                return
            claimed_match = claim()
            if claimed_match is None:
                gevent.sleep(1)
                return
            slug, match = claimed_match
            tournament = by_slug[slug]
            home, away = accounts[str(match["home_id"])], accounts[str(match["away_id"])]
            sides = [home, away]
            rng.shuffle(sides)
            reporter, opponent = sides
            chance = rng.random()
            for account in sides:  # a site player opens the report form first
                if account["mode"] == "site" and (
                    account is reporter or chance < plan["race_share"]
                ):
                    account["client"].request(
                        "GET", f"/m/{match['id']}/report/", name="report form"
                    )
            if chance < plan["race_share"]:
                results = at_once(
                    lambda: report(match["id"], reporter, result_for(tournament, reporter), True),
                    lambda: report(match["id"], opponent, result_for(tournament, opponent), True),
                )
                if results[1] and not results[0]:
                    reporter, opponent = opponent, reporter
                elif not any(results):
                    return
            elif not report(match["id"], reporter, result_for(tournament, reporter), False):
                return
            gevent.sleep(rng.uniform(0.5, 1.5))  # the opponent reads the report
            if rng.random() < plan["double_confirm_share"]:
                at_once(lambda: confirm(match["id"], opponent, True),
                        lambda: confirm(match["id"], opponent, True))  # fmt: skip
            else:
                confirm(match["id"], opponent, False)

    swiss = [t for t in tournaments if t["format"] == "swiss"]

    class Organizer(User):
        """Pairs the next Swiss round once the last one is decided; looks at the pages."""

        fixed_count = max(1, plan["reporters"] // 10)
        wait_time = between(2, 4)

        started = 0

        def on_start(self) -> None:
            self.me = organizers[Organizer.started % len(organizers)]
            Organizer.started += 1

        @task
        def look_after_swiss(self) -> None:
            if state["stopping"] or not swiss:
                return
            slug = swiss[0]["slug"]
            open_matches = 0
            for status in ("scheduled", "reported", "disputed"):
                response = api(self.me["api"], "GET",
                               f"/api/v1/tournaments/{slug}/matches/?status={status}",
                               "API matches")  # fmt: skip
                if response.status_code != 200:
                    return
                open_matches += response.json()["count"]
            if open_matches:
                return
            begin = time.time()
            if self.me["mode"] == "site":
                client = self.me["client"]
                response = form_post(client, f"/t/{slug}/step/pair/", {}, "pair", tolerate=(409,))
                ok = response.status_code == 302
            else:
                response = api(self.me["api"], "POST", f"/api/v1/tournaments/{slug}/pair",
                               "pair", tolerate=(409,))  # fmt: skip
                ok = response.status_code == 200
            pairs.append({"ok": ok, "status": response.status_code, "user": self.me["username"],
                          "begin": begin, "end": time.time()})  # fmt: skip
            if ok:
                refreshed[slug] = 0.0
                refresh(slug)

    weights = {"swiss": 4, "round-robin": 2, "double-elimination": 2, "consolation": 2}

    class Browser(FastHttpUser):
        """A visitor following one tournament through its pages."""

        fixed_count = plan["browsers"]
        host = base
        wait_time = between(1, 3)
        concurrency = 1
        network_timeout = 60.0
        connection_timeout = 60.0

        def on_start(self) -> None:
            self.pick()
            gevent.sleep(rng.uniform(0, 3))

        def pick(self) -> None:
            self.tournament = rng.choices(tournaments, [weights[t["format"]] for t in tournaments])[
                0
            ]

        @task
        def browse(self) -> None:
            if state["stopping"]:
                return
            if rng.random() < 0.1:
                self.pick()
            t = self.tournament
            slug = t["slug"]
            choices = [
                ("tournament page", f"/t/{slug}/", 2),
                ("bracket page" if t["bracket"] else "standings page",
                 f"/t/{slug}/{'bracket' if t['bracket'] else 'standings'}/", 3),
                ("match page", f"/m/{rng.choice(known_matches[slug])}/", 2),
                ("player page", f"/p/{rng.choice(t['players'])}/", 1),
            ]  # fmt: skip
            if not t["bracket"]:
                choices += [
                    ("rounds page", f"/t/{slug}/rounds/", 1),
                    ("API standings", f"/api/v1/tournaments/{slug}/standings/", 2),
                ]
            kind, path, _ = rng.choices(choices, [w for _, _, w in choices])[0]
            headers = {"Accept": "application/json"} if kind.startswith("API") else {}
            self.client.request("GET", path, name=kind, headers=headers)

    env.user_classes = [Browser, Reporter, Organizer]
    runner = env.create_local_runner()
    total = Browser.fixed_count + Reporter.fixed_count + Organizer.fixed_count
    # The warm-up: every user arrives and the caches fill; measured apart, outside the window.
    state["phase"] = "warm-up"
    warmup_start = time.time()
    runner.start(total, spawn_rate=100)
    gevent.sleep(plan["warmup"])
    state["phase"] = "run"
    print("@window-start", flush=True)
    start = time.time()
    gevent.sleep(plan["seconds"])
    state["stopping"] = True
    runner.stop()  # each user ends its current task (a match: report and confirm) first
    end = time.time()
    print("@window-end", flush=True)
    runner.quit()
    out_file.write_text(json.dumps({
        "samples": samples,
        "writes": writes,
        "pairs": pairs,
        "window": {"start": start, "end": end, "login_start": login_start,
                   "login_seconds": login_seconds, "warmup_start": warmup_start},
        "locust_total": env.stats.total.num_requests,
    }))  # fmt: skip


if __name__ == "__main__":
    main()

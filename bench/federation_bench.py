"""A federation's years in one database: every public page and list endpoint, the rating replay
and the catch-up, at the size of issue 44 (20,000 players in 200 clubs, 5,000 finished rated
tournaments, 400,000 decided matches over 2021-2026; every size an option).

1. Seeds a fresh PostgreSQL database (``nardy_federation_bench``, dropped and recreated)
   through the models, in bulk: clubs with an organizer each, players with Cyrillic and Latin
   names and a home club, a season per club and year, finished FIBS-rated round robins (one
   club of ``--big-club-events`` events, the rest spread over the others), their entries and
   decided matches, one second apart in the order they were played.
2. The rating replay: all of it (``ratings_replay(None)``, which makes the checkpoints), then
   from a match ``--replay-back`` (60,000) matches before the end, as a correction of a result
   that old replays it; then the beat's check of what is behind (``ratings_behind``).
3. Each page and list endpoint, in this process through Django's test client with the
   production settings of the README (DEBUG off, the Redis cache of ``--cache``) and its heap
   frozen as a gunicorn worker's is (``nardy_site.wsgi``): five first drawings (the cache
   emptied before each), then ``--runs`` requests (served from the shared copy where there is
   one): p50 and max of the first, p50/p95 of the others, bytes and SQL queries of a first.
4. The burst: gunicorn with 2 workers; ``--burst-clients`` (12) clients ask the rating list
   with a query parameter no page reads (``?c=N``, another N each time) while one client reads
   a cached tournament page: the cached page's p50/p95 and the burst's.

Run (PostgreSQL and Redis on their default local ports):

    .venv/bin/python bench/federation_bench.py [--players 20000] [--clubs 200]
        [--tournaments 5000] [--matches 400000] [--big-club-events 400] [--runs 20]
        [--replay-back 60000] [--burst-seconds 20] [--burst-clients 12] [--port N]
        [--postgres postgres://postgres@127.0.0.1:5432/nardy_federation_bench]
        [--cache redis://127.0.0.1:6379/7] [--skip-burst]
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
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
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from api_bench import recreate_postgres  # noqa: E402  (the benches' own)
from load_day import serving_port  # noqa: E402  (the benches' one way to choose the port)

POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_federation_bench"
CACHE = "redis://127.0.0.1:6379/7"
START = datetime(2021, 1, 1, tzinfo=UTC)
YEARS = 6
#: First drawings of each page (the cache emptied before each): one alone is too noisy to read.
COLD_RUNS = 5
FIRST_NAMES = [
    "Виктор", "Алексей", "Сергей", "Анна", "Мария", "Ольга", "Пётр", "Эльвин", "Зураб", "Ирина",
    "Viktor", "Aleksei", "Sergei", "Anna", "Maria", "Olga", "Elvin", "Zurab", "Irina", "Vusal",
]  # fmt: skip
LAST_NAMES = [
    "Петров", "Иванов", "Смирнов", "Мамедов", "Гусейнов", "Берзиня", "Циклаури", "Ковальчук",
    "Petrov", "Ivanov", "Smirnov", "Mammadov", "Huseynov", "Berzina", "Tsiklauri", "Kovalchuk",
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--clubs", type=int, default=200)
    parser.add_argument("--tournaments", type=int, default=5_000)
    parser.add_argument("--matches", type=int, default=400_000)
    parser.add_argument("--big-club-events", type=int, default=400)
    parser.add_argument("--runs", type=int, default=20, help="requests per page after the first")
    parser.add_argument("--replay-back", type=int, default=60_000)
    parser.add_argument("--burst-seconds", type=float, default=20)
    parser.add_argument("--burst-clients", type=int, default=12)
    parser.add_argument("--skip-burst", action="store_true")
    parser.add_argument("--port", type=int, help="serve on this loopback port (default: free)")
    parser.add_argument("--postgres", default=POSTGRES, help="a database this script may recreate")
    parser.add_argument("--cache", default=CACHE, help="a Redis database this script may flush")
    parser.add_argument("--seed", type=int, default=44)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    recreate_postgres(args.postgres)
    env = {
        **os.environ,
        "DATABASE_URL": args.postgres,
        "CACHE_URL": args.cache,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "federation-bench-not-a-secret-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
        "DJANGO_SETTINGS_MODULE": "nardy_site.settings",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "PYTHONWARNINGS": "ignore:No directory at",
        "LOG_LEVEL": "WARNING",
        # The searches of the measured runs are one client's: not to be refused here.
        "DRAWINGS_PER_CLIENT": "100000/m",
    }
    env.pop("CELERY_BROKER_URL", None)
    os.environ.update(env)
    warnings.filterwarnings("ignore", "No directory at")
    import django  # noqa: PLC0415

    django.setup()
    from django.core.cache import cache  # noqa: PLC0415
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connections  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)  # DEBUG off serves the manifest's
    cache.clear()
    began = time.perf_counter()
    world = seed(args, random.Random(args.seed))
    print(
        f"Seeded {args.players:,} players, {args.clubs} clubs, {args.tournaments:,} tournaments, "
        f"{world['matches']:,} decided matches in {time.perf_counter() - began:.0f} s "
        f"(database {database_size()})"
    )
    analyze()
    replays(args)
    pages_in_a_worker(world, args.runs)
    connections.close_all()
    if not args.skip_burst:
        burst(world, args, env)


def analyze() -> None:
    """The planner's statistics, as a database that has lived has them (autovacuum's analyze
    has not caught up with a bulk load yet)."""
    from django.db import connection  # noqa: PLC0415

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def database_size() -> str:
    from django.db import connection  # noqa: PLC0415

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        return str(cursor.fetchone()[0])


# --- 1. The data set ----------------------------------------------------------------------------


def seed(args: argparse.Namespace, rng: random.Random) -> dict[str, Any]:
    """The federation, bulk-created; returns what the measures ask for (slugs, ids)."""
    from django.contrib.auth.models import User  # noqa: PLC0415

    from tournaments.clubs.models import Club, Membership  # noqa: PLC0415
    from tournaments.models import Entry, Match, Player, Round, Tournament  # noqa: PLC0415
    from tournaments.seasons.models import Season  # noqa: PLC0415

    def searchable(name: str) -> dict[str, str]:
        """The search key (bulk_create does not call save); the code of before issue 44 has
        none: the same data set without it."""
        if "search_key" not in {field.name for field in Player._meta.fields}:
            return {}
        from tournaments.names import search_key  # noqa: PLC0415

        return {"search_key": search_key(name)}

    organizers = User.objects.bulk_create(
        User(username=f"organizer-{n}", password="!") for n in range(args.clubs)
    )
    clubs = Club.objects.bulk_create(
        Club(name=f"Club {n}", slug=f"club-{n}", city="Riga" if n % 2 else "Баку")
        for n in range(args.clubs)
    )
    Membership.objects.bulk_create(
        Membership(club=club, user=user, role=Membership.Role.OWNER)
        for club, user in zip(clubs, organizers, strict=True)
    )
    seasons = {
        (club.pk, year): season
        for season, (club, year) in zip(
            Season.objects.bulk_create(
                Season(club=club, name=f"{2021 + year}", slug=f"s{2021 + year}")
                for club in clubs
                for year in range(YEARS)
            ),
            [(club, year) for club in clubs for year in range(YEARS)],
            strict=True,
        )
    }
    names = []
    for n in range(args.players):
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        names.append(f"{name} {n}" if n >= len(FIRST_NAMES) * len(LAST_NAMES) else name)
    names = list(dict.fromkeys(names))
    players = Player.objects.bulk_create(
        (
            Player(
                display_name=name,
                **searchable(name),
                home_club=clubs[n % args.clubs],
                country=rng.choice(["LV", "RU", "AZ", "GE"]),
            )
            for n, name in enumerate(names)
        ),
        batch_size=5000,
    )
    strength = {player.pk: rng.gauss(0, 1) for player in players}
    # Each club's pool: its own players; the big club (club 0) draws on the first 1,500.
    pools: dict[int, list[Player]] = {club.pk: [] for club in clubs}
    for n, player in enumerate(players):
        pools[clubs[n % args.clubs].pk].append(player)
    pools[clubs[0].pk] = players[:1500]
    per_event = max(2, round((1 + (1 + 8 * args.matches / args.tournaments) ** 0.5) / 2))
    span = timedelta(days=365 * YEARS)
    events = []
    for n in range(args.tournaments):
        every = max(1, args.tournaments // max(1, args.big_club_events))
        big = n % every == 0 and n // every < args.big_club_events
        club = clubs[0] if big else clubs[1 + n % (args.clubs - 1)]
        moment = START + span * (n / args.tournaments)
        year = min(YEARS - 1, (moment - START).days // 365)
        events.append(
            Tournament(
                name=f"{club.name} event {n}",
                slug=f"event-{n}",
                variant="long" if n % 2 else "short",
                format="round-robin",
                status=Tournament.Status.FINISHED,
                match_length=rng.choice([3, 5, 7]),
                organizer=organizers[clubs.index(club)],
                club=club,
                season=seasons[(club.pk, year)],
                rated=True,
            )
        )
    events = Tournament.objects.bulk_create(events, batch_size=2000)
    moments = [START + span * (n / args.tournaments) for n in range(args.tournaments)]
    for event, moment in zip(events, moments, strict=True):
        event.created_at = moment
    Tournament.objects.bulk_update(events, ["created_at"], batch_size=2000)
    rounds_of = per_event - 1 if per_event % 2 == 0 else per_event
    made_rounds = Round.objects.bulk_create(
        (Round(tournament=event, number=n + 1) for event in events for n in range(rounds_of)),
        batch_size=5000,
    )
    rounds = [made_rounds[i * rounds_of : (i + 1) * rounds_of] for i in range(len(events))]
    entry_rows = []
    for event in events:
        for player in rng.sample(pools[event.club_id], min(per_event, len(pools[event.club_id]))):
            entry_rows.append(Entry(tournament=event, player=player))
    entries = Entry.objects.bulk_create(entry_rows, batch_size=5000)
    by_event: dict[int, list[Entry]] = {}
    for entry in entries:
        by_event.setdefault(entry.tournament_id, []).append(entry)
    second = 0
    batch: list[Match] = []
    made = 0
    for event, event_rounds, moment in zip(events, rounds, moments, strict=True):
        field = by_event[event.pk]
        for round_, home, away in round_robin(field, event_rounds):
            home_won = rng.random() < 1 / (
                1 + 10 ** ((strength[away.player_id] - strength[home.player_id]) / 2)
            )
            length = event.match_length
            loser_score = rng.randrange(length)
            second += 1
            batch.append(
                Match(
                    tournament=event,
                    round=round_,
                    home=home,
                    away=away,
                    status=Match.Status.FINAL,
                    score_home=length if home_won else loser_score,
                    score_away=loser_score if home_won else length,
                    winner=home if home_won else away,
                    decided_at=moment + timedelta(seconds=second % 86_400),
                )
            )
        if len(batch) >= 20_000:
            Match.objects.bulk_create(batch, batch_size=5000)
            made += len(batch)
            batch = []
    Match.objects.bulk_create(batch, batch_size=5000)
    made += len(batch)
    busiest = max(players[:1500], key=lambda player: strength[player.pk])  # any: many matches
    big_season = max(
        (s for (club, _), s in seasons.items() if club == clubs[0].pk),
        key=lambda s: Tournament.objects.filter(season=s).count(),
    )
    return {
        "matches": made,
        "club": clubs[0].slug,
        "season": big_season.slug,
        "player": busiest.pk,
        "player_name": busiest.display_name.split()[1],
        "tournament": events[-1].slug,
    }


def round_robin(field: list[Any], rounds: list[Any]) -> list[tuple[Any, Any, Any]]:
    """Every pairing of ``field`` with its round (the circle method; a bye where the field is
    odd, not played)."""
    seats = [*field, None] if len(field) % 2 else list(field)
    pairings = []
    for round_ in rounds[: len(seats) - 1]:
        for i in range(len(seats) // 2):
            home, away = seats[i], seats[-1 - i]
            if home is not None and away is not None:
                pairings.append((round_, home, away))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return pairings


# --- 2. The replay and the catch-up ---------------------------------------------------------------


def replays(args: argparse.Namespace) -> None:
    from tournaments.ratings import ledger  # noqa: PLC0415
    from tournaments.ratings.models import RatingChange  # noqa: PLC0415

    began = time.perf_counter()
    try:
        report = ledger.ratings_replay(None)
    except Exception as error:  # the code of before: PostgreSQL's 65,535 parameters
        print(f"Replay of every list: FAILED after {time.perf_counter() - began:.1f} s: {error}")
    else:
        whole = time.perf_counter() - began
        print(
            f"Replay of every list: {whole:.1f} s, {report.matches:,} matches, "
            f"{RatingChange.objects.count():,} ledger rows"
        )
        analyze()
        replay_from_key(args)
    timings = []
    for _ in range(3):
        began = time.perf_counter()
        behind = ledger.ratings_behind()
        timings.append(time.perf_counter() - began)
    print(
        f"The beat's check of what is behind: {statistics.median(timings) * 1000:.1f} ms "
        f"(median of 3), {len(behind)} lists behind"
    )


def replay_from_key(args: argparse.Namespace) -> None:
    from tournaments.models import Match  # noqa: PLC0415
    from tournaments.ratings import ledger  # noqa: PLC0415

    keys = list(
        Match.objects.filter(decided_at__isnull=False, tournament__variant="short")
        .order_by("-decided_at", "-pk")
        .values_list("decided_at", "pk")[: args.replay_back // 2 + 1]
    )
    key = keys[-1]
    began = time.perf_counter()
    report = ledger.ratings_replay(key)
    print(
        f"Replay from a match about {args.replay_back:,} matches back (a correction): "
        f"{time.perf_counter() - began:.2f} s, {report.matches:,} matches rated again"
    )


# --- 3. The pages -------------------------------------------------------------------------------


def pages_in_a_worker(world: dict[str, Any], runs: int) -> None:
    """``pages`` in a new process, as a gunicorn worker serves them: it loads the site and
    nothing else, where this one still holds what the seeding and the replays left (its first
    drawings of a season's table were half as slow again)."""
    worker = multiprocessing.get_context("spawn").Process(target=_worker_pages, args=(world, runs))
    worker.start()
    worker.join()
    if worker.exitcode != 0:
        raise SystemExit(f"the pages' process failed ({worker.exitcode})")


def _worker_pages(world: dict[str, Any], runs: int) -> None:
    import django  # noqa: PLC0415

    warnings.filterwarnings("ignore", "No directory at")
    django.setup()  # (the environment is this script's, inherited)
    pages(world, runs)


def pages(world: dict[str, Any], runs: int) -> None:
    from django.core.cache import cache  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415
    from django.test import Client  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    urls = [
        ("home page", "/"),
        ("home page, page 20", "/?page=20"),
        ("a club's tournaments", f"/?club={world['club']}"),
        ("a big club's page", f"/c/{world['club']}/"),
        ("a season's page", f"/c/{world['club']}/s/{world['season']}/"),
        ("a season's page, page 5", f"/c/{world['club']}/s/{world['season']}/?page=5"),
        ("/ratings/long/", "/ratings/long/"),
        ("/ratings/long/, page 50", "/ratings/long/?page=50"),
        ("a rating list searched", f"/ratings/long/?q={world['player_name']}"),
        ("a player's page", f"/p/{world['player']}/"),
        ("players found", f"/players/?q={world['player_name']}"),
        ("a tournament's page", f"/t/{world['tournament']}/"),
        ("GET tournaments/", "/api/v1/tournaments/"),
        ("GET ratings/fibs/long/", "/api/v1/ratings/fibs/long/"),
        ("GET ratings/fibs/long/?page=50", "/api/v1/ratings/fibs/long/?page=50"),
        ("GET players/?search=", f"/api/v1/players/?search={world['player_name']}"),
        ("GET players/", "/api/v1/players/"),
        ("GET clubs/<slug>/", f"/api/v1/clubs/{world['club']}/"),
        ("GET clubs/<slug>/ratings/", f"/api/v1/clubs/{world['club']}/ratings/fibs/long/"),
    ]
    from nardy_site.wsgi import freeze_loaded_heap  # noqa: PLC0415

    freeze_loaded_heap()  # as a gunicorn worker has done before its first request
    client = Client()
    client.get("/api/v1/")  # the process's own first request (imports, templates) apart
    print(
        f"\n| page | bytes | queries | first drawing p50 / max ({COLD_RUNS}) "
        f"| again p50 / p95 ({runs}) |\n| --- | ---: | ---: | ---: | ---: |"
    )
    for label, url in urls:
        cold = []
        for _ in range(COLD_RUNS):
            cache.clear()
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                response = client.get(url)
                cold.append(time.perf_counter() - began)
        queries = len(captured)  # (read now: it slices the connection's log, which requests clear)
        if response.status_code != 200:
            print(f"| {label} | HTTP {response.status_code} | | | |")
            continue
        cold.sort()
        again = []
        for _ in range(runs):
            began = time.perf_counter()
            client.get(url)
            again.append(time.perf_counter() - began)
        again.sort()
        print(
            f"| {label} (`{url}`) | {len(response.content):,} | {queries} | "
            f"{percentile(cold, 50) * 1000:.0f} / {cold[-1] * 1000:.0f} ms | "
            f"{percentile(again, 50) * 1000:.1f} / "
            f"{percentile(again, 95) * 1000:.1f} ms |"
        )


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank percentile of sorted values (0 of none: ``--runs 0``)."""
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)] if ordered else 0.0


# --- 4. The burst -------------------------------------------------------------------------------


def burst(world: dict[str, Any], args: argparse.Namespace, env: dict[str, str]) -> None:
    port = serving_port(args.port)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    log = Path(tempfile.mkdtemp(prefix="federation-bench-")) / "gunicorn.log"
    command = [str(gunicorn), "nardy_site.wsgi", "-w", "2", "-b", f"127.0.0.1:{port}"]
    command += ["--error-logfile", str(log), "--timeout", "120"]
    output = log.with_name("gunicorn.out").open("wb")
    server = subprocess.Popen(
        command, env={**env, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}, cwd=ROOT, stdout=output,
        stderr=output,
    )  # fmt: skip
    cached = f"/t/{world['tournament']}/"
    try:
        wait_until_ready(server, port, cached, log)
        timings: dict[str, list[float]] = {"cached": [], "burst": []}
        failed: dict[str, int] = {"cached": 0, "burst": 0}
        lock = threading.Lock()
        deadline = time.perf_counter() + args.burst_seconds

        def ask(kind: str, paths: Any) -> None:
            for path in paths:
                if time.perf_counter() > deadline:
                    return
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                began = time.perf_counter()
                try:
                    connection.request("GET", path)
                    response = connection.getresponse()
                    response.read()
                    ok = response.status == 200
                except (OSError, http.client.HTTPException):
                    ok = False
                finally:
                    connection.close()
                with lock:
                    timings[kind].append(time.perf_counter() - began)
                    failed[kind] += 0 if ok else 1

        def unknown(client: int) -> Any:
            n = 0
            while True:
                n += 1
                yield f"/ratings/long/?c={client}-{n}"

        def same() -> Any:
            while True:
                yield cached

        threads = [
            threading.Thread(target=ask, args=("burst", unknown(c)))
            for c in range(args.burst_clients)
        ]
        threads.append(threading.Thread(target=ask, args=("cached", same())))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    print(
        f"\nThe burst: gunicorn, 2 workers; {args.burst_clients} clients ask /ratings/long/?c=N "
        f"(N new each time) for {args.burst_seconds:g} s beside one client reading {cached}:"
    )
    for kind in ("cached", "burst"):
        ordered = sorted(timings[kind])
        print(
            f"  {kind}: {len(ordered):,} requests, p50 {percentile(ordered, 50) * 1000:.1f} ms, "
            f"p95 {percentile(ordered, 95) * 1000:.1f} ms, max {ordered[-1] * 1000:.0f} ms, "
            f"{failed[kind]} not 200"
        )


def wait_until_ready(server: subprocess.Popen[bytes], port: int, path: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn stopped (exit {server.returncode}):\n{log.read_text()}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                return
        except OSError:
            time.sleep(0.2)
        finally:
            connection.close()
    sys.exit(f"gunicorn did not answer within 60 s:\n{log.read_text()}")


if __name__ == "__main__":
    main()

"""Recording at the table under load: boards recorded at once through the live API while
spectators follow them, against the production stack.

It recreates the PostgreSQL database ``nardy_live_bench``, seeds two Swiss tournaments (Long and
Short Nardy, ``--length`` points) whose first round gives ``--boards`` matches, empties a Redis
database for the site's cache (``--cache-db``, given to the site as ``CACHE_URL``) and serves the
site with gunicorn as the README's production guide runs it (``nproc + 1`` gthread workers of 4
threads, ``DATABASE_CONN_MAX_AGE=60``, ``DJANGO_DEBUG=0``; the helpers of ``load_day.py``). Then,
from one asyncio process with keep-alive connections, as the pages do:

- a phone per board enters a random legal match (``games.rules.selfplay``), one entry every
  ``--think`` seconds (the roll, then the play; dave, take, drop and resignations as they come),
  with the player's API token, and polls the state every 2 s like ``recorder.js``;
- ``--spectators`` spread over the boards poll it every ``--poll`` seconds with If-None-Match,
  like ``live.js``.

After ``--warmup`` seconds, for ``--seconds``: the server's own time per kind (gunicorn's access
log: without the wait in the listen queue), the clients' latency, how late the spectators saw each
entry, and the CPU of each part. Then every board's draft must hold exactly the entries its phone
made, and every finished match the games played. Exit status 0 only when that holds, no request
failed, and the server's p95 for an entry is under 100 ms. Run:

    .venv/bin/python bench/live_bench.py [--boards 50] [--spectators 500] [--seconds 60]
        [--warmup 10] [--think 1.0] [--length 3] [--poll 1.0] [--workers N] [--threads 4]
        [--conn-max-age 60] [--gc-freeze] [--cache-db 13] [--seed 7] [--keep] [--port N]
        [--postgres postgres://postgres@127.0.0.1/nardy_live_bench]

The server's logs (its request log and gunicorn's access log, which give the server's times) go
to the work directory, never to the terminal; ``--keep`` keeps them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_day  # noqa: E402  (the stack's helpers: database, Redis, gunicorn, CPU)

ROOT = load_day.ROOT
POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_live_bench"
ENTRY_TARGET_MS = 100
PHONE_POLL_SECONDS = 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cores = os.cpu_count() or 1
    parser.add_argument("--boards", type=int, default=50, help="matches recorded at once")
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10, help="seconds before the window")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between entries")
    parser.add_argument("--length", type=int, default=3, help="the matches' length in points")
    parser.add_argument("--poll", type=float, default=1.0, help="a spectator's poll interval")
    parser.add_argument("--workers", type=int, default=cores + 1, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="> 1: gthread workers")
    parser.add_argument("--conn-max-age", type=int, default=60, help="DATABASE_CONN_MAX_AGE")
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() in each worker")
    parser.add_argument("--cache-db", type=int, default=13, help="the cache's Redis database")
    parser.add_argument("--postgres", default=POSTGRES, help="a database this script may recreate")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    parser.add_argument(
        "--port", type=int, help="serve on this loopback port (default: a free one)"
    )
    args = parser.parse_args()
    if args.boards < 2 or args.boards % 2:
        parser.error("--boards: an even number, half Long and half Short Nardy")
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    run(args)


def run(args: argparse.Namespace) -> None:
    try:
        import psutil  # noqa: F401, PLC0415  (the CPU figures: in the load extra, with Locust)
    except ImportError:
        sys.exit("psutil is missing: .venv/bin/pip install -e '.[load]'")
    work = Path(tempfile.mkdtemp(prefix="live-bench-"))
    load_day.recreate_postgres(args.postgres)
    load_day.empty_redis(args.cache_db)
    (work / "live_bench_settings.py").write_text(
        "from nardy_site.settings import *  # noqa: F403\n" + load_day.STDERR_ERRORS
    )
    sys.path.insert(0, str(work))
    env = load_day.site_env(
        work, "live_bench_settings", args.postgres, args.conn_max_age, args.cache_db
    )
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        env.pop(name, None)  # ratings run in-process (eager): the bench is about the recording
    os.environ.update(env)
    import django  # noqa: PLC0415

    django.setup()
    import logging  # noqa: PLC0415

    logging.disable(logging.WARNING)
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connections  # noqa: PLC0415

    version = ".".join(map(str, sys.version_info[:3]))
    print(f"Recording at the table under load, Python {version}, {os.cpu_count()} cores")
    begin = time.perf_counter()
    call_command("migrate", verbosity=0)
    boards = seed(args)
    connections.close_all()
    print(
        f"  seeded in {time.perf_counter() - begin:.1f} s: {len(boards)} boards "
        f"({sum(b.variant == 'long' for b in boards)} Long, "
        f"{sum(b.variant == 'short' for b in boards)} Short Nardy, {args.length}-point matches), "
        f"{sum(len(b.actions) for b in boards):,} entries in their random matches"
    )
    port = load_day.serving_port(args.port)
    server = load_day.start_gunicorn({**env, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}, args, port, work)
    try:
        load_day.wait_for_gunicorn(server, port, work / "gunicorn.log")
        print(
            f"  gunicorn: {args.workers} {'gthread' if args.threads > 1 else 'sync'} workers"
            f"{f' x {args.threads} threads' if args.threads > 1 else ''}, "
            f"DATABASE_CONN_MAX_AGE={args.conn_max_age}{', gc.freeze()' if args.gc_freeze else ''}"
        )
        roots = {server.pid: "gunicorn", os.getpid(): "load generator"}
        load = Load(args, port, boards, work / "access.log", roots)
        asyncio.run(load.run())
    finally:
        load_day.stop(server)
    print_figures(args, load)
    verdicts = [
        (
            not load.failures,
            f"failed requests: {len(load.failures)}"
            + (f" (first: {load.failures[0]})" if load.failures else ""),
        ),  # fmt: skip
        check_records(boards),
        entry_verdict(load.server["entry"]),
    ]
    print()
    for ok, line in verdicts:
        print(f"  {'PASS' if ok else 'FAIL'}  {line}")
    passed = all(ok for ok, _ in verdicts)
    load_day.server_errors(work / "gunicorn.out")
    if args.keep or not passed:
        print(f"  logs: {work}")
    else:
        shutil.rmtree(work)
    sys.exit(0 if passed else 1)


# --- Seed: two Swiss tournaments whose first round is the boards ------------------------------


@dataclass
class Board:
    match_id: int
    variant: str
    token: str
    #: The match's games: who plays White, and the actions' JSON.
    games: list[tuple[int, list[dict[str, Any]]]]
    actions: list[Any] = field(default_factory=list)
    #: Entries the phone made (each answered 200), and when each revision was known to it.
    entries: int = 0
    written_at: dict[int, float] = field(default_factory=dict)
    finished: bool = False


def seed(args: argparse.Namespace) -> list[Board]:
    from django.contrib.auth.models import User  # noqa: PLC0415

    from games.rules import action_to_json  # noqa: PLC0415
    from games.rules.selfplay import random_match  # noqa: PLC0415
    from nardy_site.accounts.models import ApiToken  # noqa: PLC0415
    from tournaments.models import Match, Player  # noqa: PLC0415
    from tournaments.services import (  # noqa: PLC0415
        entry_register,
        tournament_create,
        tournament_open_registration,
        tournament_start,
    )

    rng = random.Random(args.seed)
    organizer = User.objects.create_user("organizer")
    boards = []
    for variant in ("long", "short"):
        tournament = tournament_create(
            organizer=organizer, name=f"Live {variant}", variant=variant, format="swiss",
            match_length=args.length, swiss_rounds=5,
        )  # fmt: skip
        tournament = tournament_open_registration(tournament=tournament, by=organizer)
        tokens = {}
        for number in range(1, args.boards + 1):
            user = User.objects.create_user(f"{variant}-{number:03}")
            player = Player.objects.create(display_name=f"{variant.title()} {number:03}", user=user)
            entry_register(tournament=tournament, player=player, by=organizer, seed=number)
            tokens[user.pk] = ApiToken.issue(user=user, name="live bench")[1]
        tournament = tournament_start(tournament=tournament, by=organizer)
        matches = Match.objects.filter(tournament=tournament, status=Match.Status.SCHEDULED)
        for match in matches.select_related("home__player").order_by("pk")[: args.boards // 2]:
            played = random_match(tournament.game_variant(), tournament.match_length, rng)
            games = [(game.white, [action_to_json(a) for a in game.actions]) for game in played]
            board = Board(match.pk, variant, tokens[match.home.player.user_id], games)
            board.actions = [action for _, actions in games for action in actions]
            boards.append(board)
    return boards


# --- The load: phones and spectators over keep-alive connections ---------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection, as a browser tab keeps one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in range(2):  # the server may have closed an idle connection
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None
            head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
            head += [f"{name}: {value}" for name, value in headers.items()]
            try:
                self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed")
                answer = await self._response(status_line)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
                continue
            if answer[1].get("connection", "").lower() == "close":
                self.close()
            return answer
        raise AssertionError("unreachable")

    async def _response(self, status_line: bytes) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            body = b""
            while size := int((await self.reader.readline()).strip(), 16):
                body += await self.reader.readexactly(size + 2)
                body = body[:-2]
            await self.reader.readline()
        else:
            body = await self.reader.readexactly(int(headers.get("content-length", 0)))
        return status, headers, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Load:
    def __init__(
        self, args: argparse.Namespace, port: int, boards: list[Board], log: Path, roots: dict
    ) -> None:
        self.args, self.port, self.boards, self.log, self.roots = args, port, boards, log, roots
        self.client: dict[str, list[float]] = defaultdict(list)  # latency in the window, ms
        self.server: dict[str, list[float]] = defaultdict(list)
        self.late: list[float] = []  # how long after an entry a spectator saw it, ms
        self.failures: list[str] = []
        self.in_window = False
        self.cpu: dict[str, float] = {}
        self.window = 0.0

    async def run(self) -> None:
        stop = asyncio.Event()
        rng = random.Random(self.args.seed)
        boards = self.boards
        tasks = [asyncio.create_task(self.phone(board, stop, rng.random())) for board in boards]
        tasks += [asyncio.create_task(self.phone_poll(board, stop)) for board in boards]
        tasks += [
            asyncio.create_task(self.spectator(boards[n % len(boards)], stop, rng.random()))
            for n in range(self.args.spectators)
        ]
        await asyncio.sleep(self.args.warmup)
        offset = self.log.stat().st_size if self.log.exists() else 0
        before = load_day.cpu_snapshot(self.roots)
        self.in_window = True
        await asyncio.sleep(self.args.seconds)
        self.in_window = False
        after = load_day.cpu_snapshot(self.roots)
        self.cpu = {group: after[group] - before.get(group, 0.0) for group in after}
        self.window = self.cpu.pop("wall")
        stop.set()
        await asyncio.gather(*tasks)
        self.server = server_times(self.log, offset)

    async def timed(
        self, kind: str, connection: Connection, method: str, path: str, headers: dict[str, str],
        body: bytes = b"",
    ) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
        start = time.monotonic()
        try:
            status, answer_headers, content = await connection.request(method, path, headers, body)
        except OSError as error:
            self.failures.append(f"{method} {path}: {error!r}")
            connection.close()
            return 599, {}, b""
        if self.in_window:
            self.client[kind.format(status=status)].append((time.monotonic() - start) * 1000)
        if status >= 400:
            self.failures.append(f"{method} {path}: {status} {content[:200]!r}")
        return status, answer_headers, content

    async def phone(self, board: Board, stop: asyncio.Event, phase: float) -> None:
        """Enter the board's match entry by entry, one every ``--think`` seconds."""
        connection = Connection(self.port)
        path = f"/api/v1/matches/{board.match_id}/live"
        auth = {"Authorization": f"Token {board.token}", "Content-Type": "application/json"}
        await asyncio.sleep(phase * self.args.think)
        status, _, content = await self.timed("phone {status}", connection, "GET", path, {})
        if status != 200:
            return
        state = json.loads(content)

        async def enter(action: dict[str, Any]) -> bool:
            nonlocal state
            if stop.is_set():
                return False
            body = json.dumps({"ply": state["ply"], "action": action}).encode()
            status, _, content = await self.timed("entry", connection, "POST", path, auth, body)
            if status != 200:
                return False
            state = json.loads(content)
            board.entries += 1
            board.written_at[state["revision"]] = time.monotonic()
            await asyncio.sleep(self.args.think)
            return True

        for white, actions in board.games:
            if state["white"] != white and not await enter({"first": white}):
                return
            for action in actions:
                if "play" in action and not await enter({"dice": action["dice"]}):
                    return
                if not await enter(action):
                    return
        board.finished = state["finished"]
        connection.close()

    async def phone_poll(self, board: Board, stop: asyncio.Event) -> None:
        connection = Connection(self.port)
        path = f"/api/v1/matches/{board.match_id}/live"
        etag = None
        while not stop.is_set() and not board.finished:
            await asyncio.sleep(PHONE_POLL_SECONDS)
            status, headers, _ = await self.timed(
                "phone {status}", connection, "GET", path, {"If-None-Match": etag} if etag else {}
            )
            etag = headers.get("etag", etag)
        connection.close()

    async def spectator(self, board: Board, stop: asyncio.Event, phase: float) -> None:
        connection = Connection(self.port)
        path = f"/api/v1/matches/{board.match_id}/live"
        etag = None
        await asyncio.sleep(phase * self.args.poll)
        while not stop.is_set():
            headers = {"If-None-Match": etag} if etag else {}
            status, answer_headers, content = await self.timed(
                "spectator {status}", connection, "GET", path, headers
            )
            if status == 200:
                etag = answer_headers.get("etag")
                revision = json.loads(content)["revision"]
                written = board.written_at.get(revision)
                if self.in_window and written is not None and etag:
                    self.late.append((time.monotonic() - written) * 1000)
            await asyncio.sleep(self.args.poll)
        connection.close()


def server_times(log: Path, offset: int) -> dict[str, list[float]]:
    """The server's own time (ms) of each request of the window, by kind, from gunicorn's log
    (``%(m)s %(U)s %(s)s %(L)s %(p)s``)."""
    times: dict[str, list[float]] = defaultdict(list)
    with log.open("rb") as lines:
        lines.seek(offset)
        for line in lines.read().decode(errors="replace").splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            method, path, status, seconds, _ = parts
            if path.endswith("/live"):
                kind = "entry" if method == "POST" else f"GET {status}"
                times[kind].append(float(seconds) * 1000)
    for values in times.values():
        values.sort()
    return times


# --- Figures and checks --------------------------------------------------------------------------


def print_figures(args: argparse.Namespace, load: Load) -> None:
    print(
        f"\n  {args.boards} boards (an entry every {args.think:g} s each), {args.spectators} "
        f"spectators (a poll every {args.poll:g} s), window {load.window:.1f} s after "
        f"{args.warmup:g} s of warm-up"
    )
    print(f"  {'kind':<16}{'count':>7}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
    for title, table in (("server's own time", load.server), ("client latency", load.client)):
        print(f"  {title}:")
        for kind in sorted(table):
            values = sorted(table[kind])
            print(
                f"  {kind:<16}{len(values):>7}{len(values) / load.window:>8.1f}"
                f"{load_day.percentile(values, 50):>9.1f}{load_day.percentile(values, 95):>9.1f}"
                f"{values[-1]:>9.1f}"
            )
    late = sorted(load.late)
    if late:
        print(
            f"  a spectator saw an entry after: p50 {load_day.percentile(late, 50):.0f} ms, "
            f"p95 {load_day.percentile(late, 95):.0f} ms, max {late[-1]:.0f} ms "
            f"({len(late)} entries seen)"
        )
    cores = ", ".join(f"{group} {seconds / load.window:.2f}" for group, seconds in
                      sorted(load.cpu.items()) if group != "machine busy")  # fmt: skip
    print(
        f"  CPU over the window, in cores (of {os.cpu_count()}): {cores}; "
        f"machine busy {load.cpu.get('machine busy', 0.0) / load.window:.2f}"
    )


def check_records(boards: list[Board]) -> tuple[bool, str]:
    """Every draft holds exactly its phone's entries; every finished match, its games."""
    from games.models import Game  # noqa: PLC0415
    from tournaments.matches.live.models import Draft  # noqa: PLC0415
    from tournaments.models import Match  # noqa: PLC0415

    wrong = []
    finished = 0
    for board in boards:
        draft = Draft.objects.filter(match_id=board.match_id).first()
        stored = draft.entry_rows.count() if draft else 0
        if stored != board.entries or (draft and draft.revision != board.entries):
            wrong.append(f"match {board.match_id}: {stored} stored, {board.entries} entered")
        if board.finished:
            finished += 1
            match = Match.objects.select_related("tournament").get(pk=board.match_id)
            games = [
                (g.white, g.actions) for g in Game.objects.filter(match=match).order_by("number")
            ]
            same = same_games(match.tournament.game_variant(), games, board.games)
            if match.status != Match.Status.REPORTED or not same:
                wrong.append(f"match {board.match_id}: {match.status}, games differ")
    entries = sum(board.entries for board in boards)
    if wrong:
        return False, f"records: {len(wrong)} wrong, first: {wrong[0]}"
    return True, (
        f"records: {entries:,} entries stored exactly as entered on {len(boards)} boards; "
        f"{finished} matches finished and reported with the games played"
    )


def same_games(variant: Any, stored: list[Any], entered: list[Any]) -> bool:
    """The same games move by move: who played White, and the engine's replay of each (a
    stored record writes each play in the replay's own notation: 24/18 for 24/22 22/18)."""
    from games.rules import action_from_json, replay_game  # noqa: PLC0415

    if [white for white, _ in stored] != [white for white, _ in entered]:
        return False
    for (_, mine), (_, theirs) in zip(stored, entered, strict=True):
        one = replay_game(variant, [action_from_json(action) for action in mine])
        other = replay_game(variant, [action_from_json(action) for action in theirs])
        if (one.positions, one.outcome) != (other.positions, other.outcome):
            return False
    return True


def entry_verdict(times: list[float]) -> tuple[bool, str]:
    p95 = load_day.percentile(sorted(times), 95)
    return p95 < ENTRY_TARGET_MS, (
        f"server time per entry: p95 {p95:.1f} ms (goal under {ENTRY_TARGET_MS} ms)"
    )


if __name__ == "__main__":
    main()

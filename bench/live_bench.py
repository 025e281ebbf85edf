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
  with the player's API token, and follows the state like ``recorder.js`` (``--follow``, below;
  ``--follow poll`` polls gunicorn every 2 s, as the recorder did before). ``--starts``
  splits the boards into groups whose matches are already that many entries in when the load
  begins (entered in-process through the same service while seeding, in longer matches), so the
  server's time per entry is measured by the entry's number within its match under one load;
- ``--spectators`` spread over the boards follow them as ``live.js`` does: ``--follow next``
  (the default) long-polls ``…/live/next`` on the follow server (uvicorn serving
  ``nardy_site.asgi``, as the README's production guide runs it beside gunicorn), which answers
  the moment an entry is written; ``--follow poll`` asks gunicorn every ``--poll`` seconds with
  If-None-Match (the pages before the follow server).

After ``--warmup`` seconds, for ``--seconds``: the server's own time per kind (gunicorn's access
log: without the wait in the listen queue), per entry also by its number within its match, the
clients' latency, how late the spectators saw each entry, and the CPU of each part. Then every
board's draft must hold exactly the entries its phone made, and every finished match the games
played. Exit status 0 only when that holds, no request failed, the server's p95 for an entry is
under 100 ms (up to 50 boards: p50 at most 15 ms and p95 at most 40 ms, and a spectator sees an
entry within 500 ms, p95), and (with a group starting near entry 600) the median entry near 600
costs within 20% of the median entry near 10. Run:

    .venv/bin/python bench/live_bench.py [--boards 50] [--spectators 500] [--seconds 60]
        [--warmup 10] [--think 1.0] [--length 3] [--starts 0,590] [--follow next|poll]
        [--poll 1.0] [--workers N] [--threads 4] [--conn-max-age 60] [--gc-freeze]
        [--cache-db 13] [--seed 7] [--keep] [--port N]
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
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_day  # noqa: E402  (the stack's helpers: database, Redis, gunicorn, CPU)

ROOT = load_day.ROOT
POSTGRES = "postgres://postgres@127.0.0.1:5432/nardy_live_bench"
ENTRY_TARGET_MS = 100
#: Up to this many boards an entry's server time is within these (p50, p95), and a spectator
#: sees an entry within SEEN_WITHIN_MS (p95).
SMALL_BOARDS, SMALL_ENTRY_MS, SEEN_WITHIN_MS = 50, (15, 40), 500
PHONE_POLL_SECONDS = 2.0
#: The server's time of entries around 600 of a match within this much of those around 10.
FLAT_TOLERANCE = 0.20
EARLY, LATE = range(1, 51), range(571, 631)
#: gunicorn's access log here also gives the entry's number within its match (sent by the phone).
ACCESS_FORMAT = load_day.ACCESS_FORMAT + " %({x-entry}i)s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cores = os.cpu_count() or 1
    parser.add_argument("--boards", type=int, default=50, help="matches recorded at once")
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10, help="seconds before the window")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between entries")
    parser.add_argument("--length", type=int, default=3, help="the matches' length in points")
    parser.add_argument(
        "--starts", default="0,590",
        help="comma-separated entries the boards' matches are already in when the load begins",
    )  # fmt: skip
    parser.add_argument("--follow", choices=("next", "poll"), default="next")
    parser.add_argument("--poll", type=float, default=1.0, help="--follow poll: its interval")
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
    args.starts = sorted({int(start) for start in args.starts.split(",")})
    if args.boards < 2 * len(args.starts) or args.boards % 2:
        parser.error("--boards: an even number, half Long and half Short Nardy, >= 2 per start")
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
    site_env = {**env, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
    server = load_day.start_gunicorn(site_env, args, port, work, access_format=ACCESS_FORMAT)
    follow_port = load_day.serving_port(None)
    follower = start_follow_server(site_env, follow_port, work) if args.follow == "next" else None
    try:
        load_day.wait_for_gunicorn(server, port, work / "gunicorn.log")
        if follower is not None:
            load_day.wait_for_gunicorn(follower, follow_port, work / "follow.out")
        print(
            f"  gunicorn: {args.workers} {'gthread' if args.threads > 1 else 'sync'} workers"
            f"{f' x {args.threads} threads' if args.threads > 1 else ''}, "
            f"DATABASE_CONN_MAX_AGE={args.conn_max_age}{', gc.freeze()' if args.gc_freeze else ''}"
        )
        roots = {server.pid: "gunicorn", os.getpid(): "load generator"}
        if follower is not None:
            roots[follower.pid] = "follow server"
            print("  follow server: uvicorn nardy_site.asgi:application, 1 process")
        load = Load(args, port, follow_port, boards, work / "access.log", roots)
        asyncio.run(load.run())
    finally:
        load_day.stop(server)
        if follower is not None:
            load_day.stop(follower)
    print_figures(args, load, request_cpu(work / "gunicorn.out"))
    verdicts = [
        (
            not load.failures,
            f"failed requests: {len(load.failures)}"
            + (f" (first: {load.failures[0]})" if load.failures else ""),
        ),  # fmt: skip
        check_records(boards),
        *entry_verdicts(args.boards, load.server["entry"], load.late),
        *flat_verdict(load.by_number),
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
    #: The entries already made when the load begins (in-process, while seeding).
    start: int = 0
    #: The state the phone last saw, and its plan of entries (``plan``), taken one by one.
    state: dict[str, Any] = field(default_factory=dict)
    plan: Iterator[dict[str, Any]] = field(default_factory=lambda: iter(()))
    #: Entries made (each answered 200), and when each revision was known to the phone.
    entries: int = 0
    written_at: dict[int, float] = field(default_factory=dict)
    finished: bool = False


def seed(args: argparse.Namespace) -> list[Board]:
    from django.contrib.auth.models import User  # noqa: PLC0415

    from games.rules import action_to_json  # noqa: PLC0415
    from games.rules.selfplay import random_match  # noqa: PLC0415
    from nardy_site.accounts.models import ApiToken  # noqa: PLC0415
    from tournaments.matches.live.services import live_act  # noqa: PLC0415
    from tournaments.matches.live.state import live_state  # noqa: PLC0415
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
    # The entries a board makes in the load, and a margin: its match must not end before.
    in_the_load = int((args.warmup + args.seconds) / args.think) + 40
    for variant in ("long", "short"):
        for group, start in enumerate(args.starts):
            per_group = len(range(group, args.boards // 2, len(args.starts)))
            # A match that is long enough: to --length points, or longer for a late start.
            length = args.length if start == 0 else max(args.length, 7)
            tournament = tournament_create(
                organizer=organizer, name=f"Live {variant} from entry {start}", variant=variant,
                format="swiss", match_length=length, swiss_rounds=5,
            )  # fmt: skip
            tournament = tournament_open_registration(tournament=tournament, by=organizer)
            tokens, users = {}, {}
            for number in range(1, 2 * per_group + 1):
                user = User.objects.create_user(f"{variant}-{start}-{number:03}")
                player = Player.objects.create(
                    display_name=f"{variant.title()} {start} {number:03}", user=user
                )
                entry_register(tournament=tournament, player=player, by=organizer, seed=number)
                tokens[user.pk] = ApiToken.issue(user=user, name="live bench")[1]
                users[user.pk] = user
            tournament = tournament_start(tournament=tournament, by=organizer)
            matches = Match.objects.filter(tournament=tournament, status=Match.Status.SCHEDULED)
            for match in matches.select_related("home__player").order_by("pk")[:per_group]:
                while True:
                    played = random_match(tournament.game_variant(), length, rng)
                    games = [(g.white, [action_to_json(a) for a in g.actions]) for g in played]
                    actions = [action for _, game in games for action in game]
                    plays = sum("play" in action for action in actions)
                    if start == 0 or len(actions) + plays > start + in_the_load:
                        break
                home = users[match.home.player.user_id]
                board = Board(match.pk, variant, tokens[home.pk], games, actions, start=start)
                board.state = live_state(match_id=match.pk)
                board.plan = plan(board)
                for _ in range(start):  # the entries before the load, through the same service
                    action = next(board.plan)
                    board.state = live_act(
                        match_id=match.pk, by=home, ply=board.state["ply"], action=action
                    )
                board.entries = start
                boards.append(board)
    return boards


def plan(board: Board) -> Iterator[dict[str, Any]]:
    """The board's entries, as the phone makes them: who moves first when the game's White is
    not the one the state has, the roll, then its play."""
    for white, actions in board.games:
        if board.state["white"] != white:
            yield {"first": white}
        for action in actions:
            if "play" in action:
                yield {"dice": action["dice"]}
            yield action


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
        self, args: argparse.Namespace, port: int, follow_port: int, boards: list[Board],
        log: Path, roots: dict,
    ) -> None:  # fmt: skip
        self.args, self.port, self.boards, self.log, self.roots = args, port, boards, log, roots
        self.follow_port = follow_port
        self.client: dict[str, list[float]] = defaultdict(list)  # latency in the window, ms
        self.server: dict[str, list[float]] = defaultdict(list)
        #: The server's time of an entry (ms) by its number within its match.
        self.by_number: dict[int, list[float]] = defaultdict(list)
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
        following = self.args.follow == "next"
        tasks += [
            asyncio.create_task(
                self.follower(board, stop, 0.0, "phone follow")
                if following
                else self.phone_poll(board, stop)
            )
            for board in boards
        ]
        spectator = self.follower if following else self.spectator
        tasks += [
            asyncio.create_task(spectator(boards[n % len(boards)], stop, rng.random()))
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
        self.server, self.by_number = server_times(self.log, offset)

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
        board.state = json.loads(content)
        for action in board.plan:
            if stop.is_set():
                break
            ply = board.state["ply"]
            body = json.dumps({"ply": ply, "action": action}).encode()
            headers = {**auth, "X-Entry": str(ply + 1)}
            status, _, content = await self.timed("entry", connection, "POST", path, headers, body)
            if status != 200:
                break
            board.state = json.loads(content)
            board.entries += 1
            board.written_at[board.state["revision"]] = time.monotonic()
            await asyncio.sleep(self.args.think)
        board.finished = board.state["finished"]
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

    async def follower(
        self, board: Board, stop: asyncio.Event, phase: float, kind: str = "follow"
    ) -> None:
        """Follow the board as ``live.js`` does (and ``recorder.js``, ``kind`` "phone follow",
        for the other phone's entries): a long-poll on the follow server, asked again at once
        after a change (a second after an early unchanged answer). A spectator counts how late
        it saw each entry; a phone, its own entries among them, does not."""
        connection = Connection(self.follow_port)
        path = f"/api/v1/matches/{board.match_id}/live/next"
        etag = None
        spectator = kind == "follow"
        await asyncio.sleep(phase)
        while not stop.is_set() and (spectator or not board.finished):
            asked = time.monotonic()
            headers = {"If-None-Match": etag} if etag else {}
            status, answer_headers, content = await self.timed(
                kind + " {status}", connection, "GET", path, headers
            )
            if status == 200:
                etag = answer_headers.get("etag")
                written = board.written_at.get(json.loads(content)["revision"])
                if spectator and self.in_window and written is not None:
                    self.late.append((time.monotonic() - written) * 1000)
            elif status == 304:
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - asked)))
            else:
                await asyncio.sleep(3.0)
        connection.close()


def start_follow_server(env: dict[str, str], port: int, work: Path):
    """uvicorn serving the site's ASGI application, as the README's production guide runs it."""
    uvicorn = Path(sys.executable).with_name("uvicorn")
    command = [str(uvicorn), "nardy_site.asgi:application", "--host", "127.0.0.1", "--port",
               str(port), "--no-access-log", "--log-level", "warning", "--backlog", "4096",
               "--timeout-keep-alive", "60"]  # fmt: skip
    out = (work / "follow.out").open("wb")
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def server_times(log: Path, offset: int) -> tuple[dict[str, list[float]], dict[int, list[float]]]:
    """The server's own time (ms) of each request of the window, by kind, and of each entry by
    its number within its match, from gunicorn's log (``ACCESS_FORMAT``)."""
    times: dict[str, list[float]] = defaultdict(list)
    by_number: dict[int, list[float]] = defaultdict(list)
    with log.open("rb") as lines:
        lines.seek(offset)
        for line in lines.read().decode(errors="replace").splitlines():
            parts = line.split()
            if len(parts) != 6:
                continue
            method, path, status, seconds, _, number = parts
            if path.endswith("/live"):
                kind = "entry" if method == "POST" else f"GET {status}"
                times[kind].append(float(seconds) * 1000)
                if method == "POST" and number.isdigit():
                    by_number[int(number)].append(float(seconds) * 1000)
    for values in times.values():
        values.sort()
    return times, by_number


# --- Figures and checks --------------------------------------------------------------------------


def request_cpu(log: Path) -> dict[str, list[float]]:
    """The server's CPU time (ms) of each live request of the whole run, by kind, from the
    site's own request log (``cpu_ms``: the serving thread's)."""
    cpu: dict[str, list[float]] = defaultdict(list)
    for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        if record.get("logger") == "nardy_site.requests" and record["path"].endswith("/live"):
            kind = "entry" if record["method"] == "POST" else f"GET {record['status']}"
            cpu[kind].append(record["cpu_ms"])
    return cpu


def print_figures(args: argparse.Namespace, load: Load, cpu: dict[str, list[float]]) -> None:
    following = "long-polls" if args.follow == "next" else f"a poll every {args.poll:g} s"
    starts = ", ".join(map(str, args.starts))
    print(
        f"\n  {args.boards} boards (an entry every {args.think:g} s each; matches from entries "
        f"{starts}), {args.spectators} spectators ({following}), window {load.window:.1f} s "
        f"after {args.warmup:g} s of warm-up"
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
    print_by_number(load.by_number)
    if cpu:
        figures = ", ".join(
            f"{kind} p50 {load_day.percentile(sorted(v), 50):.1f} mean {sum(v) / len(v):.1f}"
            for kind, v in sorted(cpu.items())
        )
        print(f"  the server's CPU a request, whole run (ms): {figures}")
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


def print_by_number(by_number: dict[int, list[float]], width: int = 50) -> None:
    """The server's time per entry by the entry's number within its match, in bands."""
    bands: dict[int, list[float]] = defaultdict(list)
    for number, values in by_number.items():
        bands[(number - 1) // width].extend(values)
    print("  server's time per entry by its number within its match:")
    print(f"  {'entries':<16}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}")
    for band in sorted(bands):
        values = sorted(bands[band])
        label = f"{band * width + 1}-{(band + 1) * width}"
        print(
            f"  {label:<16}{len(values):>7}{load_day.percentile(values, 50):>9.1f}"
            f"{load_day.percentile(values, 95):>9.1f}"
        )


def flat_verdict(by_number: dict[int, list[float]]) -> list[tuple[bool, str]]:
    """The median entry around 600 of its match costs within 20% of the median around 10."""
    early = sorted(v for n in EARLY for v in by_number.get(n, []))
    late = sorted(v for n in LATE for v in by_number.get(n, []))
    if len(early) < 20 or len(late) < 20:
        return []
    first, last = load_day.percentile(early, 50), load_day.percentile(late, 50)
    return [
        (
            last <= first * (1 + FLAT_TOLERANCE),
            f"server time of entries {LATE.start}-{LATE.stop - 1}: p50 {last:.1f} ms, of "
            f"entries {EARLY.start}-{EARLY.stop - 1}: p50 {first:.1f} ms "
            f"({(last / first - 1) * 100:+.0f}%, goal within {FLAT_TOLERANCE:.0%})",
        )
    ]


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


def entry_verdicts(boards: int, times: list[float], late: list[float]) -> list[tuple[bool, str]]:
    """Issue 30's goals: an entry's p95 under 100 ms at any size; up to 50 boards also p50 and
    p95 within 15 and 40 ms, and a spectator seeing an entry within 500 ms (p95)."""
    ordered = sorted(times)
    p50, p95 = load_day.percentile(ordered, 50), load_day.percentile(ordered, 95)
    verdicts = [
        (p95 < ENTRY_TARGET_MS, f"server time per entry: p95 {p95:.1f} ms (goal under "
         f"{ENTRY_TARGET_MS} ms)"),
    ]  # fmt: skip
    if boards <= SMALL_BOARDS:
        seen = load_day.percentile(sorted(late), 95) if late else float("inf")
        verdicts += [
            (p50 <= SMALL_ENTRY_MS[0] and p95 <= SMALL_ENTRY_MS[1],
             f"up to {SMALL_BOARDS} boards, server time per entry: p50 {p50:.1f} / p95 {p95:.1f}"
             f" ms (goal at most {SMALL_ENTRY_MS[0]} / {SMALL_ENTRY_MS[1]} ms)"),
            (seen <= SEEN_WITHIN_MS,
             f"a spectator saw an entry after p95 {seen:.0f} ms (goal at most {SEEN_WITHIN_MS})"),
        ]  # fmt: skip
    return verdicts


if __name__ == "__main__":
    main()

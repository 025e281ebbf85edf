"""Shared by the tests that need a real Celery worker process on the real broker."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import override_settings

from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.ratings.models import RatingList

PROJECT_ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() == "true"
WAIT_FOR_SHUTDOWN_SECONDS = 20

#: Mark for tests that need the real broker: they are skipped in eager mode (no broker URL).
needs_broker = pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER, reason="needs CELERY_BROKER_URL (a real broker)"
)


def require_broker() -> None:
    """Skip when the broker is unreachable, except on CI where that is a failure."""
    from nardy_site.health.checks import broker_status  # noqa: PLC0415

    status = broker_status()
    if status != "ok":
        message = f"broker {settings.CELERY_BROKER_URL} is unreachable ({status})"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


def worker_database_url() -> str:
    """DATABASE_URL of the test database that pytest-django set up for this run."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        name = str(db["NAME"])
        if name == ":memory:" or name.startswith("file:"):
            pytest.fail("the worker test needs a file-based SQLite database, not an in-memory one")
        return f"sqlite:///{Path(name).resolve()}"
    if connection.vendor == "postgresql":
        credentials = quote(db["USER"] or "", safe="")
        if db["PASSWORD"]:
            credentials += ":" + quote(db["PASSWORD"], safe="")
        host = quote(db["HOST"] or "", safe="")
        port = f":{db['PORT']}" if db["PORT"] else ""
        return f"postgres://{credentials}@{host}{port}/{quote(db['NAME'], safe='')}"
    pytest.fail(f"no DATABASE_URL recipe for {connection.vendor}")


class Worker:
    """A worker process on its own throw-away queue; its log is kept for failure messages."""

    def __init__(self, queue: str, log: Path, process: subprocess.Popen[bytes]) -> None:
        self.queue = queue
        self.log = log
        self.process = process

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> int:
        """Warm shutdown (SIGTERM); kill the process group if it does not stop in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT_FOR_SHUTDOWN_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode


def forget_queue(queue: str) -> None:
    """Delete the throw-away queue's broker state so test runs leave nothing behind."""
    from nardy_site.celery import app  # noqa: PLC0415

    # Declaring first teaches this connection the queue's bindings, so delete() removes them too.
    with app.connection_for_write() as conn:
        bound = app.amqp.queues[queue].bind(conn.default_channel)
        bound.declare()
        bound.delete()


@pytest.fixture
def real_worker(tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Start workers: ``real_worker(include=..., env={...})``. Each listens on a new queue, which
    becomes the default queue of this process's task messages too; all stop at teardown."""
    from nardy_site.celery import app  # noqa: PLC0415

    require_broker()
    started: list[Worker] = []
    default_queue = app.conf.task_default_queue  # restored at teardown

    def start(include: str | None = None, env: dict[str, str] | None = None) -> Worker:
        queue = f"nardy-test-{uuid.uuid4().hex}"
        log = tmp_path / f"{queue}.log"
        command = [
            sys.executable, "-m", "celery", "-A", "nardy_site", "worker", "--pool=solo",
            "--without-gossip", "--without-mingle", "--without-heartbeat", f"--queues={queue}",
            f"--hostname={queue}@%h", "--loglevel=info",
        ]  # fmt: skip
        if include:
            command.append(f"--include={include}")
        environment = {**os.environ, "DATABASE_URL": worker_database_url(), **(env or {})}
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=PROJECT_ROOT,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = Worker(queue, log, process)
        started.append(worker)
        app.conf.task_default_queue = queue
        return worker

    yield start
    app.conf.task_default_queue = default_queue
    for worker in started:
        worker.stop()
        forget_queue(worker.queue)


@pytest.fixture(autouse=True, scope="session")
def throwaway_default_queue() -> Iterator[None]:
    """With a real broker, tasks that tests enqueue without a worker (results committed by
    transactional tests) go to a queue of this run, deleted at the end, not to the shared one."""
    from nardy_site.celery import app  # noqa: PLC0415

    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield
        return
    saved = app.conf.task_default_queue
    queue = f"nardy-test-run-{uuid.uuid4().hex}"
    app.conf.task_default_queue = queue
    yield
    app.conf.task_default_queue = saved
    with contextlib.suppress(Exception):  # an unreachable broker has nothing to forget
        forget_queue(queue)


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """Tests make many users: hash their passwords the cheap way (never in production). For the
    whole session: the rows a module shares (``tests.support.shared_rows``) are made before any
    test's own fixtures."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """A request in Russian leaves its language active on the thread (the locale middleware
    activates it and nothing resets it): the next test starts in the default language again."""
    yield
    from django.utils import translation  # noqa: PLC0415

    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """A cache of this test's own: counts of failed logins never leak between tests, and a shared
    Redis cache (CACHE_URL) is never flushed by a test. Shared public pages are rendered for the
    current version (tests/web/test_page_cache.py tests the refresh delay itself). Recordings
    publish to no Redis, and a spectator's follow of a match answers at once (the live server's
    threads never wait): tests/tournaments/matches/live/test_live_follow.py waits."""
    cache = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": f"test-{uuid.uuid4().hex}",
    }
    with override_settings(
        CACHES={"default": cache},
        PUBLIC_PAGE_REFRESH_SECONDS=0,
        LIVE_FOLLOW_REDIS_URL="",
        LIVE_FOLLOW_WAIT_UNDER_WSGI=False,
    ):
        yield


# --- Personas of the permission matrices (tests/api, tests/security) -------------------------


@dataclass
class World:
    users: dict[str, User | None]
    tournament: Tournament
    match: Match
    entries: dict[str, Entry]


@pytest.fixture
def world(db) -> World:
    users: dict[str, User | None] = {"anonymous": None}
    for persona, name in [
        ("player", "anna"), ("opponent", "boris"), ("another_player", "carl"),
        ("other_organizer", "otto"), ("organizer", "olga"),
    ]:  # fmt: skip
        users[persona] = User.objects.create_user(name, password="x")
    users["staff"] = User.objects.create_user("sam", password="x", is_staff=True)
    # Rita approves the events of the Short Nardy FIBS list (tournaments.ratings.services).
    users["rating_officer"] = User.objects.create_user("rita", password="x")
    rating_list, _ = RatingList.objects.get_or_create(system="fibs", discipline="short")
    rating_list.officers.add(users["rating_officer"])
    Tournament.objects.create(
        name="Other", slug="other", variant="short", organizer=users["other_organizer"]
    )
    tournament = Tournament.objects.create(
        name="Cup",
        slug="cup",
        variant="short",
        match_length=3,
        status=Tournament.Status.RUNNING,
        organizer=users["organizer"],
    )
    entries = {
        persona: Entry.objects.create(
            tournament=tournament,
            player=Player.objects.create(display_name=users[persona].username, user=users[persona]),
            seed=seed,
        )
        for seed, persona in enumerate(("player", "opponent", "another_player"), start=1)
    }
    round_ = Round.objects.create(tournament=tournament, number=1)
    match = Match.objects.create(
        tournament=tournament, round=round_, home=entries["player"], away=entries["opponent"]
    )
    return World(users, tournament, match, entries)


@pytest.fixture
def eager_tasks():
    """Run tasks in this process, as the embedded default does, whatever the broker."""
    from nardy_site.celery import app  # noqa: PLC0415

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def analysis_off() -> Iterator[None]:
    """No gnubg run behind a recorded result, unless a test turns analysis on (``analysis_on``):
    a suite of Short Nardy records would otherwise wait for gnubg at every result."""
    with override_settings(ANALYSIS="off"):
        yield


@pytest.fixture
def analysis_on(analysis_off: None) -> Iterator[None]:
    with override_settings(ANALYSIS="on"):
        yield


@pytest.fixture(autouse=True)
def api_answers_are_declared(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every answer of the API a test gets has a status its published schema declares for the
    operation, and no JSON field the schema leaves out (``tests.support.declared``): a client
    generated from the schema knows it."""
    from django.test import Client  # noqa: PLC0415

    from tests.support.declared import (  # noqa: PLC0415
        undeclared_answer_fields,
        undeclared_status,
    )

    undeclared: set[str] = set()
    request = Client.request

    def checked(client: Client, **given: object) -> Any:
        response = request(client, **given)
        path, status = str(given.get("PATH_INFO", "")), response.status_code
        if not path.startswith("/api/v1/") or status >= 500:
            return response
        method = str(given.get("REQUEST_METHOD"))
        route = getattr(response.resolver_match, "route", "")
        why = undeclared_status(method, route, status)
        if why is None and response.get("Content-Type", "").startswith("application/json"):
            body = json.loads(response.content) if response.content else None
            why = undeclared_answer_fields(method, route, status, body)
        if why is not None:
            undeclared.add(why)
        return response

    monkeypatch.setattr(Client, "request", checked)
    yield
    if undeclared:
        pytest.fail("\n".join(sorted(undeclared)), pytrace=False)

"""Fault injection with real processes: a Redis of the test's own, on a spare port, that the test
stops, pauses and starts again at will (never the machine's shared Redis); Celery workers and
beat on it; and this process's producer (the services, the site, the API) pointed at it."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import kombu.pools
import pytest

from tests.conftest import IN_CI, PROJECT_ROOT, Worker, worker_database_url

#: The queue of the tests' own Redis: its default queue, where Celery beat sends too.
QUEUE = "celery"
START_SECONDS = 10


def spare_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    """A throw-away ``redis-server`` (no persistence: a restart starts empty, as after a crash)."""

    def __init__(self, binary: str, port: int, log: Path) -> None:
        self.binary = binary
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (again, on the same port) and wait until it answers."""
        assert self.process is None, "already running"
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + START_SECONDS
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not start:\n{self.log.read_text()}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop it (its queues go with it: nothing is saved)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGCONT)  # in case it is paused
        self.process.terminate()
        try:
            self.process.wait(timeout=START_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def pause(self) -> None:
        """Freeze it: it accepts connections and never answers (a hung broker)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server is not installed"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    redis = OwnRedis(binary, spare_port(), tmp_path / "redis.log")
    redis.start()
    yield redis
    redis.stop()


def _forget_connections(app) -> None:
    """Drop this process's pooled broker connections: the next message connects anew. kombu
    keeps its pools in process-wide registries keyed by broker URL, so closing a pool without
    clearing them would hand the closed pool to the next test that sends to that broker."""
    kombu.pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def own_broker(own_redis: OwnRedis) -> Iterator[OwnRedis]:
    """This process sends its tasks to the own Redis, on ``QUEUE``, for the test."""
    from nardy_site.celery import app  # noqa: PLC0415

    names = ("broker_write_url", "broker_read_url", "task_default_queue")
    saved = {name: app.conf.get(name) for name in names}
    app.conf.update(
        broker_write_url=own_redis.url, broker_read_url=own_redis.url, task_default_queue=QUEUE
    )
    _forget_connections(app)
    yield own_redis
    own_redis.resume()  # a paused Redis would hang the closing of the connections
    _forget_connections(app)
    app.conf.update(saved)


def _environment(own_redis: OwnRedis, env: dict[str, str] | None) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": worker_database_url(),
        "CELERY_BROKER_URL": own_redis.url,
        **(env or {}),
    }


def _started(command: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            command,
            cwd=PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@pytest.fixture
def own_worker(own_redis: OwnRedis, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Start workers on the own Redis: ``own_worker(include=..., env={...}, queue=...)``, on
    ``QUEUE`` unless told (a second worker takes what the first left); all stop at teardown."""
    started: list[Worker] = []

    def start(
        include: str | None = None, env: dict[str, str] | None = None, queue: str = QUEUE
    ) -> Worker:
        name = f"fault-{len(started)}"
        command = [
            sys.executable, "-m", "celery", "-A", "nardy_site", "worker", "--pool=solo",
            "--without-gossip", "--without-mingle", "--without-heartbeat", f"--queues={queue}",
            f"--hostname={name}@%h", "--loglevel=info",
        ]  # fmt: skip
        if include:
            command.append(f"--include={include}")
        log = tmp_path / f"{name}.log"
        worker = Worker(queue, log, _started(command, log, _environment(own_redis, env)))
        started.append(worker)
        return worker

    yield start
    own_redis.resume()
    for worker in started:
        worker.stop()


@pytest.fixture
def own_beat(own_redis: OwnRedis, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Start ``celery beat`` on the own Redis: ``own_beat(env={...})``; stopped at teardown."""
    started: list[Worker] = []

    def start(env: dict[str, str] | None = None) -> Worker:
        command = [
            sys.executable, "-m", "celery", "-A", "nardy_site", "beat", "--loglevel=info",
            f"--schedule={tmp_path / 'beat-schedule'}", f"--pidfile={tmp_path / 'beat.pid'}",
        ]  # fmt: skip
        log = tmp_path / "beat.log"
        beat = Worker(QUEUE, log, _started(command, log, _environment(own_redis, env)))
        started.append(beat)
        return beat

    yield start
    own_redis.resume()
    for beat in started:
        beat.stop()

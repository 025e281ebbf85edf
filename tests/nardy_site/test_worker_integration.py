"""A real Celery worker process picks up a task from the broker and writes to the test database.

Runs whenever CELERY_BROKER_URL is set. An unreachable broker skips it locally but fails it under
CI=true, where a skip would hide that the worker path was never exercised.
"""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection, transaction

from nardy_site.health.checks import broker_status
from nardy_site.health.models import WorkerProbe
from nardy_site.health.tasks import health_ping

PROJECT_ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() == "true"
WAIT_FOR_WRITE_SECONDS = 30
WAIT_FOR_SHUTDOWN_SECONDS = 20

pytestmark = [
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER, reason="needs CELERY_BROKER_URL (a real broker)"
    ),
    # Real commits: the enqueue happens on commit, and the worker must see our data and we its.
    pytest.mark.django_db(transaction=True),
]


def require_broker() -> None:
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


def start_worker(queue: str, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "nardy_site",
        "worker",
        "--pool=solo",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        f"--queues={queue}",
        f"--hostname={queue}@%h",
        "--loglevel=info",
    ]
    env = {**os.environ, "DATABASE_URL": worker_database_url()}
    with log.open("wb") as out:
        return subprocess.Popen(
            command,
            cwd=PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    """Warm shutdown (SIGTERM); kill the whole process group if it does not stop in time."""
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=WAIT_FOR_SHUTDOWN_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def forget_queue(queue: str) -> None:
    """Delete the throw-away queue's broker state so test runs leave nothing behind."""
    # Declaring first teaches this connection the queue's bindings, so delete() removes them too.
    with health_ping.app.connection_for_write() as conn:
        bound = health_ping.app.amqp.queues[queue].bind(conn.default_channel)
        bound.declare()
        bound.delete()


def wait_for_probe(token: str, worker: subprocess.Popen[bytes], log: Path) -> WorkerProbe:
    deadline = time.monotonic() + WAIT_FOR_WRITE_SECONDS
    while time.monotonic() < deadline:
        probe = WorkerProbe.objects.filter(token=token).first()
        if probe is not None:
            return probe
        if worker.poll() is not None:
            pytest.fail(f"worker exited with {worker.returncode}:\n{log.read_text()}")
        time.sleep(0.2)
    pytest.fail(f"no row from the worker after {WAIT_FOR_WRITE_SECONDS}s:\n{log.read_text()}")


def test_a_real_worker_runs_the_task_and_its_write_is_visible(tmp_path):
    require_broker()
    queue = f"nardy-test-{uuid.uuid4().hex}"
    token = uuid.uuid4().hex
    log = tmp_path / "worker.log"
    worker = start_worker(queue, log)
    try:
        with transaction.atomic():
            health_ping.apply_async_on_commit(args=(token,), queue=queue)
            assert not WorkerProbe.objects.filter(token=token).exists()

        probe = wait_for_probe(token, worker, log)

        assert probe.pid == worker.pid, "the row was written by the worker process"
        assert probe.pid != os.getpid()
    finally:
        stop_worker(worker)
        forget_queue(queue)
    assert worker.returncode == 0, log.read_text()

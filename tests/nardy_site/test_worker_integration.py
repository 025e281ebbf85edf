"""A real Celery worker process picks up a task from the broker and writes to the test database.

Runs whenever CELERY_BROKER_URL is set. An unreachable broker skips it locally but fails it under
CI=true, where a skip would hide that the worker path was never exercised.
"""

import os
import time
import uuid

import pytest
from django.conf import settings
from django.db import transaction

from nardy_site.health.models import WorkerProbe
from nardy_site.health.tasks import health_ping

WAIT_FOR_WRITE_SECONDS = 30

pytestmark = [
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER, reason="needs CELERY_BROKER_URL (a real broker)"
    ),
    # Real commits: the enqueue happens on commit, and the worker must see our data and we its.
    pytest.mark.django_db(transaction=True),
]


def wait_for_probe(token: str, worker) -> WorkerProbe:
    deadline = time.monotonic() + WAIT_FOR_WRITE_SECONDS
    while time.monotonic() < deadline:
        probe = WorkerProbe.objects.filter(token=token).first()
        if probe is not None:
            return probe
        if worker.process.poll() is not None:
            pytest.fail(f"worker exited with {worker.process.returncode}:\n{worker.output()}")
        time.sleep(0.2)
    pytest.fail(f"no row from the worker after {WAIT_FOR_WRITE_SECONDS}s:\n{worker.output()}")


def test_a_real_worker_runs_the_task_and_its_write_is_visible(real_worker):
    worker = real_worker()
    token = uuid.uuid4().hex
    with transaction.atomic():
        health_ping.apply_async_on_commit(args=(token,), queue=worker.queue)
        assert not WorkerProbe.objects.filter(token=token).exists()

    probe = wait_for_probe(token, worker)

    assert probe.pid == worker.pid, "the row was written by the worker process"
    assert probe.pid != os.getpid()
    assert worker.stop() == 0, worker.output()

import os

import pytest
from django.conf import settings

from nardy_site.health.models import WorkerProbe
from nardy_site.health.tasks import health_ping

pytestmark = pytest.mark.django_db


def test_it_records_the_probe_once_even_when_run_twice():
    health_ping("token-1")
    health_ping("token-1")

    probe = WorkerProbe.objects.get()
    assert probe.token == "token-1"
    assert probe.pid == os.getpid()


@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER, reason="eager mode only: CELERY_BROKER_URL is set"
)
def test_without_a_broker_it_runs_in_process_once_the_transaction_commits(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        health_ping.delay_on_commit("token-2")
        assert not WorkerProbe.objects.exists(), "nothing runs before the commit"

    assert len(callbacks) == 1
    assert WorkerProbe.objects.get().token == "token-2"

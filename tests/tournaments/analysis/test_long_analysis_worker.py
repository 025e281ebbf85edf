"""A recorded Long Nardy match goes through the ``analysis`` queue to a real Celery worker on the
real broker (CI: Redis, PostgreSQL), and its figures reach the match page and the API."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from nardy_site.celery import app
from tests.web.conftest import make_site
from tournaments.analysis.models import MatchAnalysis
from tournaments.matches.results import match_result_record

WAIT_SECONDS = 120

pytestmark = [
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER, reason="needs CELERY_BROKER_URL (a real broker)"
    ),
    pytest.mark.django_db(transaction=True),
]


def route_to(routes) -> None:
    app.conf.task_routes = routes
    app.amqp.flush_routes()
    del app.amqp.router


def test_a_worker_analyses_a_long_nardy_match_for_the_page_and_the_api(real_worker, client):
    worker = real_worker(env={"ANALYSIS": "on", "LONG_ANALYSIS_PLIES": "1"})
    routes = app.conf.task_routes
    # The analysis task's own queue, as CELERY_TASK_ROUTES names it, is this test's worker's
    # (the app's router, made at its first use, is made again with the routes).
    route_to({"tournaments.analysis.tasks.analysis_run": {"queue": worker.queue}})
    try:
        with override_settings(ANALYSIS="on", LONG_ANALYSIS_PLIES=1):
            site = make_site(variant="long", rated=False, match_length=1)
            match = site.match("Anna", "Boris")
            match_result_record(match=match, by=site.organizer, games=site.recorded_games(7))
            deadline = time.monotonic() + WAIT_SECONDS
            while MatchAnalysis.objects.get(match=match).status in ("queued", "running"):
                if worker.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"no analysis from the worker:\n{worker.output()}")
                time.sleep(0.2)
    finally:
        route_to(routes)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "done", analysis.error
    assert analysis.plies == 1 and analysis.engine.startswith("nardy-long ")
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["state"] == "done" and data["plies"] == 1
    assert sorted(row["side"] for row in data["totals"]) == [1, 2]
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-role="analysis-totals"' in page and "1-ply search" in page
    assert worker.stop() == 0, worker.output()

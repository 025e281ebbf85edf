from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.db import OperationalError, connections

pytestmark = pytest.mark.django_db

# Nothing listens on port 1, so a connection is refused at once.
UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"


def test_it_reports_ok_when_the_database_and_broker_answer(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    expected_broker = "eager" if django_settings.CELERY_TASK_ALWAYS_EAGER else "ok"
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "broker": expected_broker,
        "analysis": "off",
    }  # fmt: skip  (the tests turn analysis off: tests/conftest.py)


@pytest.mark.parametrize(
    "mode, gnubg, said",
    [("auto", "gnubg", "available"), ("auto", "", "not installed"), ("on", "", "not installed"),
     ("off", "gnubg", "off")],
)  # fmt: skip
def test_it_reports_whether_matches_are_analysed(client, settings, monkeypatch, mode, gnubg, said):
    from games.analysis.runner import gnubg_path  # noqa: PLC0415

    installed = gnubg_path()
    if gnubg and installed is None:
        pytest.skip("gnubg is not installed")
    settings.ANALYSIS = mode
    monkeypatch.setenv("GNUBG", installed if gnubg else "")  # "": as if it were not there
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["analysis"] == said


def test_it_says_eager_when_no_broker_is_configured(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True

    assert client.get("/healthz").json()["broker"] == "eager"


def test_it_checks_a_configured_broker(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "memory://"

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["broker"] == "ok"


def test_it_returns_503_when_the_configured_broker_is_unreachable(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = UNREACHABLE_BROKER

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["database"] == "ok"
    assert body["broker"].startswith("error: ")
    assert "127.0.0.1" not in body["broker"], "connection details stay in the log"


def test_it_returns_503_when_the_database_is_down(client):
    refused = OperationalError("connection refused")
    with mock.patch.object(connections["default"], "cursor", side_effect=refused):
        response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["database"] == "error: OperationalError"


def test_it_is_never_cached(client):
    assert "no-cache" in client.get("/healthz")["Cache-Control"]


def test_it_refuses_writes(client):
    assert client.post("/healthz").status_code == 405

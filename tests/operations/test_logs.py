"""Structured logs: the JSON lines, the request line and its X-Request-ID, the task lines, and
the LOGGING dict that settings.py takes."""

from __future__ import annotations

import json
import logging
import logging.config
import re
import sys
from collections.abc import Iterator
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from celery import shared_task
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings
from django.utils.functional import SimpleLazyObject

from nardy_site import logs
from nardy_site.logs import (
    JsonFormatter,
    RequestLogMiddleware,
    TextFormatter,
    connect_task_logging,
    current_request_id,
    disconnect_task_logging,
    logging_config,
)

HEX_ID = re.compile(r"[0-9a-f]{32}")


def record(message: str = "hello %s", *args: Any, **extra: Any) -> logging.LogRecord:
    made = logging.LogRecord("tournaments.demo", logging.WARNING, __file__, 1, message, args, None)
    made.__dict__.update(extra)
    return made


class Lines(logging.Handler):
    """The JSON lines of every record, formatted as a console handler does: when logged."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))

    def of(self, logger: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line["logger"] == logger]


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[Lines]:
    """What the project's loggers say at DEBUG and up, as JSON lines."""
    lines = Lines()
    root = logging.getLogger()
    root.addHandler(lines)
    with (
        caplog.at_level(logging.DEBUG, logger="nardy_site"),
        caplog.at_level(logging.DEBUG, logger="tournaments"),
        caplog.at_level(logging.DEBUG, logger="django.request"),
    ):
        yield lines
    root.removeHandler(lines)


# --- The formatter ---------------------------------------------------------------------------


def test_a_record_is_one_line_of_json_with_time_level_logger_and_message():
    line = JsonFormatter().format(record("hello %s", "world\nand more", match_id=7))

    assert "\n" not in line
    data = json.loads(line)
    assert data["level"] == "WARNING" and data["logger"] == "tournaments.demo"
    assert data["message"] == "hello world\nand more" and data["match_id"] == 7
    assert data["time"].endswith("Z")
    assert datetime.fromisoformat(data["time"]).utcoffset().total_seconds() == 0


def test_an_exception_is_written_as_its_traceback_text():
    try:
        raise ValueError("no such move")
    except ValueError:
        failed = record("replay failed")
        failed.exc_info = sys.exc_info()

    data = json.loads(JsonFormatter().format(failed))

    assert "Traceback" in data["exception"] and "ValueError: no such move" in data["exception"]


def test_values_json_cannot_write_become_text_and_a_django_request_becomes_method_and_path():
    request = RequestFactory().post("/api/v1/matches/3/result/")
    data = json.loads(JsonFormatter().format(record("x", request=request, status_code=500)))

    assert (data["method"], data["path"], data["status"]) == (
        "POST",
        "/api/v1/matches/3/result/",
        500,
    )
    assert "request" not in data
    assert json.loads(JsonFormatter().format(record("x", when=object())))["when"].startswith("<")


def test_the_text_formatter_is_one_readable_line_with_the_ids():
    text = TextFormatter().format(record("hello %s", "world"))

    assert re.fullmatch(r"\S+ \S+ WARNING tournaments\.demo hello world", text)


# --- The request line --------------------------------------------------------------------------


def middleware(view: Any = None) -> RequestLogMiddleware:
    return RequestLogMiddleware(view or (lambda request: HttpResponse("ok")))


def test_each_request_is_logged_once_with_its_id_and_the_id_is_sent_back(logged):
    request = RequestFactory().get("/tournaments/", HTTP_X_REQUEST_ID="abc-123")
    response = middleware()(request)

    assert response["X-Request-ID"] == "abc-123"
    (line,) = logged.of("nardy_site.requests")
    assert line["request_id"] == "abc-123" and line["level"] == "INFO"
    assert (line["method"], line["path"], line["status"]) == ("GET", "/tournaments/", 200)
    assert 0 <= line["cpu_ms"] <= line["duration_ms"] + 0.2 and line["user_id"] is None
    assert line["message"].startswith("GET /tournaments/ 200 ")


@pytest.mark.parametrize("given", [None, "", "has spaces", "x" * 129, "new\nline"])
def test_a_missing_or_unsafe_request_id_is_replaced_by_a_new_one(logged, given):
    headers = {} if given is None else {"HTTP_X_REQUEST_ID": given}
    response = middleware()(RequestFactory().get("/", **headers))

    assert HEX_ID.fullmatch(response["X-Request-ID"])
    assert logged.of("nardy_site.requests")[0]["request_id"] == response["X-Request-ID"]


def test_lines_logged_while_serving_a_request_carry_its_id(logged):
    def view(request: HttpRequest) -> HttpResponse:
        logging.getLogger("tournaments.matches.results").warning("refused")
        return HttpResponse(status=409)

    middleware(view)(RequestFactory().get("/", HTTP_X_REQUEST_ID="req-1"))

    (inner,) = logged.of("tournaments.matches.results")
    assert inner["request_id"] == "req-1"
    assert logged.of("nardy_site.requests")[0]["status"] == 409
    assert current_request_id() is None  # nothing left behind for the thread's next request


def test_djangos_line_for_an_error_response_carries_the_request_id_and_is_written_once(logged):
    middleware(lambda request: HttpResponse(status=503))(
        RequestFactory().get("/healthz", HTTP_X_REQUEST_ID="req-503")
    )

    (error,) = logged.of("django.request")
    assert (error["message"], error["level"]) == ("Service Unavailable: /healthz", "ERROR")
    assert (error["request_id"], error["status"]) == ("req-503", 503)


def test_the_user_is_named_when_the_request_looked_it_up_and_never_looked_up_for_the_log(logged):
    looked_up = RequestFactory().get("/")
    looked_up.user = SimpleNamespace(pk=42, is_authenticated=True)
    anonymous = RequestFactory().get("/")
    anonymous.user = AnonymousUser()
    untouched = RequestFactory().get("/")

    def lookup() -> None:
        raise AssertionError("the log line must not load the user")

    untouched.user = SimpleLazyObject(lookup)
    for request in (looked_up, anonymous, untouched):
        middleware()(request)

    assert [line["user_id"] for line in logged.of("nardy_site.requests")] == [
        42, None, None
    ]  # fmt: skip


def test_health_checks_are_debug_lines_and_server_errors_warnings(logged):
    middleware()(RequestFactory().get("/healthz"))
    middleware(lambda request: HttpResponse(status=500))(RequestFactory().get("/x"))

    assert [line["level"] for line in logged.of("nardy_site.requests")] == [
        "DEBUG", "WARNING"
    ]  # fmt: skip


@pytest.mark.django_db
def test_the_middleware_in_the_site_logs_pages_with_the_signed_in_user(client, logged):
    user = User.objects.create_user("olga", password="x")
    client.force_login(user)
    ours = "nardy_site.logs.RequestLogMiddleware"
    stack = [ours, *(name for name in settings.MIDDLEWARE if name != ours)]
    with override_settings(MIDDLEWARE=stack):
        response = client.get("/", HTTP_X_REQUEST_ID="page-1")
        missing = client.get("/api/v1/no-such-thing/")

    assert response.status_code == 200 and response["X-Request-ID"] == "page-1"
    assert HEX_ID.fullmatch(missing["X-Request-ID"])
    home, not_found = logged.of("nardy_site.requests")
    assert (home["path"], home["status"], home["user_id"]) == ("/", 200, user.pk)
    assert (not_found["status"], not_found["request_id"]) == (404, missing["X-Request-ID"])
    (django_line,) = logged.of("django.request")  # once, not again by Django's handler
    assert django_line["request_id"] == missing["X-Request-ID"]


# --- Celery tasks ------------------------------------------------------------------------------


@shared_task(name="tests.operations.test_logs.add")
def add(a: int, b: int) -> int:
    logging.getLogger("tournaments.queue").info("adding")
    if b < 0:
        raise ValueError("no negative numbers")
    return a + b


@pytest.fixture
def task_logging() -> Iterator[None]:
    connect_task_logging()
    connect_task_logging()  # twice is once
    yield
    disconnect_task_logging()


def test_a_task_logs_its_start_and_end_and_its_lines_carry_its_name_and_id(task_logging, logged):
    result = add.apply((2, 3), task_id="task-1")

    assert result.get() == 5
    started, ended = logged.of("nardy_site.tasks")
    assert started["message"] == "task tests.operations.test_logs.add[task-1] started"
    assert (ended["task_name"], ended["task_id"], ended["state"]) == (add.name, "task-1", "SUCCESS")
    assert ended["duration_ms"] >= 0
    (inner,) = logged.of("tournaments.queue")
    assert (inner["task_name"], inner["task_id"]) == (add.name, "task-1")
    assert logs._task.get() is None


def test_a_failed_task_logs_its_error(task_logging, logged):
    add.apply((2, -1), task_id="task-2", throw=False)

    lines = logged.of("nardy_site.tasks")
    failed = next(line for line in lines if line["level"] == "ERROR")
    assert failed["task_id"] == "task-2" and "no negative numbers" in failed["error"]
    assert failed["duration_ms"] >= 0
    assert lines[-1]["state"] == "FAILURE"


def test_a_task_enqueued_while_serving_a_request_carries_its_id_to_the_worker(task_logging):
    def view(request: HttpRequest) -> HttpResponse:
        headers: dict[str, Any] = {}
        logs._on_publish(headers=headers)  # what Celery calls before it publishes
        return HttpResponse(json.dumps(headers))

    response = middleware(view)(RequestFactory().get("/", HTTP_X_REQUEST_ID="req-9"))
    assert json.loads(response.content) == {"request_id": "req-9"}

    # In the worker, the task's lines carry the request id, and nothing is left after it.
    task = SimpleNamespace(name="t", request=SimpleNamespace(request_id="req-9"))
    logs._on_prerun(task_id="w-1", task=task)
    assert current_request_id() == "req-9"
    logs._on_postrun(task_id="w-1", task=task, state="SUCCESS")
    assert current_request_id() is None and logs._task.get() is None


# --- The LOGGING setting -----------------------------------------------------------------------


@pytest.fixture
def restored_logging() -> Iterator[None]:
    """dictConfig changes the process's loggers: put back what they were."""
    names = [None, *logging_config(level="INFO", json=True)["loggers"]]
    saved = {}
    for name in names:
        logger = logging.getLogger(name)
        saved[name] = (logger.level, list(logger.handlers), logger.propagate, logger.disabled)
    yield
    for name, (level, handlers, propagate, disabled) in saved.items():
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.handlers[:] = handlers
        logger.propagate, logger.disabled = propagate, disabled


@pytest.mark.parametrize("as_json", [True, False])
def test_the_logging_config_is_taken_by_dictconfig_and_logs_to_standard_error(
    restored_logging, capsys, as_json
):
    logging.config.dictConfig(logging_config(level="info", json=as_json))

    logging.getLogger("tournaments.ledger").info("replayed %s matches", 3)
    logging.getLogger("tournaments.ledger").debug("not shown at INFO")
    logging.getLogger("django.request").warning("Not Found: /x")  # the request line says it
    logging.getLogger("urllib3").info("a library's chatter")  # libraries: warnings and worse

    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    if as_json:
        assert json.loads(err[0])["message"] == "replayed 3 matches"
    else:
        assert err[0].endswith("INFO tournaments.ledger replayed 3 matches")


def test_the_logging_config_knows_the_project_loggers_and_refuses_unknown_levels():
    config = logging_config(level="DEBUG", json=True)

    assert {"django", "django.request", "celery", "tournaments", "games", "nardy_site"} <= set(
        config["loggers"]
    )
    assert config["loggers"]["tournaments"]["level"] == "DEBUG"
    assert config["loggers"]["django.request"]["level"] == "ERROR"
    assert config["handlers"]["console"]["formatter"] == "json"
    assert logging_config(level="CRITICAL", json=False)["loggers"]["django.request"]["level"] == (
        "CRITICAL"
    )
    with pytest.raises(ImproperlyConfigured, match="LOG_LEVEL: expected one of DEBUG, .*'loud'"):
        logging_config(level="loud", json=True)

"""Structured logs: one JSON object a line (or readable text), a line per request and per task.

* ``logging_config(level=..., json=...)`` is the Django ``LOGGING`` dict: one console handler
  (standard error) for everything, JSON or text; ``level`` applies to the project's loggers
  (``nardy_site``, ``tournaments``, ``games``), ``django`` and ``celery``; other libraries log
  warnings and worse; ``django.request`` only its errors (a 5xx with its traceback: the request
  line below already says every 4xx).
* ``JsonFormatter`` writes ``time`` (ISO-8601, UTC), ``level``, ``logger``, ``message``, the
  request's or the task's ids when the record was made while serving one, the ``extra`` fields
  the call gave, and ``exception`` (the traceback text) when there is one.
* ``RequestLogMiddleware`` logs one line per request (``nardy_site.requests``): method, path,
  status, duration and CPU time (the serving thread's) in milliseconds, the user's id, and the
  request id, taken from the ``X-Request-ID`` header when it is a sane one (letters, digits,
  ``.-_:``, up to 128) or made up, and sent back in the ``X-Request-ID`` response header.
  Every other line logged while the request is served carries the same ``request_id``.
* ``connect_task_logging()`` logs each Celery task's start, end (with its state and duration)
  retry and failure (``nardy_site.tasks``); lines logged inside a task carry ``task_name`` and
  ``task_id``, and a task enqueued while serving a request carries that ``request_id`` too.
  It also makes the worker keep this configuration instead of installing Celery's own.
"""

from __future__ import annotations

import json
import logging
import logging.config
import re
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty
from django.utils.log import log_response

#: Where the per-request line goes (``nardy_site.tasks`` has the per-task lines).
request_logger = logging.getLogger("nardy_site.requests")
task_logger = logging.getLogger("nardy_site.tasks")

REQUEST_ID_HEADER = "X-Request-ID"
#: A request id a client may give us; anything else is replaced (no log injection, no floods).
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Paths polled by load balancers and monitors: their lines are DEBUG, not INFO.
QUIET_PATHS = frozenset({"/healthz"})

#: The ids of what is being served in this thread or task (None: nothing).
_request_id: ContextVar[str | None] = ContextVar("nardy_request_id", default=None)
_task: ContextVar[tuple[str, str] | None] = ContextVar("nardy_task", default=None)
#: The level of a task's start and end lines: INFO, or DEBUG in ``tasks_logged_at_debug``.
_task_level: ContextVar[int] = ContextVar("nardy_task_level", default=logging.INFO)

# Attributes every LogRecord has: anything else on a record came from ``extra=``.
_RECORD_ATTRIBUTES = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}


def current_request_id() -> str | None:
    """The id of the request being served (or that enqueued the running task), if any."""
    return _request_id.get()


def _context_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The fields a line gets from its record's ``extra`` and from what is being served."""
    fields: dict[str, Any] = {}
    for key, value in record.__dict__.items():
        if key in _RECORD_ATTRIBUTES or key.startswith("_"):
            continue
        if key == "request":  # django.request's HttpRequest (django.server's is a socket)
            if isinstance(value, HttpRequest):
                fields.setdefault("method", value.method)
                fields.setdefault("path", value.path)
        elif key == "status_code":
            fields.setdefault("status", value)
        elif key == "data" and record.name.startswith("celery"):
            continue  # celery.app.trace repeats what its message says
        else:
            fields[key] = value
    request_id = _request_id.get()
    if request_id is not None:
        fields.setdefault("request_id", request_id)
    task = _task.get()
    if task is not None:
        fields.setdefault("task_name", task[0])
        fields.setdefault("task_id", task[1])
    return fields


def _json_value(value: Any) -> Any:
    """What ``json.dumps`` cannot write, as text."""
    return str(value)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in _context_fields(record).items():
            line.setdefault(key, value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=_json_value)


class TextFormatter(logging.Formatter):
    """``time level logger [request=… task=…] message``, a traceback on the lines below."""

    def format(self, record: logging.LogRecord) -> str:
        record.message = record.getMessage()
        ids = []
        request_id = _request_id.get()
        if request_id is not None:
            ids.append(f"request={request_id}")
        task = _task.get()
        if task is not None:
            ids.append(f"task={task[0]}[{task[1]}]")
        context = f" [{' '.join(ids)}]" if ids else ""
        text = (
            f"{self.formatTime(record)} {record.levelname} {record.name}{context} {record.message}"
        )
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            text += "\n" + record.exc_text
        if record.stack_info:
            text += "\n" + self.formatStack(record.stack_info)
        return text


def logging_config(*, level: str, json: bool) -> dict[str, Any]:
    """The Django ``LOGGING`` setting: one console handler on standard error, JSON or text.

    ``level`` (``LOG_LEVEL``, any case) is one of ``LEVELS``; another is ``ImproperlyConfigured``.
    """
    if level.upper() not in LEVELS:
        raise ImproperlyConfigured(f"LOG_LEVEL: expected one of {', '.join(LEVELS)}, got {level!r}")
    level = level.upper()
    at_least_error = max(logging.getLevelNamesMapping()[level], logging.ERROR)
    # Every line goes up to the root's one handler (so test tools that listen there hear all).
    ours = {"level": level, "handlers": [], "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": "nardy_site.logs.JsonFormatter"},
            "text": {"()": "nardy_site.logs.TextFormatter"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "json" if json else "text",
            },
        },
        "root": {"level": "WARNING", "handlers": ["console"]},
        "loggers": {
            "django": ours,
            # A 5xx with its traceback; the request line already says every 4xx.
            "django.request": {**ours, "level": logging.getLevelName(at_least_error)},
            # runserver's own access line: the request line says the same.
            "django.server": {**ours, "level": "WARNING"},
            "celery": ours,
            # Its "succeeded in" lines repeat the task lines; its failures (traceback) stay.
            "celery.app.trace": {**ours, "level": "WARNING"},
            "nardy_site": ours,
            "tournaments": ours,
            "games": ours,
        },
    }


# --- Requests ----------------------------------------------------------------------------------


class RequestLogMiddleware:
    """One log line per request, and its ``X-Request-ID``; put it first in ``MIDDLEWARE``."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(REQUEST_ID_HEADER, "")
        request_id = given if _SANE_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        token = _request_id.set(request_id)
        started, cpu_started = time.perf_counter(), time.thread_time()
        try:
            response: HttpResponse = self.get_response(request)
            duration_ms = round((time.perf_counter() - started) * 1000, 1)
            cpu_ms = round((time.thread_time() - cpu_started) * 1000, 1)
            response[REQUEST_ID_HEADER] = request_id
            path = request.path
            if response.status_code >= 400:
                # Django's own django.request line for an error response, written here (once)
                # so that it carries the request id: Django would write it after this returns.
                log_response(
                    "%s: %s", response.reason_phrase, path, response=response, request=request
                )
            if response.status_code >= 500:
                level = logging.WARNING  # django.request logs the error itself
            else:
                level = logging.DEBUG if path in QUIET_PATHS else logging.INFO
            request_logger.log(
                level,
                "%s %s %s %.1fms",
                request.method,
                path,
                response.status_code,
                duration_ms,
                extra={
                    "request_id": request_id,
                    "method": request.method,
                    "path": path,
                    "status": response.status_code,
                    "duration_ms": duration_ms,
                    "cpu_ms": cpu_ms,
                    "user_id": _user_id(request),
                },
            )
            return response
        finally:
            _request_id.reset(token)


def _user_id(request: HttpRequest) -> int | str | None:
    """The signed-in user's id, when the request looked it up (never a query of its own)."""
    user = getattr(request, "user", None)
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return None
    return user.pk if user.is_authenticated else None


# --- Celery tasks ------------------------------------------------------------------------------


@dataclass
class _Running:
    """A task this process is running: since when, and how to restore what ran before it."""

    started: float
    task_token: Token[tuple[str, str] | None]
    request_token: Token[str | None] | None


_running: dict[str, _Running] = {}
_running_lock = threading.Lock()
_connected = False


def _task_name(task: Any) -> str:
    return str(getattr(task, "name", None) or "?")


def _since(running: _Running | None) -> float | None:
    if running is None:
        return None
    return round((time.perf_counter() - running.started) * 1000, 1)


def _on_publish(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """A task enqueued while serving a request carries the request's id to the worker."""
    request_id = _request_id.get()
    if headers is not None and request_id is not None:
        headers.setdefault("request_id", request_id)


def _on_prerun(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    name, task_id = _task_name(task), task_id or ""
    task_token = _task.set((name, task_id))
    request_token = None
    request_id = getattr(getattr(task, "request", None), "request_id", None)
    if isinstance(request_id, str) and _SANE_REQUEST_ID.fullmatch(request_id):
        request_token = _request_id.set(request_id)
    with _running_lock:
        _running[task_id] = _Running(time.perf_counter(), task_token, request_token)
    task_logger.log(
        _task_level.get(),
        "task %s[%s] started",
        name,
        task_id,
        extra={"task_name": name, "task_id": task_id},
    )


def _on_postrun(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    name, task_id = _task_name(task), task_id or ""
    with _running_lock:
        running = _running.pop(task_id, None)
    duration_ms = _since(running)
    task_logger.log(
        _task_level.get(),
        "task %s[%s] %s in %sms",
        name,
        task_id,
        state or "done",
        duration_ms,
        extra={"task_name": name, "task_id": task_id, "state": state, "duration_ms": duration_ms},
    )
    # Back to what ran before: nothing in a worker, the caller when the task ran eagerly.
    try:
        if running is not None and running.request_token is not None:
            _request_id.reset(running.request_token)
        if running is not None:
            _task.reset(running.task_token)
        else:
            _task.set(None)
    except ValueError:  # set in another context: there is nothing to go back to
        _task.set(None)
        _request_id.set(None)


def _on_failure(
    sender: Any = None, task_id: str | None = None, exception: BaseException | None = None, **_: Any
) -> None:
    name = _task_name(sender)
    with _running_lock:
        running = _running.get(task_id or "")
    task_logger.error(
        "task %s[%s] failed: %r",
        name,
        task_id,
        exception,
        extra={
            "task_name": name,
            "task_id": task_id,
            "duration_ms": _since(running),
            "error": repr(exception),
        },
    )


def _on_retry(sender: Any = None, request: Any = None, reason: Any = None, **_: Any) -> None:
    name = _task_name(sender)
    task_id = getattr(request, "id", None)
    task_logger.warning(
        "task %s[%s] will be retried: %s",
        name,
        task_id,
        reason,
        extra={"task_name": name, "task_id": task_id, "error": str(reason)},
    )


def _keep_django_logging(loglevel: int | str | None = None, **_: Any) -> None:
    """Celery's ``setup_logging``: having a receiver keeps Celery from installing its own
    handlers, so a worker logs through the site's ``LOGGING`` (text at the ``-l`` level when
    the settings have none)."""
    from django.conf import settings  # noqa: PLC0415 (settings are loaded by now)

    config = getattr(settings, "LOGGING", None)
    if not config:
        level = logging.getLevelName(loglevel) if isinstance(loglevel, int) else loglevel
        config = logging_config(level=str(level or "INFO"), json=False)
    logging.config.dictConfig(config)


#: Celery's signals this module listens to, with their receivers.
_RECEIVERS = (
    ("before_task_publish", _on_publish),
    ("task_prerun", _on_prerun),
    ("task_postrun", _on_postrun),
    ("task_failure", _on_failure),
    ("task_retry", _on_retry),
    ("setup_logging", _keep_django_logging),
)


@contextmanager
def tasks_logged_at_debug() -> Iterator[None]:
    """Within it, the start and end lines of the tasks run (in-process, as ``make run``'s demo
    seeding runs hundreds) are logged at DEBUG: failures and retries stay as loud as ever."""
    token = _task_level.set(logging.DEBUG)
    try:
        yield
    finally:
        _task_level.reset(token)


def connect_task_logging() -> None:
    """Log Celery tasks (start, end, retry, failure) and keep the site's logging in workers;
    call once, from ``nardy_site/celery.py`` (calling again does nothing)."""
    global _connected
    from celery import signals  # noqa: PLC0415 (the site imports this module without Celery)

    if _connected:
        return
    for name, receiver in _RECEIVERS:
        getattr(signals, name).connect(receiver, weak=False, dispatch_uid=f"nardy-logs-{name}")
    _connected = True


def disconnect_task_logging() -> None:
    """Undo ``connect_task_logging`` (for tests)."""
    global _connected
    from celery import signals  # noqa: PLC0415

    for name, _receiver in _RECEIVERS:
        getattr(signals, name).disconnect(dispatch_uid=f"nardy-logs-{name}")
    _connected = False

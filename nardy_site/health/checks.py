"""State of the services the site depends on: "ok", or a short error naming what failed."""

import logging

from django.conf import settings
from django.db import DatabaseError, connections
from kombu import Connection

logger = logging.getLogger(__name__)

BROKER_CONNECT_TIMEOUT_SECONDS = 2


def _error(what: str, exc: Exception) -> str:
    # The details (hosts, ports) go to the log, not to an unauthenticated endpoint.
    logger.warning("%s check failed", what, exc_info=exc)
    return f"error: {type(exc).__name__}"


def database_status() -> str:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return _error("database", exc)
    return "ok"


def broker_status() -> str:
    """Whether the broker answers; "eager" when none is configured (tasks run in-process)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with Connection(
            settings.CELERY_BROKER_URL, connect_timeout=BROKER_CONNECT_TIMEOUT_SECONDS
        ) as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, timeout=BROKER_CONNECT_TIMEOUT_SECONDS
            )
    except Exception as exc:  # kombu raises transport-specific errors; any of them means down.
        return _error("broker", exc)
    return "ok"


def analysis_status() -> str:
    """Match analysis: "available" (gnubg is there), "not installed" or "off" (``ANALYSIS``)."""
    from django.conf import settings  # noqa: PLC0415

    from games.analysis.runner import gnubg_path  # noqa: PLC0415

    if settings.ANALYSIS == "off":
        return "off"
    return "available" if gnubg_path() is not None else "not installed"

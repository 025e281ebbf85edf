"""How the tournament app sends work to Celery: ``enqueue`` after the transaction commits, and
the retry policy its tasks share (``RETRY``).

Each task takes ids (or an order key), is safe to run twice, and retries with back-off when the
database is briefly unavailable; ``acks_late`` (the project default, set again here) means a task
lost with its worker is delivered again (by Redis after the broker's visibility timeout, see
``nardy_site/celery.py``).

Results are enqueued with ``enqueue``: a broker that is down when the result commits costs a
warning in the log, never the request; the result stays recorded and its ratings pending until
``ratings_catch_up`` (run by Celery beat) finds and rates them.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from celery import Task
from django.db import InterfaceError, OperationalError, transaction
from kombu.exceptions import KombuError

logger = logging.getLogger(__name__)

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
    "acks_late": True,
    # Nobody reads a rating task's return value (the ledger is the result): not storing it also
    # keeps the web process away from the result backend when it enqueues.
    "ignore_result": True,
}

#: One try, connecting included (kombu also applies the policy to the connection): a broker that
#: is down fails at once, one that hangs after the socket timeout of ``nardy_site/celery.py``;
#: retries would multiply that wait. A pooled connection that the broker closed (it restarted)
#: is reconnected by redis-py itself. Without a policy, connecting alone retries for seconds.
PUBLISH_RETRY_POLICY = {"max_retries": 0}


def enqueue(task: Task, *args: Any) -> None:
    """Send ``task(*args)`` once the current transaction commits (at once outside one).

    When the broker cannot take the message, the error is logged as a warning and the caller's
    work stands: the ratings stay pending (the site says so) until ``ratings_catch_up`` rates
    them. In eager mode (no broker) the task runs in-process and its errors propagate, as with
    ``delay_on_commit``.
    """
    transaction.on_commit(functools.partial(_publish, task, args))


def _publish(task: Task, args: tuple[Any, ...]) -> None:
    if task.app.conf.task_always_eager:
        task.apply_async(args)
        return
    try:
        task.apply_async(args, retry=True, retry_policy=PUBLISH_RETRY_POLICY)
    except _broker_errors(task) as error:
        logger.warning(
            "%s%r may not be enqueued, the broker failed (%s: %s); "
            "ratings_catch_up will rate what is missing once the broker is back "
            "(analyses_catch_up will queue a lost analysis again)",
            task.name,
            args,
            type(error).__name__,
            error,
        )


def _broker_errors(task: Task) -> tuple[type[BaseException], ...]:
    """The errors of a broker that is down or hangs: kombu's own (a lost connection is raised as
    ``kombu.exceptions.OperationalError``) and the transport's (redis-py's), socket errors."""
    with task.app.connection_for_write() as connection:  # never connected: only its classes
        return (KombuError, OSError, *connection.connection_errors, *connection.channel_errors)

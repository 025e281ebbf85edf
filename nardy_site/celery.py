"""The Celery application. Its settings are the Django settings prefixed with ``CELERY_``, plus
the broker's fault settings and the beat schedule below, read from the environment:

- ``CELERY_VISIBILITY_TIMEOUT`` (seconds, default 3600): with Redis, a task taken by a worker
  that dies before acknowledging it (``acks_late``) is delivered again once this long has passed.
  It must exceed the longest task (a full rating replay), or a running task is delivered twice.
- ``CELERY_BROKER_SOCKET_TIMEOUT`` (seconds, default 5): how long one talk with the broker may
  block (connecting, publishing), so that a Redis that hangs delays a request, never stops it.
- ``RATINGS_CATCH_UP_SECONDS`` (default 60): how often ``celery -A nardy_site beat`` sends
  ``tournaments.ratings.tasks.ratings_catch_up``, which rates the results whose rating task was
  lost (the broker was down when they were recorded).
- ``ANALYSES_CATCH_UP_SECONDS`` (default 300): how often beat sends
  ``tournaments.analysis.tasks.analyses_catch_up``, which queues again the analyses whose task
  was lost (queued or running longer than ``ANALYSIS_TIMEOUT`` + 120 s).

A ``CELERY_BROKER_TRANSPORT_OPTIONS`` or ``CELERY_BEAT_SCHEDULE`` in the Django settings adds to
these and wins where both give a value.
"""

import os
from typing import Any

from celery import Celery

from nardy_site.env import env_int
from nardy_site.logs import connect_task_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")

VISIBILITY_TIMEOUT_SECONDS = env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1)
BROKER_SOCKET_TIMEOUT_SECONDS = env_int("CELERY_BROKER_SOCKET_TIMEOUT", 5, minimum=1, maximum=300)
RATINGS_CATCH_UP_SECONDS = env_int("RATINGS_CATCH_UP_SECONDS", 60, minimum=1)
ANALYSES_CATCH_UP_SECONDS = env_int("ANALYSES_CATCH_UP_SECONDS", 300, minimum=1)

BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": VISIBILITY_TIMEOUT_SECONDS,
    "socket_timeout": BROKER_SOCKET_TIMEOUT_SECONDS,
    "socket_connect_timeout": BROKER_SOCKET_TIMEOUT_SECONDS,
}
BEAT_SCHEDULE = {
    "ratings-catch-up": {
        "task": "tournaments.ratings.tasks.ratings_catch_up",
        "schedule": RATINGS_CATCH_UP_SECONDS,
        # Sent while no worker runs, the older ones expire: the newest one does all the work.
        "options": {"expires": RATINGS_CATCH_UP_SECONDS},
    },
    "analyses-catch-up": {
        "task": "tournaments.analysis.tasks.analyses_catch_up",
        "schedule": ANALYSES_CATCH_UP_SECONDS,
        "options": {"expires": ANALYSES_CATCH_UP_SECONDS},
    },
}


def _fault_settings() -> dict[str, Any]:
    """Merged under the Django settings' own values when the configuration is first read."""
    from django.conf import settings  # noqa: PLC0415 (read lazily, as Celery reads settings)

    return {
        "broker_transport_options": {
            **BROKER_TRANSPORT_OPTIONS,
            **getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}),
        },
        "beat_schedule": {**BEAT_SCHEDULE, **getattr(settings, "CELERY_BEAT_SCHEDULE", {})},
    }


# DjangoTask adds delay_on_commit(): tasks are enqueued only once the transaction commits.
app = Celery("nardy_site", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.add_defaults(_fault_settings)
app.autodiscover_tasks()
# A package with tasks of its own that is not an app (``autodiscover_tasks`` looks in apps only).
app.autodiscover_tasks(["tournaments.matches"])
connect_task_logging()

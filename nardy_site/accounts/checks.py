"""Deployment checks of the accounts app (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

PROCESS_LOCAL_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


@register(Tags.security, deploy=True)
def check_shared_cache(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """The login rate limits count in the default cache: a per-process one lets each gunicorn
    worker count alone, multiplying the allowed attempts by the number of workers."""
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend not in PROCESS_LOCAL_CACHES:
        return []
    return [
        Warning(
            "The default cache is local to each process, so the login rate limits and the "
            "limits on corrections, uploads and analyses are counted per worker.",
            hint="Set CACHE_URL to a shared Redis, e.g. redis://redis.internal:6379/2.",
            id="accounts.W001",
        )
    ]

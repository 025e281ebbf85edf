"""Failed-login counting: after ``LOGIN_FAILURES_PER_USERNAME`` failures for one username, or
``LOGIN_FAILURES_PER_IP`` from one client address, within ``LOGIN_FAILURE_WINDOW_SECONDS``, the
next attempts are refused without checking the password until the window ends. A successful
login clears its username's count (not its address's: one address may try many usernames).

The counts live in Django's default cache, so every worker process sees the same ones when the
cache is shared (``CACHE_URL``). Each window is fixed: it starts with the first failure and ends
that many seconds later, whatever happens in it. When the cache is unreachable the limits are
not applied (and the error is logged): logging in matters more than the throttle.

Every password check made for a request is counted (``backends.RateLimitedModelBackend``): the
site's login page, the admin's, and a token made with a username and password (``api.py``), so
they share one count. A refusal is ``TooManyFailures``.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from nardy_site.errors import UserError

log = logging.getLogger(__name__)

PREFIX = "login-failures"


class TooManyFailures(UserError):
    """Too many failed logins for the username or from the client's address: 429, the password
    not checked; ``retry_after`` seconds until the window ends (``wait_seconds``)."""

    status = 429
    code = "throttled"

    def __init__(self, wait: int) -> None:
        message = _(
            "Too many failed logins for this account or from this network. The password was "
            "not checked: try again in %(minutes)s min."
        ) % {"minutes": math.ceil(wait / 60)}
        super().__init__(message, {"limit": "logins", "retry_after": wait})
        self.retry_after = wait


def client_ip(request: Any) -> str:
    """The client's address: ``REMOTE_ADDR``, or, behind the trusted proxy
    (``DJANGO_BEHIND_TLS_PROXY``), the X-Forwarded-For entry that the outermost trusted proxy
    appended (``DJANGO_TRUSTED_PROXY_COUNT`` places from the right). Entries further left are
    whatever the client sent and would let it pick a new address for every attempt."""
    meta = getattr(request, "META", {})
    remote = meta.get("REMOTE_ADDR", "") or "unknown"
    if not getattr(settings, "BEHIND_TLS_PROXY", False):
        return remote
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if not hops:
        return remote
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 1)
    candidate = hops[-count] if len(hops) >= count else hops[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def _username_key(username: str) -> str:
    # Hashed: usernames may hold characters a cache key may not; case-folded so that "Anna" and
    # "anna" share one count.
    digest = hashlib.sha256(username.casefold().encode()).hexdigest()
    return f"{PREFIX}:user:{digest}"


def _ip_key(ip: str) -> str:
    return f"{PREFIX}:ip:{hashlib.sha256(ip.encode()).hexdigest()}"


def _keys(request: Any, username: str | None) -> list[tuple[str, int]]:
    """The counters that apply, each with its limit."""
    keys = [(_ip_key(client_ip(request)), settings.LOGIN_FAILURES_PER_IP)]
    if username:
        keys.append((_username_key(username), settings.LOGIN_FAILURES_PER_USERNAME))
    return keys


def wait_seconds(request: Any, username: str | None) -> int:
    """0 when a login may be tried now, else the seconds until it may (for Retry-After)."""
    try:
        keys = _keys(request, username)
        counts = cache.get_many([key for key, _ in keys])
        wait = 0
        for key, limit in keys:
            if counts.get(key, 0) >= limit:
                until = cache.get(f"{key}:until")
                remaining = (
                    settings.LOGIN_FAILURE_WINDOW_SECONDS if until is None else until - time.time()
                )
                wait = max(wait, math.ceil(remaining), 1)
        return wait
    except Exception:  # the cache is down: let logins through, loudly in the log
        log.exception("login rate limit: the cache is unreachable; not applying the limit")
        return 0


def record_failure(request: Any, username: str | None) -> None:
    """Count a failed login for the username and the client address."""
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    try:
        for key, _limit in _keys(request, username):
            # The first failure opens the window: both keys expire when it ends.
            if cache.add(key, 1, timeout=window):
                cache.set(f"{key}:until", time.time() + window, timeout=window)
                continue
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr(): a new window
                cache.set(key, 1, timeout=window)
                cache.set(f"{key}:until", time.time() + window, timeout=window)
    except Exception:
        log.exception("login rate limit: the cache is unreachable; the failure is not counted")


def record_success(request: Any, username: str | None) -> None:
    """A successful login clears its username's failures."""
    if not username:
        return
    key = _username_key(username)
    try:
        cache.delete_many([key, f"{key}:until"])
    except Exception:
        log.exception("login rate limit: the cache is unreachable; the count is not cleared")

"""Rate limits on the writes that cost the most, per user and per tournament, counted by
django-ratelimit in Django's default cache (the cache the login limits use).

Three kinds, each with a rate per user and a rate per tournament (settings, read from the
environment; "5/m", "60/10m", "240/h"):

- ``CORRECTIONS``: a correction of a decided result (``matches/<id>/correct``, the correct page);
- ``UPLOADS``: a write that carries a record, games or a .mat (a result, a resolution or a
  correction with one; ``records/validate``, which has no tournament);
- ``DRAWINGS``: a public page drawn for one request alone (a search: ``page_cache``'s
  ``fresh`` parameters), per user or client address only;
- ``ANALYSES``: a record stored for a match, which queues its analysis (gnubg's for Short
  Nardy, the project's engine's for Long Nardy), and a recording's decided result taken back
  at the table, after which the match may be decided again with another record.

A write is counted once against each limit of its kinds, the user's first: a user over their own
limit is refused without counting against the tournament, so one user cannot use up a
tournament's allowance for everyone else. A refusal is ``Throttled`` (429, code ``throttled``)
with ``retry_after``, the seconds until the window that refused it ends, and is raised before
the service runs: nothing is changed. The API answers it in its error shape with Retry-After
(``nardy_site.api_errors``), the site's pages show its message under 429 with Retry-After.

Windows are fixed (django-ratelimit aligns them on the clock, with a jitter per key). When the
cache fails, the write goes through and the failure is logged: recording results matters more
than the throttle, as logging in does.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from nardy_site.accounts.ratelimit import client_ip
from nardy_site.errors import UserError

log = logging.getLogger(__name__)

CORRECTIONS = "corrections"
UPLOADS = "uploads"
ANALYSES = "analyses"
DRAWINGS = "drawings"

#: The settings of each kind's rates: (per user, per tournament; None: none).
RATES: dict[str, tuple[str, str | None]] = {
    CORRECTIONS: ("CORRECTIONS_PER_USER", "CORRECTIONS_PER_TOURNAMENT"),
    UPLOADS: ("UPLOADS_PER_USER", "UPLOADS_PER_TOURNAMENT"),
    ANALYSES: ("ANALYSES_PER_USER", "ANALYSES_PER_TOURNAMENT"),
    DRAWINGS: ("DRAWINGS_PER_CLIENT", None),
}


class Throttled(UserError):
    """Too many writes of a kind in the window: 429, try again in ``retry_after`` seconds."""

    status = 429
    code = "throttled"

    def __init__(self, kind: str, scope: str, retry_after: int) -> None:
        minutes = math.ceil(retry_after / 60)
        message = {
            CORRECTIONS: _(
                "Too many corrections in a short time: nothing was changed. Try again in "
                "%(minutes)s min."
            ),
            UPLOADS: _(
                "Too many match records sent in a short time: nothing was changed. Try again in "
                "%(minutes)s min."
            ),
            ANALYSES: _(
                "Too many matches sent for analysis in a short time: nothing was changed. Try "
                "again in %(minutes)s min."
            ),
            DRAWINGS: _("Too many searches in a short time. Try again in %(minutes)s min."),
        }[kind] % {"minutes": minutes}
        super().__init__(message)
        self.retry_after = retry_after
        self.details = {"limit": kind, "per": scope, "retry_after": retry_after}


def result_kinds(*, correction: bool, record: bool) -> list[str]:
    """The kinds of a result write: a correction or not, carrying a record (which both games'
    engines analyse) or not."""
    kinds = [CORRECTIONS] if correction else []
    if record:
        kinds += [UPLOADS, ANALYSES]
    return kinds


def check(request: Any, *, kinds: Iterable[str], tournament_id: int | None = None) -> None:
    """Count this write against each limit of its ``kinds``, the user's (or, for nobody signed
    in, the client address's) then the tournament's; raise ``Throttled`` at the first scope
    over a limit, with the longest wait among its kinds."""
    kinds = list(kinds)
    user = getattr(request, "user", None)
    who = f"user:{user.pk}" if user is not None and user.is_authenticated else None
    scopes = [("user", who or f"ip:{client_ip(request)}", 0)]
    if tournament_id is not None:
        scopes.append(("tournament", f"tournament:{tournament_id}", 1))
    for scope, key, which in scopes:
        waits = [
            (wait, kind)
            for kind in kinds
            if (setting := RATES[kind][which]) is not None
            and (wait := _over(request, kind, scope, key, getattr(settings, setting)))
        ]
        if waits:
            wait, kind = max(waits)
            raise Throttled(kind, scope, wait)


def refused_page(response: HttpResponse, error: Throttled) -> HttpResponse:
    """A page showing ``error`` (status 429) with its Retry-After."""
    response["Retry-After"] = str(error.retry_after)
    return response


def _over(request: Any, kind: str, scope: str, key: str, rate: str) -> int:
    """Count one write; 0 when it is within the rate, else the seconds until the next window
    (``time_left`` is 0 in the window's last second)."""
    try:
        usage = get_usage(
            request,
            group=f"nardy.{kind}.{scope}",
            key=lambda _group, _request: key,
            rate=rate,
            increment=True,
        )
    except Exception:  # the cache failed in a way it does not turn into a miss: let it through
        log.exception("rate limit %s per %s: the cache is unreachable; not applied", kind, scope)
        return 0
    if usage is None or not usage["should_limit"]:
        return 0
    return max(int(usage["time_left"]), 0) + 1

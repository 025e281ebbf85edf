"""The recorder page of a match (``/m/<id>/record/``): a phone board next to the real one. The
page only draws and sends: every entry goes through the live API
(``tournaments.api.live``) and the engine decides what may be entered.

With no network the page goes on by itself: its service worker (``recorder-sw.js``) keeps the
page and its files, and the engine runs in the page (``offline-code``: the Python of
``tournaments.matches.live.board`` for Pyodide) until the phone can sync."""

from __future__ import annotations

import functools
import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import json_script
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.matches.live import offline
from tournaments.matches.live.drafts import side_name
from tournaments.matches.live.models import SetAside
from tournaments.matches.live.state import live_state
from tournaments.models import Match
from tournaments.policy import may
from tournaments.web.common import match_of


@login_required
def match_record_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_of(request, pk)
    context = {"tournament": match.tournament, "match": match}
    if not may(request.user, "match.record", match):
        return render(request, "live/record_refused.html", context, status=403)
    state = live_state(match_id=match.pk)
    return render(
        request,
        "live/record.html",
        {
            **context,
            "state": json_script(state, "live-state"),
            # who judges the recording (clocks, undo back, late take-backs): an official event's
            # judges, another's organizers
            "organizer": may(request.user, "clock.set", match),
            # The values a resignation may concede: oyn, mars (and koks where the rules have it).
            "resign_values": range(1, state["max_value"] + 1),
            "undo_window": settings.LIVE_UNDO_WINDOW_SECONDS,
            "offline_code": _code_url(),
            "plural_samples": (("one", 1), ("few", 2), ("many", 5)),
        },
    )


# --- Recording offline ------------------------------------------------------------------------

#: The static files the recorder needs with no network, which its service worker keeps: the
#: page's own, and Pyodide's (which run the rules engine while the phone is offline).
RECORDER_FILES = (
    "nardy/site.css",
    "nardy/live.css",
    "nardy/site.js",
    "nardy/board.js",
    "nardy/clocks.js",
    "nardy/recorder.js",
    "nardy/offline.js",
    "nardy/offline-worker.js",
    "nardy/favicon.svg",
    "nardy/icon-192.png",
    "nardy/icon-512.png",
)
PYODIDE_FILES = tuple(
    f"vendor/pyodide/{name}"
    for name in (
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    )
)


@functools.cache
def _revision(name: str) -> str:
    """The digest of a static file's content: the service worker fetches it again when the
    file changes, also where its URL carries no hash (development, Pyodide's own names)."""
    found = finders.find(name)
    path = found if isinstance(found, str) else None
    if path is None and settings.STATIC_ROOT:
        path = str(Path(settings.STATIC_ROOT) / name)
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16] if path else ""


def _precache() -> list[dict[str, str | None]]:
    own = [{"url": static(name), "revision": _revision(name)} for name in RECORDER_FILES]
    # Pyodide asks for its files by their own names (never hashed by the static storage).
    pyodide = [
        {"url": settings.STATIC_URL + name, "revision": _revision(name)} for name in PYODIDE_FILES
    ]
    return [*own, *pyodide, {"url": _code_url(), "revision": None}]


def _code_url() -> str:
    return reverse("offline-code", args=[offline.bundle().digest])


@require_safe
def offline_code(request: HttpRequest, digest: str) -> HttpResponse:
    """The Python of the recorder's board, as one zip for the page's Pyodide (``offline``);
    its URL names its version, so it is kept for a year."""
    bundle = offline.bundle()
    if digest != bundle.digest:
        return redirect(_code_url())
    response = HttpResponse(bundle.data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_safe
def recorder_service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that lets the recorder come back with no network
    (``templates/live/service_worker.js``). Served from the root, so it may keep the pages of
    ``/m/<id>/record/``; never cached by the browser's HTTP cache, so a new one is found."""
    workbox = settings.STATIC_URL + "vendor/workbox/"  # its own names: workbox-sw asks for them
    context = {"precache_json": json.dumps(_precache()), "workbox": workbox}
    response = render(request, "live/service_worker.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def web_manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: a player puts the recorder on the phone's home screen."""
    manifest = {
        "name": _("Nardy recorder"),
        "short_name": _("Nardy"),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f5f3f",
        "icons": [
            {"src": static("nardy/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("nardy/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("nardy/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(manifest, content_type="application/manifest+json")


def set_aside_for(user: Any, match: Match) -> list[dict[str, Any]]:
    """The entries phones handed to the judge for this match (``live.SetAside``), each in
    words, for who decides for its tournament (its judges, else its organizers); else none."""
    if not user.is_authenticated or not may(user, "recording.judge", match):
        return []
    rows = SetAside.objects.filter(match=match).select_related("handed_by")
    names = (side_name(match, "home"), side_name(match, "away"))
    return [
        {
            "ply": aside.ply,
            "reason": aside.reason,
            "by": aside.handed_by,
            "at": aside.handed_at,
            "entries": [
                {
                    "ply": aside.ply + index + 1,
                    "said": entry_in_words(entry.get("action"), names),
                    "at": _time(entry.get("at")),
                }
                for index, entry in enumerate(aside.entries)
            ],
        }
        for aside in rows
    ]


def _time(text: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return None


def entry_in_words(action: Any, names: tuple[str, str]) -> str:
    """A recorded entry (``recording``'s JSON) as the judge reads it; ``names``: home, away."""
    if not isinstance(action, dict):
        return str(action)
    if "play" in action:
        return f"{action.get('dice', '')}: {action['play'] or _('no move')}"
    if "dice" in action:
        return _("rolled %(dice)s") % {"dice": action["dice"]}
    if "first" in action:
        player = names[0] if action["first"] == 1 else names[1]
        return _("%(name)s moves first") % {"name": player}
    if "opening" in action and isinstance(action["opening"], dict):
        return _("opening throw %(white)s–%(black)s") % {
            "white": action["opening"].get("white"),
            "black": action["opening"].get("black"),
        }
    for key, said in (
        ("double", _("dave offered")),
        ("take", _("dave taken")),
        ("drop", _("dave dropped")),
    ):
        if key in action:
            return said
    if "resign" in action:
        side = _("White") if action["resign"] == "white" else _("Black")
        return _("%(side)s resigns (%(value)s)") % {"side": side, "value": action.get("value")}
    if "flag" in action:
        name = names[0] if action["flag"] == "home" else names[1]
        return _("%(name)s’s flag fell") % {"name": name}
    return json.dumps(action, ensure_ascii=False)

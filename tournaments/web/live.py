"""The recorder page of a match (``/m/<id>/record/``): a phone board next to the real one. The
page only draws and sends: every entry goes through the live API
(``tournaments.api.live``) and the engine decides what may be entered."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import json_script

from tournaments.matches.live.state import live_state
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
        },
    )

"""The organizer's inbox page (``/me/inbox/``), and its count for the menu of every page.

The count is the reader's own: the menu draws it in ``partials/own_nav.html``, which a shared
page draws for each signed-in reader apart from the shared copy (``nardy_site.page_cache``), and
the tournament pages' header only for an organizer, who is never served a shared copy of them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.inbox.selectors import Kind, decisions_among, inbox_count, inbox_items
from tournaments.models import Tournament
from tournaments.policy import judge_role, may

_COUNT = "_inbox_count"


@login_required
def inbox_page(request: HttpRequest) -> HttpResponse:
    """What waits for the organizer, by kind, each with its decision one tap away;
    ``?tournament=<slug>``: that tournament's only (a 404 unless they may run it: a draft's
    name is its organizers' alone)."""
    slug = request.GET.get("tournament", "")
    tournament = Tournament.objects.filter(slug=slug).first() if slug else None
    if slug and (tournament is None or not _runs_or_judges(request, tournament)):
        raise Http404(_("No such tournament of yours."))
    items = inbox_items(user=request.user, tournament=tournament)
    groups = [(kind, [item for item in items if item.kind is kind]) for kind in Kind]
    return render(
        request,
        "tournaments/inbox.html",
        {
            "groups": [(kind, rows) for kind, rows in groups if rows],
            "waiting": decisions_among(items),
            "tournament": tournament,
        },
    )


def _runs_or_judges(request: HttpRequest, tournament: Tournament) -> bool:
    """An organizer of the tournament, or a judge of it (an official event)."""
    user = request.user
    return may(user, "tournament.run", tournament) or judge_role(tournament, user) is not None


def inbox(request: HttpRequest) -> dict[str, Any]:
    """The context processor: ``inbox_count``, the signed-in reader's count of what waits for
    their decision, read only when a template asks for it and once per request and user (a
    shared copy is drawn with the request's user set aside: ``page_cache._anonymous``)."""

    def count() -> int:
        user = request.user
        if not user.is_authenticated:
            return 0
        counted: dict[int, int] = request.__dict__.setdefault(_COUNT, {})
        if user.pk not in counted:
            counted[user.pk] = inbox_count(user=user)
        return counted[user.pk]

    return {"inbox_count": count}

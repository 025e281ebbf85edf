"""What every page view shares: finding what the URL names, and showing a service's refusal."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from nardy_site.joined import Join, Table
from tournaments.clubs.models import Club
from tournaments.errors import TournamentError
from tournaments.inbox.selectors import inbox_count
from tournaments.matches.rows import WITH_PLAYERS, match_with_players
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.policy import RULES, may
from tournaments.ratings import selectors as rating_selectors

T = TypeVar("T")
View = TypeVar("View", bound=Callable[..., HttpResponse])


def posts(field: str, *values: str) -> Callable[[View], View]:
    """Declare what a page's posts do: the ``field`` of its forms (or the part of its address)
    that names one of ``values``. The permission matrix (tests/security/
    test_permission_matrix.py) tries each value as every persona, and a value not declared is
    refused with nothing changed."""

    def declared(view: View) -> View:
        view.posts = (field, values)  # type: ignore[attr-defined]
        return view

    return declared


def tournament_of(request: HttpRequest, slug: str) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("organizer", "club", "season", "parent"), slug=slug
    )


def has_bracket(tournament: Tournament) -> bool:
    """Elimination formats have a bracket; round robins and Swiss have rounds and standings."""
    return tournament.format not in Tournament.ROUND_FORMATS


def tournament_header(request: HttpRequest, tournament: Tournament, tab: str) -> dict[str, Any]:
    """What the tournament pages' header and tabs need, and the revisions their cached parts
    are keyed on (the tournament's and its rating list's)."""
    organizer = may(request.user, "tournament.run", tournament)
    return {
        "tournament": tournament,
        "tab": tab,
        "has_bracket": has_bracket(tournament),
        "organizer": organizer,
        # The organizer's own count: a shared copy is drawn as for an anonymous visitor (None).
        "tournament_inbox": (
            inbox_count(user=request.user, tournament=tournament) if organizer else None
        ),
        "ratings_revision": rating_selectors.rating_list_revision(
            system=tournament.rating_system, discipline=tournament.discipline
        ),
    }


def cached_part(compute: Callable[[], T]) -> Callable[[], T]:
    """A page part computed only when a template first asks for it: inside a ``{% cache %}``
    block keyed by the revisions, that is only when the cached HTML is missing."""
    return functools.cache(compute)


def match_of(request: HttpRequest, pk: int) -> Match:
    """The match with its tournament, round and players (404: no such match)."""
    match = _MATCH_WITH_PLAYERS.one([pk])
    if match is None:
        raise Http404(_("No such match."))
    return match  # type: ignore[return-value]


#: ``Match.objects.select_related("tournament", "round", "home__player", "away__player",
#: "winner__player")``, compiled once (``joined``): every match page and form reads it first.
_MATCH_WITH_PLAYERS = Join(
    f"""SELECT {{columns}} FROM tournaments_match m
    {WITH_PLAYERS}
    LEFT JOIN tournaments_round r ON r.id = m.round_id
    LEFT JOIN tournaments_entry we ON we.id = m.winner_id
    LEFT JOIN tournaments_player wp ON wp.id = we.player_id
    WHERE m.id = %s""",
    (
        *match_with_players(),
        Table(Round, "r", into=("m", "round")),
        Table(Entry, "we", into=("m", "winner")),
        Table(Player, "wp", into=("we", "player")),
    ),
)


def posted_next(request: HttpRequest) -> str | None:
    """The page of this site a form asks to come back to after its post (``next``: the inbox
    it was sent from), or None: absent, or elsewhere."""
    return safe_next(request, request.POST.get("next", ""))


def safe_next(request: HttpRequest, given: str) -> str | None:
    """``given`` when it is a page of this site to go back to, else None (absent, or elsewhere:
    an open redirect refused)."""
    safe = url_has_allowed_host_and_scheme(
        given, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return given if given and safe else None


def refused(
    request: HttpRequest, template: str, context: dict[str, Any], error: TournamentError
) -> HttpResponse:
    """The page again with the service's message, under the error's 4xx status: nothing was
    changed, and the form keeps what the user typed."""
    return render(request, template, {**context, "error": error}, status=error.status)


def require_runs_to_view(request: HttpRequest, club: Club) -> None:
    """The club's forms (and its seasons') are for those who run it: others get a 403 before
    any form is read."""
    if not may(request.user, "club.edit", club):
        raise PermissionDenied(RULES["club.edit"].refusal)

"""The sign-up page of a tournament (``/t/<slug>/signup/``): its public link. Anyone sees who is
in, who waits and when the check-in opens; a signed-in player signs up, withdraws and checks in
there; the organizers approve, decline and check players in on the same page. Each post calls
one service; a refusal is shown on the page under its 4xx status, with nothing changed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import InvalidInput, TournamentError
from tournaments.models import Entry, Player, Tournament
from tournaments.signups import selectors, services
from tournaments.signups.models import SignUp
from tournaments.web.common import posted_next, posts, refused, tournament_header, tournament_of

TEMPLATE = "signups/signup.html"


@posts(
    "action", "signup", "partner-accept", "partner-decline", "withdraw", "approve", "decline",
    "check-in", "check-in-undo",
)  # fmt: skip
def signup_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_of(request, slug)
    if request.method != "POST":
        return render(request, TEMPLATE, _context(request, tournament))
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    action = request.POST.get("action", "")
    try:
        message = _act(request, tournament, action)
    except TournamentError as error:
        return refused(request, TEMPLATE, _context(request, tournament), error)
    messages.success(request, message)
    return redirect(posted_next(request) or reverse("tournament-signup", args=[tournament.slug]))


def _act(request: HttpRequest, tournament: Tournament, action: str) -> str:
    by = request.user
    if action == "signup":
        signup = services.signup_request(
            tournament=tournament,
            by=by,
            display_name=request.POST.get("display_name", ""),
            gender=request.POST.get("gender", ""),
            birth_year=_birth_year(request.POST.get("birth_year", "")),
            partner=request.POST.get("partner", ""),
            pair_name=request.POST.get("pair_name", ""),
        )
        return {
            SignUp.State.PARTNER: _("Signed up: your partner confirms it on this page."),
            SignUp.State.ENTERED: _("You are in."),
            SignUp.State.WAITING: _("The places are taken: you are on the waiting list."),
            SignUp.State.PENDING: _("Signed up: an organizer will approve it."),
        }[signup.state]
    if action in ("partner-accept", "partner-decline"):
        signup = _signup(tournament, request.POST.get("signup", ""))
        accept = action == "partner-accept"
        done = services.signup_partner_answer(signup=signup, by=by, accept=accept)
        if not accept:
            return _("You declined to play in this pair.")
        return _("%(player)s: %(state)s.") % {
            "player": done.player.display_name,
            "state": done.get_state_display(),
        }
    if action in ("withdraw", "approve", "decline"):
        signup = _signup(tournament, request.POST.get("signup", ""))
        if action == "withdraw":
            services.signup_withdraw(signup=signup, by=by)
            return _("The sign-up is withdrawn.")
        if action == "approve":
            done = services.signup_approve(signup=signup, by=by)
            return _("%(player)s: %(state)s.") % {
                "player": done.player.display_name,
                "state": done.get_state_display(),
            }
        services.signup_decline(signup=signup, by=by)
        return _("%(player)s is declined.") % {"player": signup.player.display_name}
    if action in ("check-in", "check-in-undo"):
        entry = _entry(tournament, request.POST.get("entry", ""))
        services.entry_check_in(entry=entry, by=by, present=action == "check-in")
        if action == "check-in-undo":
            return _("%(player)s is no longer checked in.") % {"player": entry.player}
        return _("%(player)s is checked in.") % {"player": entry.player}
    raise InvalidInput(_("Unknown action: nothing was changed."))


def _birth_year(given: str) -> int | None:
    given = given.strip()
    if not given:
        return None
    if not given.isdigit() or len(given) != 4:
        raise InvalidInput(_("A birth year is a year of four digits, such as 1990."))
    return int(given)


def _signup(tournament: Tournament, given: str) -> SignUp:
    signups = tournament.signups.select_related("player")
    found = signups.filter(pk=int(given)).first() if given.isdigit() else None
    if found is None:
        raise InvalidInput(_("There is no such sign-up in this tournament."))
    return found


def _entry(tournament: Tournament, given: str) -> Entry:
    entries = tournament.entries.select_related("player")
    found = entries.filter(pk=int(given)).first() if given.isdigit() else None
    if found is None:
        raise InvalidInput(_("There is no such entrant in this tournament."))
    return found


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    opens = tournament.checkin_opens_at()
    return {
        **tournament_header(request, tournament, "signup"),
        "lists": selectors.signup_lists(tournament=tournament),
        "genders": Player.Gender.choices,
        "age_year": tournament.age_year(),
        "mine": selectors.mine(tournament=tournament, user=request.user),
        "open": tournament.takes_signups,
        "checkin_opens_at": opens,
        "checkin_open": opens is not None
        and opens <= timezone.now()
        and tournament.status == Tournament.Status.REGISTRATION,
    }

"""Result pages: report, confirm or dispute, resolve, correct. The services decide who may do
what; a refusal shows the page again with the reason, under a 4xx, and changes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from nardy_site import throttle
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.matches import results
from tournaments.models import Match
from tournaments.policy import may
from tournaments.ratings import selectors as rating_selectors
from tournaments.web.common import match_of, posted_next, posts, refused, tournament_of
from tournaments.web.public import match_actions, match_context
from tournaments.web.result_forms import ResultForm

RESULT_TEMPLATE = "tournaments/result_form.html"


@login_required
def match_report_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of the match or an organizer gives its result."""
    return _result_page(
        request,
        match_of(request, pk),
        purpose="report",
        service=lambda match, **given: results.match_result_record(
            match=match, by=request.user, **given
        ),
        done=_("The result is recorded."),
    )


@login_required
def match_resolve_page(request: HttpRequest, pk: int) -> HttpResponse:
    """An organizer settles a reported or disputed result: as reported, or with a new one."""
    match = match_of(request, pk)
    if request.method == "POST" and request.POST.get("accept") == "reported":
        try:
            results.match_result_resolve(match=match, by=request.user)
        except TournamentError as error:
            return refused(request, RESULT_TEMPLATE, _form_context(match, "resolve", None), error)
        messages.success(request, _("The reported result is final."))
        return redirect("match", pk=match.pk)
    return _result_page(
        request,
        match,
        purpose="resolve",
        service=lambda match, **given: results.match_result_resolve(
            match=match, by=request.user, **given
        ),
        done=_("The result is final."),
    )


@login_required
def match_correct_page(request: HttpRequest, pk: int) -> HttpResponse:
    """An organizer replaces a decided result, warned first of the later matches it may reset."""

    def correct(match: Match, **given: Any) -> None:
        correction = results.match_result_correct(match=match, by=request.user, **given)
        for later in correction.reset:
            messages.warning(
                request,
                _("%(match)s was reset: it must be played again.") % {"match": later},
            )

    return _result_page(
        request,
        match_of(request, pk),
        purpose="correct",
        service=correct,
        done=_("The result is corrected; the ratings are replayed from this match on."),
    )


@posts("answer", "confirm", "dispute")
@login_required
@require_POST
def match_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The opponent of the reporter (or an organizer) confirms or disputes a reported result;
    then back to ``next`` (a page of this site: the inbox it was confirmed from), else the
    match."""
    match = match_of(request, pk)
    answer = request.POST.get("answer")
    try:
        if answer == "confirm":
            results.match_result_confirm(match=match, by=request.user)
            messages.success(request, _("The result is confirmed."))
        elif answer == "dispute":
            results.match_result_dispute(
                match=match, by=request.user, note=request.POST.get("note", "")
            )
            messages.success(request, _("The result is disputed: an organizer will resolve it."))
        else:
            return render(
                request,
                "tournaments/match.html",
                {**match_context(request, match), "error": _AnswerMissing()},
                status=400,
            )
    except TournamentError as error:
        return refused(request, "tournaments/match.html", match_context(request, match), error)
    return redirect(posted_next(request) or reverse("match", args=[match.pk]))


def ratings_status(request: HttpRequest, slug: str) -> JsonResponse:
    """How much rating work is still queued for this tournament: polled by its pages."""
    pending = rating_selectors.tournament_ratings_pending(tournament=tournament_of(request, slug))
    return JsonResponse({"pending": pending, "done": pending == 0})


# --- Inside ------------------------------------------------------------------------------------


class _AnswerMissing(TournamentError):
    def __init__(self) -> None:
        super().__init__(_("Choose to confirm or to dispute the result."))


def _result_page(
    request: HttpRequest, match: Match, *, purpose: str, service: Any, done: str
) -> HttpResponse:
    names = _names(match)
    organizer = may(request.user, "match.forfeit", match)  # offers the forfeit
    if request.method != "POST":
        if purpose not in match_actions(request, match):
            raise PermissionDenied(_("This result cannot be changed by you now."))
        form = ResultForm(
            initial={"mode": "score"}, home=names[0], away=names[1], organizer=organizer
        )
        return render(request, RESULT_TEMPLATE, _form_context(match, purpose, form))
    form = ResultForm(
        request.POST, request.FILES, home=names[0], away=names[1], organizer=organizer
    )
    if not form.is_valid():
        return render(request, RESULT_TEMPLATE, _form_context(match, purpose, form), status=400)
    kinds = throttle.result_kinds(
        correction=purpose == "correct",
        record=form.cleaned_data["mode"] == "mat",  # games entered by hand carry no plays
    )
    try:
        throttle.check(request, kinds=kinds, tournament_id=match.tournament_id)
    except throttle.Throttled as error:  # 429 with Retry-After; the form keeps what was typed
        page = refused(request, RESULT_TEMPLATE, _form_context(match, purpose, form), error)
        return throttle.refused_page(page, error)
    try:
        service(match, **form.service_arguments())
    except TournamentError as error:
        return refused(request, RESULT_TEMPLATE, _form_context(match, purpose, form), error)
    messages.success(request, done)
    return redirect(reverse("match", args=[match.pk]))


def _form_context(match: Match, purpose: str, form: ResultForm | None) -> dict[str, Any]:
    if form is None:
        names = _names(match)  # resolving and correcting are an organizer's
        form = ResultForm(
            initial={"mode": "score"}, home=names[0], away=names[1], organizer=purpose != "report"
        )
    return {
        "tournament": match.tournament,
        "match": match,
        "form": form,
        "purpose": purpose,
        "resets": selectors.correction_reaches(match=match) if purpose == "correct" else [],
    }


def _names(match: Match) -> tuple[str, str]:
    home = match.home.player.display_name if match.home else _("to be decided")
    away = match.away.player.display_name if match.away else _("to be decided")
    return home, away

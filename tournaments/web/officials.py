"""The panel's page of an official event (the organizer's side): the judges, named and taken off
by the organizers; and the players removed with a reason, by the chief judge (the organizers of
an event that is not official). Each post calls one service, which decides who may; a refusal
shows the page again under its 4xx, with nothing changed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.errors import InvalidInput, TournamentError
from tournaments.models import Entry, Tournament
from tournaments.officials import selectors, services
from tournaments.officials.models import Judge
from tournaments.policy import judge_role, may
from tournaments.web.common import posts, refused, tournament_header, tournament_of

TEMPLATE = "tournaments/judges.html"


class JudgeAddForm(forms.Form):
    user = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        help_text=gettext_lazy("The judge's account on the site."),
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"), choices=Judge.Role.choices, initial=Judge.Role.JUDGE
    )


class EntryRemoveForm(forms.Form):
    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), widget=forms.HiddenInput)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=1000)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["entry"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = tournament.entries.select_related("player")


def may_see_panel(request: HttpRequest, tournament: Tournament) -> bool:
    """The organizers (and staff) and the panel's own members see the panel's page."""
    return may(request.user, "tournament.judges", tournament) or (
        judge_role(tournament, request.user) is not None
    )


@posts("action", "add", "remove", "remove-entry")
@login_required
def tournament_judges_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The panel and the removals (``action``: add a judge, remove one, remove an entry)."""
    tournament = tournament_of(request, slug)
    if request.method != "POST":
        if not may_see_panel(request, tournament):
            raise PermissionDenied(_("Only the tournament's organizers and judges see this page."))
        return _page(request, tournament)
    action = request.POST.get("action", "")
    if action == "add":
        return _judge_add(request, tournament)
    if action == "remove":
        return _judge_remove(request, tournament)
    if action == "remove-entry":
        return entry_remove_posted(request, tournament, back="tournament-judges")
    return _page(request, tournament, error=InvalidInput(_("Unknown action: nothing was changed.")))


def _judge_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = JudgeAddForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, add_form=form, status=400)
    try:
        judge = services.judge_add(
            tournament=tournament,
            username=form.cleaned_data["user"],
            role=form.cleaned_data["role"],
            by=request.user,
        )
    except TournamentError as error:
        return _page(request, tournament, add_form=form, error=error)
    messages.success(
        request,
        _("%(user)s is on the panel: %(role)s.")
        % {"user": selectors.judge_name(judge.user), "role": selectors.role_in_sentence(judge)},
    )
    return redirect(reverse("tournament-judges", args=[tournament.slug]))


def _judge_remove(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    judge = Judge.objects.filter(
        tournament=tournament, pk=_number(request.POST.get("judge"))
    ).first()
    if judge is None:
        return _page(request, tournament, error=InvalidInput(_("There is no such judge.")))
    try:
        services.judge_remove(judge=judge, by=request.user)
    except TournamentError as error:
        return _page(request, tournament, error=error)
    name = selectors.judge_name(judge.user)
    messages.success(request, _("%(user)s is off the panel.") % {"user": name})
    return redirect(reverse("tournament-judges", args=[tournament.slug]))


def entry_remove_posted(request: HttpRequest, tournament: Tournament, *, back: str) -> HttpResponse:
    """Remove the posted entry with the posted reason; back to the page ``back`` names, or this
    page again with the refusal."""
    form = EntryRemoveForm(request.POST, tournament=tournament)
    if not form.is_valid():
        entry_field = form.errors.get("entry")
        problem = _("There is no such entry.") if entry_field else _("Give the reason.")
        return _page(request, tournament, error=InvalidInput(problem))
    entry = form.cleaned_data["entry"]
    try:
        services.entry_remove(entry=entry, by=request.user, reason=form.cleaned_data["reason"])
    except TournamentError as error:
        return _page(request, tournament, error=error)
    messages.success(
        request,
        _("%(player)s is removed and will not be paired again; their matches still to play are "
          "lost by forfeit.") % {"player": entry.player},
    )  # fmt: skip
    return redirect(reverse(back, args=[tournament.slug]))


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    add_form: JudgeAddForm | None = None,
    error: TournamentError | None = None,
    status: int = 200,
) -> HttpResponse:
    entries = list(
        tournament.entries.select_related("player", "removed_by").order_by(
            "seed", "player__display_name"
        )
    )
    removes = tournament.status == Tournament.Status.RUNNING and any(
        may(request.user, "entry.remove", entry) for entry in entries[:1]
    )
    context = {
        **tournament_header(request, tournament, ""),
        "panel": selectors.named_judges(tournament=tournament),
        "manages": may(request.user, "tournament.judges", tournament),
        "add_form": add_form or JudgeAddForm(),
        "removes": removes,
        "playing": [entry for entry in entries if entry.removed_at is None and not entry.withdrawn],
        "removed": [
            (entry, selectors.removal_text(entry, tournament))
            for entry in entries
            if entry.removed_at is not None
        ],
    }
    if error is not None:
        return refused(request, TEMPLATE, context, error)
    return render(request, TEMPLATE, context, status=status)


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isdecimal() and len(text) < 12 else None

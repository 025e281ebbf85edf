"""The organizer's pages (create and edit a tournament, enter players, move it through its life)
and a player's own matches. Each view checks its form, calls one service and redirects; the
service decides who may act and when, and its refusal is shown on the same page under a 4xx
status, with nothing changed."""

from __future__ import annotations

import copy
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.clubs.selectors import clubs_run_by
from tournaments.errors import InvalidInput, TournamentError
from tournaments.models import Tournament
from tournaments.policy import may
from tournaments.ratings.services import ratings_approve, ratings_withdraw
from tournaments.signups.selectors import user_signups
from tournaments.stages import services as stages
from tournaments.web.common import posts, refused, tournament_header, tournament_of
from tournaments.web.forms import (
    EntriesImportForm,
    EntriesPasteForm,
    EntryAddForm,
    EntryWithdrawForm,
    EventPresetForm,
    PairAddForm,
    TournamentForm,
)
from tournaments.web.officials import entry_remove_posted

FORM_TEMPLATE = "tournaments/tournament_form.html"
PLAYERS_TEMPLATE = "tournaments/players.html"


def _require_organizer_to_view(request: HttpRequest, tournament: Tournament) -> None:
    """Organizer pages are not shown to others (what they post is refused by the services)."""
    if not may(request.user, "tournament.run", tournament):
        raise PermissionDenied(_("Only the tournament's organizers may see this page."))


# --- The tournament's rules ---------------------------------------------------------------------


@login_required
def tournament_create_page(request: HttpRequest) -> HttpResponse:
    clubs = clubs_run_by(request.user)
    presets = EventPresetForm(request.GET if request.method != "POST" else None)
    if request.method != "POST":
        form = TournamentForm(
            clubs=clubs,
            initial={"club_season": request.GET.get("club", "")},
            preset=presets.chosen(),
        )
        return render(request, FORM_TEMPLATE, {"form": form, "presets": presets})
    form = TournamentForm(request.POST, clubs=clubs)
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, {"form": form, "presets": presets}, status=400)
    try:
        tournament = services.tournament_create(
            organizer=request.user, **form.tournament_settings()
        )
    except TournamentError as error:
        return refused(request, FORM_TEMPLATE, {"form": form, "presets": presets}, error)
    messages.success(request, _("The tournament is created as a draft."))
    return redirect(reverse("tournament", args=[tournament.slug]))


@login_required
def tournament_edit_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules may change until the start; after it the form is shown locked, and a post is
    refused by the service (409)."""
    tournament = tournament_of(request, slug)
    locked = tournament.status not in services.EDITABLE_STATUSES
    presets = EventPresetForm(request.GET if request.method != "POST" else None)
    context = {
        **tournament_header(request, tournament, ""),
        "locked": locked,
        "presets": presets,
    }
    if request.method != "POST":
        _require_organizer_to_view(request, tournament)
        form = TournamentForm(instance=tournament, locked=locked, preset=presets.chosen())
        return render(request, FORM_TEMPLATE, {**context, "form": form})
    # The form writes what was posted into its instance: keep the page's tournament as stored.
    form = TournamentForm(request.POST, instance=copy.copy(tournament), locked=locked)
    context["form"] = form
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, context, status=400)
    try:
        services.tournament_update(
            tournament=tournament, by=request.user, **form.tournament_settings()
        )
    except TournamentError as error:
        return refused(request, FORM_TEMPLATE, context, error)
    messages.success(request, _("The tournament's rules are saved."))
    return redirect(reverse("tournament", args=[tournament.slug]))


# --- Players ------------------------------------------------------------------------------------


@posts("action", "add", "add-pair", "import", "paste-preview", "paste", "withdraw", "remove")
@login_required
def tournament_players_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The entrants, and the forms posting here: add one player, add a pair, import a CSV file,
    preview a pasted list of names and enter it, withdraw an entry (the ``action`` field says
    which)."""
    tournament = tournament_of(request, slug)
    if request.method != "POST":
        _require_organizer_to_view(request, tournament)
        return _players_page(request, tournament)
    action = PLAYERS_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        return _players_page(
            request, tournament, error=InvalidInput(_("Unknown action: nothing was changed."))
        )
    return action(request, tournament)


def _player_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = EntryAddForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _players_page(request, tournament, add_form=form, status=400)
    try:
        (entry,) = services.entries_register(
            tournament=tournament, by=request.user, entries=[form.new_entry()]
        )
    except TournamentError as error:
        # A name refused as entered already is done with: the field is left empty, so that the
        # next name typed is not appended to it (which would make a new player of both names).
        kept = None if _entered_already(tournament, form) else form
        return _players_page(request, tournament, add_form=kept, error=error)
    messages.success(request, _("%(player)s is entered.") % {"player": entry.player})
    return redirect(reverse("tournament-players", args=[tournament.slug]))


def _entered_already(tournament: Tournament, form: EntryAddForm) -> bool:
    """Whether the player the form names (picked, or by the name typed) is an entrant."""
    picked, typed = form.cleaned_data.get("player"), form.cleaned_data.get("display_name")
    if picked is not None:
        return tournament.entries.filter(player=picked).exists()
    name = " ".join((typed or "").split())
    return bool(name) and tournament.entries.filter(player__display_name=name).exists()


def _pair_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PairAddForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _players_page(request, tournament, pair_form=form, status=400)
    try:
        entry = services.pair_register_named(
            tournament=tournament,
            players=form.players(),
            by=request.user,
            name=form.cleaned_data["name"],
            seed=form.cleaned_data["seed"],
        )
    except TournamentError as error:
        return _players_page(request, tournament, pair_form=form, error=error)
    messages.success(request, _("%(player)s is entered.") % {"player": entry.player})
    return redirect(reverse("tournament-players", args=[tournament.slug]))


def _players_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = EntriesImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _players_page(request, tournament, import_form=form, status=400)
    try:
        # One byte past the limit is enough for the service to refuse a file that is too large.
        data = form.cleaned_data["file"].read(services.ENTRIES_CSV_MAX_BYTES + 1)
        entries = services.entries_import_csv(tournament=tournament, by=request.user, data=data)
    except TournamentError as error:
        return _players_page(request, tournament, import_form=form, error=error)
    messages.success(
        request,
        ngettext("%(count)s player added.", "%(count)s players added.", len(entries))
        % {"count": len(entries)},
    )
    return redirect(reverse("tournament-players", args=[tournament.slug]))


def _paste_preview(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The pasted list matched to the site's players, to be answered and confirmed: nothing is
    written yet."""
    form = EntriesPasteForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, paste_form=form, status=400)
    try:
        preview = services.entries_paste_preview(
            tournament=tournament, by=request.user, text=form.cleaned_data["names"]
        )
    except TournamentError as error:
        return _players_page(request, tournament, paste_form=form, error=error)
    return _players_page(request, tournament, paste_form=form, preview=preview)


def _paste(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Enter the previewed list as answered; the box is empty again after it."""
    form = EntriesPasteForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, paste_form=form, status=400)
    text, answers = form.cleaned_data["names"], form.answers(request.POST)
    try:
        entries, skipped = services.entries_paste(
            tournament=tournament, by=request.user, text=text, answers=answers
        )
    except TournamentError as error:
        try:  # the preview again, with the answers given, to correct
            preview = services.entries_paste_preview(
                tournament=tournament, by=request.user, text=text
            )
        except TournamentError:
            preview = None
        return _players_page(
            request, tournament, paste_form=form, preview=preview, answers=answers, error=error
        )
    messages.success(
        request,
        ngettext("%(count)s player entered.", "%(count)s players entered.", len(entries))
        % {"count": len(entries)},
    )
    for line in skipped:
        if line.repeats is not None:
            said = _("Line %(line)s: %(name)s is listed on line %(earlier)s already: left out.")
        else:
            said = _("Line %(line)s: %(name)s is entered already: left out.")
        messages.info(
            request, said % {"line": line.line, "name": line.name, "earlier": line.repeats}
        )
    return redirect(reverse("tournament-players", args=[tournament.slug]))


def _entry_withdraw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = EntryWithdrawForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _players_page(request, tournament, error=InvalidInput(_("There is no such entry.")))
    entry = form.cleaned_data["entry"]
    forfeit = form.cleaned_data["forfeit_remaining"]
    try:
        services.entry_withdraw(entry=entry, by=request.user, forfeit_remaining=forfeit)
    except TournamentError as error:
        return _players_page(request, tournament, error=error)
    if entry.withdrawn and forfeit:
        message = _(
            "%(player)s is withdrawn and will not be paired again; their matches still to play "
            "are lost by forfeit."
        )
    elif entry.withdrawn:
        message = _("%(player)s is withdrawn and will not be paired again.")
    else:
        message = _("%(player)s is removed from the tournament.")
    messages.success(request, message % {"player": entry.player})
    return redirect(reverse("tournament-players", args=[tournament.slug]))


PLAYERS_ACTIONS = {
    "add": _player_add,
    "add-pair": _pair_add,
    "import": _players_import,
    "paste-preview": _paste_preview,
    "paste": _paste,
    "withdraw": _entry_withdraw,
    "remove": lambda request, tournament: entry_remove_posted(
        request, tournament, back="tournament-players"
    ),
}


def _players_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    add_form: EntryAddForm | None = None,
    pair_form: PairAddForm | None = None,
    import_form: EntriesImportForm | None = None,
    paste_form: EntriesPasteForm | None = None,
    preview: list[services.PastedLine] | None = None,
    answers: dict[int, str] | None = None,
    error: TournamentError | None = None,
    status: int = 200,
) -> HttpResponse:
    """The page, with the forms as posted when one was refused."""
    context = {
        **tournament_header(request, tournament, ""),
        "entries": tournament.entries.select_related(
            "player__user", "player__pair__first", "player__pair__second"
        ).order_by("seed", "player__display_name"),
        "add_form": add_form or EntryAddForm(tournament=tournament),
        "pair_form": pair_form or PairAddForm(tournament=tournament),
        "import_form": import_form or EntriesImportForm(),
        "paste_form": paste_form or EntriesPasteForm(),
        "preview": _preview_rows(preview, answers or {}) if preview is not None else None,
        "can_enter": tournament.status in services.EDITABLE_STATUSES
        or (
            tournament.status == Tournament.Status.RUNNING
            and tournament.format == Tournament.Format.SWISS
        ),
        "can_withdraw": tournament.status != Tournament.Status.FINISHED,
        # who may remove (an event that is not official: its organizers; an official one: its
        # chief judge, from the panel's page)
        "can_remove": tournament.status == Tournament.Status.RUNNING
        and not tournament.official
        and may(request.user, "tournament.close", tournament),
    }
    if error is not None:
        return refused(request, PLAYERS_TEMPLATE, context, error)
    return render(request, PLAYERS_TEMPLATE, context, status=status)


def _preview_rows(preview: list[services.PastedLine], answers: dict[int, str]) -> list[Any]:
    """Each line of the preview with the answer to show checked: the one posted, else its
    own."""
    return [(line, answers.get(line.line, line.answer)) for line in preview]


# --- The tournament's life ----------------------------------------------------------------------

STEPS = {
    "open": services.tournament_open_registration,
    "start": services.tournament_start,
    "pair": services.swiss_round_pair,
    "finish": services.tournament_finish,
    "lots": services.tournament_lots_draw,
    "rate": ratings_approve,
    "unrate": ratings_withdraw,
    "build-stage-2": lambda tournament, by: stages.stage_two_build(event=tournament, by=by),
    "reset-stage-2": lambda tournament, by: stages.stage_two_reset(event=tournament, by=by),
}


@posts("step", *STEPS)
@login_required
@require_POST
def tournament_step(request: HttpRequest, slug: str, step: str) -> HttpResponse:
    """Open the registration, start, pair the next Swiss round, finish, or draw lots for the
    places the tie-breaks left shared; a rating officer approves the tournament as rated or
    withdraws the approval."""
    service = STEPS.get(step)
    if service is None:
        raise Http404(_("There is no such step."))
    tournament = tournament_of(request, slug)
    try:
        done = service(tournament=tournament, by=request.user)
    except TournamentError as error:
        return refused(
            request,
            "tournaments/step_refused.html",
            tournament_header(request, tournament, ""),
            error,
        )
    success = {
        "open": _("The registration is open."),
        "start": _("The tournament has started: the matches are made."),
        "pair": _("Round %(number)s is paired.") % {"number": getattr(done, "number", "")},
        "finish": _("The tournament is finished."),
        "lots": _("The lots are drawn: every place is decided."),
        "rate": _("The tournament is rated: its results count on the rating list."),
        "unrate": _("The rating approval is withdrawn: the rating list is replayed without it."),
        "build-stage-2": _("Stage 2 is built from the standings of stage 1: its bracket is drawn."),
        "reset-stage-2": _("Stage 2 is reset: correct stage 1, then build it again."),
    }
    messages.success(request, success[step])
    if step == "start":
        for notice in services.start_notices(done):
            messages.warning(request, notice)
    return redirect(reverse("tournament", args=[tournament.slug]))


# --- A player's own matches ---------------------------------------------------------------------


@login_required
def my_matches_page(request: HttpRequest) -> HttpResponse:
    groups = selectors.user_matches(user=request.user)
    signups = user_signups(user=request.user)
    return render(request, "tournaments/my_matches.html", {"groups": groups, "signups": signups})

"""The season pages: its table (shared by anonymous readers until the season or any of its
events changes), the table as CSV, and the forms of the club's organizers."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from nardy_site.page_cache import fresh_or_stale, is_slug, page_number, page_version, shared_page
from nardy_site.paging import page_of, pager
from tournaments.charts import ResponsiveChart, responsive_chart
from tournaments.clubs.models import Club
from tournaments.errors import InvalidInput, TournamentError
from tournaments.models import Tournament
from tournaments.policy import may
from tournaments.seasons import selectors, services
from tournaments.seasons.models import Season
from tournaments.seasons.selectors import SeasonLine, SeasonTable
from tournaments.seasons.table import EventPoints
from tournaments.web.common import posts, refused, require_runs_to_view
from tournaments.web.season_forms import EventForm, SeasonForm
from tournaments.words import spreadsheet_safe

FORM_TEMPLATE = "seasons/season_form.html"


def season_of(club_slug: str, season_slug: str) -> Season:
    season = selectors.season_of(club_slug=club_slug, season_slug=season_slug)
    if season is None:
        raise Http404
    return season


def _season_version(slug: str, season: str) -> str:
    version = selectors.season_version(club_slug=slug, season_slug=season)
    if version is None:
        raise Http404
    return version


#: Lines of a season's table per page (``?page=N``).
SEASON_TABLE_PAGE = 50
#: Up to this many events, the table has a column for each; past it, one event's column is
#: shown at a time (``?event=<slug>``).
SEASON_EVENT_COLUMNS = 12
#: The lines of a page that have their points-over-the-season chart.
SEASON_CHARTS = 10


def season_table(season: Season, version: str | None = None) -> SeasonTable:
    """The season's whole table, computed once per version of the season (``version``: the one
    read already) and kept in the cache: the pages of the table, the own lines, the CSV and the
    API read it."""
    return fresh_or_stale(
        f"season-table:{season.pk}",
        lambda: version or _season_version(season.club.slug, season.slug),
        lambda: selectors.season_standings(season=season),
        refresh=0,
    )


def _own_line(request: HttpRequest, slug: str, season: str) -> str:
    """The signed-in reader's own lines of the table (their linked players'), with the page
    each is on: drawn for them into the shared page."""
    found = season_of(slug, season)
    table = season_table(found, page_version(request, lambda: _season_version(slug, season)))
    mine = set(request.user.players.values_list("pk", flat=True))  # type: ignore[union-attr]
    own = [
        (line, page_of(index, SEASON_TABLE_PAGE))
        for index, line in enumerate(table.lines)
        if line.player.pk in mine
    ]
    return render_to_string("seasons/_own_line.html", {"own": own}, request=request)


@shared_page(
    _season_version,
    params={
        "page": page_number,
        "event": is_slug,
        "discipline": Tournament.Discipline.values,
    },
    reader=lambda request, slug, season: True,  # the table is everyone's; their own line drawn
    own={"line": _own_line},
)
def season_page(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """The season's events and its table, a page at a time; a column for each event while
    they are few, else the one event asked for (``?event=<slug>``)."""
    found = season_of(slug, season)
    table = season_table(found, page_version(request, lambda: _season_version(slug, season)))
    page = pager(request.GET, total=len(table.lines), size=SEASON_TABLE_PAGE)
    lines = page.cut(table.lines)
    columns = list(range(len(table.events)))
    if len(table.events) > SEASON_EVENT_COLUMNS:
        asked = request.GET.get("event", "")
        columns = [n for n, event in enumerate(table.events) if event.slug == asked]
    shown = [(line, [line.row.events[n] for n in columns]) for line in lines]
    discipline = request.GET.get("discipline", "")
    events = [event for event in table.events if discipline in ("", event.discipline)]
    return render(
        request,
        "seasons/season.html",
        {
            "club": found.club,
            "season": found,
            "table": table,
            "events": events,
            "discipline": discipline,
            "disciplines": Tournament.Discipline.choices,
            "lines": shown,
            "columns": [(n + 1, table.events[n]) for n in columns],
            "by_event": len(table.events) > SEASON_EVENT_COLUMNS,
            "pager": page,
            "rule": rule_summary(found),
            "charts": _charts(SeasonTable(table.season, table.events, lines[:SEASON_CHARTS])),
            "runs": may(request.user, "club.seasons", found.club),
            "official": any(event.official for event in table.events),
        },
    )


def season_csv(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """The table as CSV: rank, player, points, all points, events played, then each event's
    points (empty: not played; in brackets: not counted)."""
    found = season_of(slug, season)
    table = season_table(found, _season_version(slug, season))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{found.club.slug}-{found.slug}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["rank", "player", "points", "all_points", "events",
         *(spreadsheet_safe(event.name) for event in table.events)]
    )  # fmt: skip
    for line in table.lines:
        row = line.row
        cells = [_csv_cell(item) for item in row.events]
        writer.writerow(
            [row.rank, spreadsheet_safe(line.player.display_name), _number(row.points),
             _number(row.all_points), row.played, *cells]
        )  # fmt: skip
    return response


def _csv_cell(item: EventPoints | None) -> str:
    if item is None:
        return ""
    return _number(item.points) if item.counted else f"({_number(item.points)})"


@login_required
def season_create_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    require_runs_to_view(request, club)
    context: dict[str, Any] = {"club": club}
    if request.method != "POST":
        return render(request, FORM_TEMPLATE, {**context, "form": SeasonForm()})
    form = SeasonForm(request.POST)
    context["form"] = form
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, context, status=400)
    try:
        season = services.season_create(club=club, by=request.user, **form.season_fields())
    except TournamentError as error:
        return refused(request, FORM_TEMPLATE, context, error)
    messages.success(request, _("The season is created. Add its events below."))
    return redirect(reverse("season-edit", args=[club.slug, season.slug]))


@posts("action", "rule", "add", "remove")
@login_required
def season_edit_page(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """The season's rule, and its events: a form to add one, a remove button each (the
    ``action`` field says which was posted)."""
    found = season_of(slug, season)
    require_runs_to_view(request, found.club)
    context = _edit_context(request, found)
    if request.method != "POST":
        return render(request, FORM_TEMPLATE, context)
    action = request.POST.get("action", "rule")
    if action in ("add", "remove"):
        return _event_set(request, found, context, action)
    if action != "rule":
        error = InvalidInput(_("Unknown action: nothing was changed."))
        return refused(request, FORM_TEMPLATE, context, error)
    form = SeasonForm(request.POST, instance=Season(pk=found.pk, club=found.club))
    context["form"] = form
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, context, status=400)
    try:
        services.season_update(season=found, by=request.user, **form.season_fields())
    except TournamentError as error:
        return refused(request, FORM_TEMPLATE, context, error)
    messages.success(request, _("The season's rule is saved."))
    return redirect(reverse("season", args=[found.club.slug, found.slug]))


def _event_set(
    request: HttpRequest, season: Season, context: dict[str, Any], action: str
) -> HttpResponse:
    if action == "add":
        form = EventForm(request.POST, season=season, user=request.user)
        context["event_form"] = form
        if not form.is_valid():
            return render(request, FORM_TEMPLATE, context, status=400)
        tournament = form.cleaned_data["tournament"]
    else:
        given = request.POST.get("tournament", "")
        tournament = season.tournaments.filter(pk=int(given)).first() if given.isdigit() else None
        if tournament is None:
            error = InvalidInput(_("This tournament is not one of the season's."))
            return refused(request, FORM_TEMPLATE, context, error)
    try:
        services.season_event_set(
            tournament=tournament, season=season if action == "add" else None, by=request.user
        )
    except TournamentError as error:
        return refused(request, FORM_TEMPLATE, context, error)
    if action == "add":
        messages.success(request, _("%(name)s counts in the season.") % {"name": tournament.name})
    else:
        messages.success(request, _("%(name)s no longer counts.") % {"name": tournament.name})
    return redirect(reverse("season-edit", args=[season.club.slug, season.slug]))


def _edit_context(request: HttpRequest, season: Season) -> dict[str, Any]:
    return {
        "club": season.club,
        "season": season,
        "form": SeasonForm(instance=season),
        "event_form": EventForm(season=season, user=request.user),
        "events": selectors.season_events(season=season),
    }


# --- Shared by the pages -----------------------------------------------------------------------


def rule_summary(season: Season) -> str:
    """The season's rule in one line, for its page."""
    if season.scoring == Season.Scoring.WINS:
        text = _("%(points)s points a match won") % {"points": _number(season.win_points)}
    else:
        points = "-".join(_number(value) for value in season.place_points)
        text = _("Points by place: %(points)s") % {"points": points}
    if season.best_of:
        text += "; " + _("each player's best %(count)s events count") % {"count": season.best_of}
    return text


def _charts(table: SeasonTable) -> list[tuple[SeasonLine, ResponsiveChart]]:
    """Each line with the chart of the player's counted points after each event: a point where
    they change (the player's own events), and the season's last."""
    when = [event.created_at for event in table.events]
    charts = []
    for line in table.lines:
        steps = list(zip(when, map(float, line.row.running), strict=True))
        points = [step for n, step in enumerate(steps) if n == 0 or step[1] != steps[n - 1][1]]
        if steps and points[-1] != steps[-1]:
            points.append(steps[-1])
        charts.append((line, responsive_chart(points)))
    return charts


def _number(value: Any) -> str:
    """A number as plain as it is: 25, 12.5 (a Fraction of halves shows as a decimal)."""
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"

"""The standings by region and the regional medal table of an official event
(``/t/<slug>/regions/``), and of a season's official events (``/c/<club>/s/<season>/regions/``).
Both publish the regions of the players of official events, which entering one consents to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.medals import NO_REGION, MedalRow
from tournaments.seasons.selectors import RegionStanding, RegionTable, event_regions, season_regions
from tournaments.web.common import tournament_header, tournament_of
from tournaments.web.seasons import season_of
from tournaments.words import region_name


@dataclass(frozen=True)
class Named:
    """A row of the page with its region's name in the page's language."""

    name: str
    row: Any


def region_label(code: str) -> str:
    """A region's name, or "No region" for players whose profile gives none."""
    return _("No region") if code == NO_REGION else region_name(code)


def named(table: RegionTable) -> dict[str, Any]:
    """The table's regions and medal rows with their names, as the templates show them."""
    regions: list[RegionStanding] = table.regions
    medals: list[MedalRow] = table.medals
    return {
        "table": table,
        "regions": [Named(region_label(group.region), group) for group in regions],
        "medals": [Named(region_label(row.region), row) for row in medals],
    }


def tournament_regions_page(request: HttpRequest, slug: str) -> HttpResponse:
    """An official event's standings grouped by region, and its medal table once finished."""
    tournament = tournament_of(request, slug)
    if not tournament.official or tournament.status == tournament.Status.DRAFT:
        raise Http404(_("Only official events have standings by region."))
    table = event_regions(tournament=tournament)
    return render(
        request,
        "tournaments/regions.html",
        {**tournament_header(request, tournament, "regions"), **named(table)},
    )


def season_regions_page(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """The medal table of a season's finished official events, summed by region."""
    found = season_of(slug, season)
    table = season_regions(season=found)
    return render(request, "seasons/regions.html", {"season": found, **named(table)})

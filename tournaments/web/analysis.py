"""The tournament's PR table page: its entrants ranked by their PR over their analysed matches
(by gnubg in Short Nardy, by the project's engine in Long Nardy)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from nardy_site.page_cache import shared_page
from tournaments import versions
from tournaments.analysis.engine import (
    analysis_available,
    analysis_engine,
    analysis_plies,
    engine_label,
)
from tournaments.analysis.selectors import pr_table, pr_table_version
from tournaments.models import Tournament
from tournaments.web.common import tournament_header, tournament_of


def _version(slug: str) -> str:
    tournament = Tournament.objects.filter(slug=slug).first()
    own = versions.tournament_version(slug=slug) or ""
    return own if tournament is None else f"{own}:{pr_table_version(tournament=tournament)}"


@shared_page(_version)
def pr_table_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_of(request, slug)
    return render(
        request,
        "analysis/pr_table.html",
        {
            **tournament_header(request, tournament, "pr"),
            "rows": pr_table(tournament=tournament),
            "available": analysis_available(tournament.variant),
            "engine": engine_label(
                analysis_engine(tournament.variant), analysis_plies(tournament.variant)
            ),
        },
    )

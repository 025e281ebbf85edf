"""The final protocol of a tournament (a printable page, a PDF, a spreadsheet) and the pages of
the rank norms met. Each reads one document (``tournaments.protocol.selectors``) and draws it."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.norms import selectors as norms
from tournaments.policy import may
from tournaments.protocol.document import Protocol
from tournaments.protocol.pdf import protocol_pdf
from tournaments.protocol.selectors import protocol_visible, tournament_protocol
from tournaments.protocol.xlsx import protocol_xlsx
from tournaments.web.common import tournament_header, tournament_of

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _protocol(request: HttpRequest, slug: str) -> tuple[object, Protocol]:
    tournament = tournament_of(request, slug)
    if not protocol_visible(tournament, runs=may(request.user, "tournament.run", tournament)):
        raise Http404(_("The protocol is published once the event has started."))
    return tournament, tournament_protocol(tournament=tournament)


def _filename(slug: str, extension: str) -> str:
    return f"protocol-{slug}-{get_language() or 'en'}.{extension}"


def protocol_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, protocol = _protocol(request, slug)
    return render(
        request,
        "tournaments/protocol.html",
        {**tournament_header(request, tournament, "protocol"), "protocol": protocol},  # type: ignore[arg-type]
    )


def protocol_pdf_file(request: HttpRequest, slug: str) -> HttpResponse:
    _tournament, protocol = _protocol(request, slug)
    response = HttpResponse(protocol_pdf(protocol), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_filename(slug, "pdf")}"'
    response["Content-Language"] = get_language() or "en"
    return response


def protocol_xlsx_file(request: HttpRequest, slug: str) -> HttpResponse:
    _tournament, protocol = _protocol(request, slug)
    response = HttpResponse(protocol_xlsx(protocol), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{_filename(slug, "xlsx")}"'
    response["Content-Language"] = get_language() or "en"
    return response


def tournament_norms_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The norms the players of one event met."""
    tournament = tournament_of(request, slug)
    if not protocol_visible(tournament, runs=may(request.user, "tournament.run", tournament)):
        raise Http404(_("The norms are published once the event has started."))
    return render(
        request,
        "tournaments/norms.html",
        {
            **tournament_header(request, tournament, "norms"),
            "events": [(tournament, norms.norms_met(tournament))],
            "counts": norms.counts_for_norms(tournament),
            "example": norms.table_is_example(),
        },
    )


def norms_page(request: HttpRequest) -> HttpResponse:
    """The norms met at the finished official events, newest first."""
    try:
        page = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        page = 1
    events = norms.events_with_norms(page=page)
    return render(
        request,
        "tournaments/norms_all.html",
        {
            "events": events,
            "table": norms.norm_table_by_status(),
            "example": norms.table_is_example(),
            "page": page,
            "more": len(events) == norms.NORMS_PAGE,
        },
    )

"""The public pages: what anyone may read. Each view loads through selectors and renders."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Max, Q
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.rules import GameError
from nardy_site.page_cache import (
    Composition,
    Parts,
    is_slug,
    page_number,
    page_version,
    shared_page,
)
from nardy_site.paging import page_of, pager
from tournaments import disciplines, selectors, versions
from tournaments.analysis.selectors import match_analysis, player_pr_history, verdicts_of
from tournaments.brackets.view import bracket_drawings
from tournaments.charts import responsive_chart
from tournaments.clubs.models import Club
from tournaments.declarations import summary_of
from tournaments.matches.board import accepted_plays, board_frames
from tournaments.matches.live.state import is_being_recorded, matches_being_recorded
from tournaments.matches.rows import games_of
from tournaments.models import Entry, Match, Tournament
from tournaments.officials import selectors as officials
from tournaments.players.selectors import player_actions, player_with_club, players_found
from tournaments.policy import judge_role, may
from tournaments.ratings import selectors as rating_selectors
from tournaments.services import start_notices
from tournaments.stages.selectors import event_stages
from tournaments.standings import StandingRow, deciding_tiebreaks
from tournaments.web.common import (
    cached_part,
    has_bracket,
    match_of,
    tournament_header,
    tournament_of,
)
from tournaments.web.live import set_aside_for
from tournaments.words import BRACKET_NAMES, TIEBREAK_NAMES

Format = Tournament.Format
logger = logging.getLogger(__name__)


def _found(version: str | None) -> str:
    if version is None:
        raise Http404
    return version


def _tournament_version(slug: str) -> str:
    return _found(versions.tournament_version(slug=slug))


@shared_page(
    versions.tournament_list_version,
    params={
        "status": Tournament.Status.values,
        "variant": Tournament.Variant.values,
        "discipline": Tournament.Discipline.values,
        "club": is_slug,
        "page": page_number,
    },
)
def tournament_list_page(request: HttpRequest) -> HttpResponse:
    """The tournaments: on the first page with no filter, those running or taking entries
    first; then every tournament, newest first, a page at a time; ``?club=<slug>``: a club's."""
    status = request.GET.get("status", "")
    variant = request.GET.get("variant", "")
    discipline = request.GET.get("discipline", "")
    club = Club.objects.filter(slug=request.GET.get("club", "")).first()
    tournaments = selectors.tournament_list()
    if status in Tournament.Status.values:
        tournaments = tournaments.filter(status=status)
    if variant in Tournament.Variant.values:
        tournaments = tournaments.filter(variant=variant)
    if discipline in Tournament.Discipline.values:
        tournaments = tournaments.filter(discipline=discipline)
    if club is not None:
        tournaments = tournaments.filter(club=club)
    page = pager(request.GET, total=tournaments.count(), size=selectors.TOURNAMENTS_PAGE)
    running = []
    if page.number == 1 and not status and not variant and not discipline and club is None:
        now = (Tournament.Status.RUNNING, Tournament.Status.REGISTRATION)
        running = list(
            selectors.with_entry_counts(tournaments.filter(status__in=now))[
                : selectors.RUNNING_SHOWN
            ]
        )
    return render(
        request,
        "tournaments/home.html",
        {
            "running": running,
            "tournaments": page.cut(selectors.with_entry_counts(tournaments)),
            "pager": page,
            "club": club,
            "statuses": Tournament.Status.choices,
            "variants": Tournament.Variant.choices,
            "disciplines": Tournament.Discipline.choices,
            "status": status,
            "variant": variant,
            "discipline": discipline,
        },
    )


@shared_page(_tournament_version)
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_of(request, slug)

    def entries() -> list[tuple[Entry, float | None]]:
        ratings = selectors.entry_ratings(tournament=tournament)
        ordered = tournament.entries.select_related("player").order_by(
            "seed", "player__display_name"
        )
        return [(entry, ratings.get(entry.pk)) for entry in ordered]

    header = tournament_header(request, tournament, "overview")
    # Before the start, the organizer reads what the start will leave out; after it, the start's
    # message has said so once.
    before_start = tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    notices = start_notices(tournament) if header["organizer"] and before_start else []
    officer = may(request.user, "tournament.rate", tournament)
    return render(
        request,
        "tournaments/tournament.html",
        {
            **header,
            "start_notices": notices,
            "rules": rules_summary(tournament),
            "entries": cached_part(entries),
            "recorded_now": matches_being_recorded(tournament),
            "rating_officer": officer,
            "hinted_matches": selectors.hinted_matches(tournament=tournament) if officer else [],
            "stages": event_stages(event=tournament),
            "lots_to_draw": header["organizer"] and selectors.lots_to_draw(tournament=tournament),
            "rounds_complete": _rounds_complete(tournament),
            "panel": _panel(tournament),
            "judge_role": judge_role(tournament, request.user),
            "closes": may(request.user, "tournament.close", tournament),
        },
    )


def _panel(tournament: Tournament) -> list[tuple[Any, str]]:
    """An official event's judges with the names the pages give them (none: not official)."""
    if not tournament.official:
        return []
    return officials.named_judges(tournament=tournament)


def _rounds_complete(tournament: Tournament) -> str:
    """What the tournament page says of its rounds while it runs: the last round complete
    from the first on (none in a bracket, or before a round is complete)."""
    if has_bracket(tournament) or tournament.status != Tournament.Status.RUNNING:
        return ""
    complete, made = selectors.rounds_complete(tournament=tournament)
    if not complete:
        return ""
    if complete == made and tournament.format != Tournament.Format.SWISS:
        return _("Every round is complete: the tournament can be finished.")
    return _("Round %(number)s is complete.") % {"number": complete}


@shared_page(_tournament_version)
def tournament_rounds_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_of(request, slug)
    return render(
        request,
        "tournaments/rounds.html",
        {
            **tournament_header(request, tournament, "rounds"),
            "rounds": cached_part(lambda: _rounds(tournament)),
            "forfeits": cached_part(lambda: tournament.matches.exclude(forfeit="").exists()),
        },
    )


@shared_page(_tournament_version, params={"wall": ["1"]})
def tournament_standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_of(request, slug)
    if has_bracket(tournament):
        raise Http404(_("Elimination tournaments have a bracket, not standings."))
    wall = request.GET.get("wall") == "1"
    return render(
        request,
        "tournaments/standings.html",
        {
            **tournament_header(request, tournament, "standings"),
            "standings": cached_part(
                lambda: standing_lines(selectors.tournament_standings(tournament=tournament))
            ),
            "tiebreaks": [(name, TIEBREAK_NAMES[name]) for name in tournament.tiebreaks],
            "lots": cached_part(lambda: selectors.tournament_lots(tournament=tournament)),
            "wall": wall,
        },
    )


@shared_page(_tournament_version)
def tournament_bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_of(request, slug)
    if not has_bracket(tournament):
        raise Http404(_("Only elimination tournaments have a bracket."))

    def drawings() -> list[Any]:
        return bracket_drawings(
            tournament=tournament, match_url=lambda match: reverse("match", args=[match.pk])
        )

    return render(
        request,
        "tournaments/bracket.html",
        {
            **tournament_header(request, tournament, "bracket"),
            "drawings": cached_part(drawings),
            "places": cached_part(lambda: selectors.bracket_places(tournament=tournament)),
        },
    )


@shared_page(_tournament_version)
def tournament_print_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Pairings and standings on paper: the current round first, for the club's notice board."""
    tournament = tournament_of(request, slug)

    def standings() -> list[StandingLine]:
        if has_bracket(tournament):
            return []
        return standing_lines(selectors.tournament_standings(tournament=tournament))

    return render(
        request,
        "tournaments/print.html",
        {
            **tournament_header(request, tournament, "print"),
            "rounds": cached_part(lambda: list(reversed(_rounds(tournament)))),
            "standings": cached_part(standings),
            "tiebreaks": [(name, TIEBREAK_NAMES[name]) for name in tournament.tiebreaks],
            "lots": cached_part(lambda: selectors.tournament_lots(tournament=tournament)),
        },
    )


def _match_version(pk: int) -> str:
    return _found(versions.match_version(pk=pk))


def _everyone(request: HttpRequest, pk: int) -> bool:
    """Every signed-in user reads the match page every visitor shares: what they may do on it
    is their own part (``_own_actions``)."""
    return True


def _own_actions(request: HttpRequest, pk: int) -> str:
    """What the reader may do with the match's result: their own part of its page."""
    match = match_of(request, pk)  # one statement, compiled once
    actions = match_actions(request, match)
    accepted = accepted_plays(match) if "confirm" in actions else []
    context = {
        "match": match,
        "actions": actions,
        "accepted_plays": accepted,
        "set_aside": set_aside_for(request.user, match),
    }
    return render_to_string("tournaments/_match_actions.html", context, request)


#: The parts of a match's page drawn apart, each with its template.
_MATCH_PARTS = {
    "live-style": "tournaments/_match_live_style.html",
    "follow": "tournaments/_match_follow.html",
    "refresh": "tournaments/_match_refresh.html",
    "summary": "tournaments/_match_summary.html",
    "ratings": "tournaments/_match_ratings.html",
    "record": "tournaments/_match_record.html",
}


def _match_parts(version: str, pk: int) -> Parts:
    """A match's page in its parts, each drawn again only when its own part of the version
    changes: a rating draws the rating change, not the games and their replay, nor the page
    around them (which is drawn again only when the match gets a player, or its tournament a
    new status); a confirmation draws the score and status, not the games."""
    parts = versions.MatchVersion.parse(version)
    return Parts(
        Composition(
            frame=parts.frame,
            parts={
                "live-style": parts.scheduled,
                "follow": parts.scheduled,
                "refresh": parts.analysis,
                "summary": parts.match,
                "ratings": parts.ratings,
                "record": f"{parts.games}:{parts.analysis}",
            },
        ),
        _MATCH_PARTS,
        lambda request: _match_part_context(match_of(request, pk), parts),
    )


@shared_page(_match_version, reader=_everyone, parts=_match_parts, own={"actions": _own_actions})
def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    # The version is read before the match: parts drawn from a newer match than their version
    # are drawn again at the next version, never kept for a version newer than what they show.
    version = page_version(request, lambda: _match_version(pk))
    match = match_of(request, pk)
    return render(request, "tournaments/match.html", match_context(request, match, version))


def match_context(request: HttpRequest, match: Match, version: str | None = None) -> dict[str, Any]:
    """The match page's context: its parts' (``_match_part_context``) and what the viewer may
    do. ``version``: the page's (default: read now)."""
    current = _match_version(match.pk) if version is None else version
    return {
        **_match_part_context(match, versions.MatchVersion.parse(current)),
        "actions": match_actions(request, match),
    }


def _match_part_context(match: Match, version: versions.MatchVersion) -> dict[str, Any]:
    """What a match page's parts read: its games, the replay frames (as the JSON script element
    the board viewer reads), its analysis and rating changes. Each is computed only when a part
    that shows it is drawn, once per ``version`` of that part for every reader, signed in or
    not."""
    tournament = match.tournament
    followable = (
        match.status == Match.Status.SCHEDULED
        and match.home_id is not None
        and match.away_id is not None
        and tournament.status == Tournament.Status.RUNNING
    )
    games = cached_part(lambda: games_of(match.pk))
    analysis = cached_part(lambda: match_analysis(match=match) if games() else None)
    replay = cached_part(lambda: _replay(match, games(), analysis()))
    effect = cached_part(lambda: rating_selectors.match_rating_effect(match=match))

    def summary() -> str:
        rated = effect()
        if rated is None or not rated.rated:
            return ""
        return format_html(_("Rated: {summary}"), summary=rated_summary(tournament))

    return {
        "tournament": tournament,
        "match": match,
        "version": version,
        "games": games,
        "board_frames": cached_part(lambda: replay()[0]),
        "unreplayable": cached_part(lambda: replay()[1]),
        "ratings_pending": cached_part(lambda: rating_selectors.match_ratings_pending(match=match)),
        "analysis": analysis,
        "rating_effect": effect,
        "rated_summary": cached_part(summary),
        "followable": followable,
        "being_played": cached_part(lambda: followable and is_being_recorded(match.pk)),
        "decided_by": cached_part(lambda: officials.decider(match)),
        # once decided (the recording is over: they change no more)
        "clock_actions": cached_part(
            lambda: (
                []
                if match.status == Match.Status.SCHEDULED
                else officials.clock_actions(match=match)
            )
        ),
    }


def _replay(match: Match, games: list[Any], analysis: Any) -> tuple[Any, str]:
    """The board frames of the match's record (None: none) and, when the stored record does not
    replay, why."""
    try:
        return board_frames(match, games, *verdicts_of(analysis)), ""
    except GameError as error:  # stored before plays were stored as the engine made them
        logger.error("match %s: its stored record does not replay: %s", match.pk, error)
        return None, str(error)


def _player_reader(request: HttpRequest, pk: int) -> bool:
    """A signed-in user who may do nothing on the player's page (claim, merge, unlink, read the
    trail), so they read the page every visitor shares."""
    player = player_with_club(pk)
    if player is None:
        return True  # the shared page answers 404
    actions = player_actions(player=player, user=request.user)
    return actions is None or not any(vars(actions).values())


#: The parts of a player's page drawn apart, each with its template: the part of the page's
#: version it shows is ``PlayerVersion``'s field of the same name.
_PLAYER_PARTS = {
    "pr": "tournaments/_player_pr.html",
    "ratings": "tournaments/_player_ratings.html",
    "matches": "tournaments/_player_matches.html",
}


def _player_parts(version: str, pk: int) -> Parts:
    """A player's page in its parts (the PR chart, the rating histories, the matches), each
    drawn again only when its own part of the version changes: a report on a match draws the
    matches, not the charts, nor the page around them."""
    parts = versions.PlayerVersion.parse(version)
    return Parts(
        Composition(
            frame=parts.details,
            parts={"pr": parts.analyses, "ratings": parts.ratings, "matches": parts.matches},
        ),
        _PLAYER_PARTS,
        lambda request: _player_part_context(pk, parts, request.GET),
    )


def _player_part_context(
    pk: int, parts: versions.PlayerVersion, query: QueryDict
) -> dict[str, Any]:
    """What the parts of a player's page read, each computed only when its part is drawn: the
    parts are kept per their own version for every reader, signed in or not. The matches come a
    page at a time (``?page=N``; ``?discipline=``: in its tournaments only), with the player's
    record counted whole."""
    discipline = query.get("discipline", "")
    if discipline not in Tournament.Discipline.values:
        discipline = ""
    matches = selectors.player_matches_count(player_id=pk, discipline=discipline)
    page = pager(query, total=matches, size=selectors.PLAYER_MATCHES_PAGE)
    return {
        "player_id": pk,
        "version": parts,
        "pager": page,
        "discipline": discipline,
        "disciplines": Tournament.Discipline.choices,
        "record": cached_part(lambda: selectors.player_record(player_id=pk)),
        "matches": cached_part(
            lambda: selectors.player_matches(player_id=pk, page=page.number, discipline=discipline)
        ),
        "histories": cached_part(lambda: _rating_histories(pk)),
        "pr_chart": cached_part(lambda: _pr_chart(pk) if parts.analyses else None),
    }


@shared_page(
    lambda pk: _found(versions.player_version(pk=pk)),
    params={"page": page_number, "discipline": Tournament.Discipline.values},
    reader=_player_reader,
    parts=_player_parts,
)
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    version = page_version(request, lambda: _found(versions.player_version(pk=pk)))  # first
    player = player_with_club(pk)
    if player is None:
        raise Http404
    return render(
        request,
        "tournaments/player.html",
        {
            **_player_part_context(pk, versions.PlayerVersion.parse(version), request.GET),
            "player": player,
            "actions": player_actions(player=player, user=request.user),
        },
    )


#: Players a page of a search shows.
PLAYER_SEARCH_PAGE = 50


@shared_page(lambda: "player-search", params={"page": page_number}, fresh=["q"])
def player_search_page(request: HttpRequest) -> HttpResponse:
    """Players found by name (``?q=``: Cyrillic or Latin letters), a page at a time; without a
    query, the search form alone (shared)."""
    query = request.GET.get("q", "").strip()
    found = players_found(query=query).select_related("home_club") if query else None
    page = pager(request.GET, total=found.count() if found is not None else 0,
                 size=PLAYER_SEARCH_PAGE)  # fmt: skip
    return render(
        request,
        "tournaments/player_search.html",
        {
            "query": query,
            "players": page.cut(found) if found is not None else [],
            "pager": page,
        },
    )


def _rating_histories(player_id: int) -> list[dict[str, Any]]:
    """Each rating list of the player: its chart, the rating now and every change, newest first."""
    histories = []
    for (system, discipline), changes in rating_selectors.player_histories(
        player_id=player_id
    ).items():
        histories.append(
            {
                "id": f"rating-{system}-{discipline}",
                "title": f"{Tournament.RatingSystem(system).label} · "
                f"{Tournament.Discipline(discipline).label}",
                "chart": responsive_chart(
                    [(change.finished_at, change.after) for change in changes]
                ),
                "current": changes[-1].after,
                "changes": changes[::-1],  # the newest first
            }
        )
    return histories


def _pr_chart(player_id: int) -> Any:
    """The player's PR over time, a chart per variant (None: no analysed match)."""
    charts = [
        (variant, Tournament.Variant(variant).label, responsive_chart(points))
        for variant, points in player_pr_history(player_id=player_id).items()
    ]
    return charts or None


def _system_of(request: HttpRequest, discipline: str) -> str:
    """The rating system the page's query asks for (FIBS by default)."""
    if discipline not in Tournament.Discipline.values:
        raise Http404(_("There is no such discipline."))
    system = request.GET.get("system", Tournament.RatingSystem.FIBS)
    if system not in Tournament.RatingSystem.values:
        system = Tournament.RatingSystem.FIBS
    return system


def _own_position(request: HttpRequest, discipline: str) -> str:
    """The signed-in reader's own rows in the list (their linked players'), with their rank:
    drawn for them into the shared page."""
    system = _system_of(request, discipline)
    ratings = rating_selectors.list_ratings(system=system, discipline=discipline)
    own = ratings.filter(player__user=request.user)  # a user links a player or two
    rows = rating_selectors.rating_rows(list(rating_selectors.ordered_ratings(own)), of=ratings)
    size = rating_selectors.RATING_LIST_PAGE
    shown = [(row, f"?system={system}&page={page_of(row.rank - 1, size)}") for row in rows]
    return render_to_string("tournaments/_rating_own.html", {"rows": shown}, request=request)


def _lists_version(discipline: str) -> str:
    if discipline not in Tournament.Discipline.values:
        raise Http404(_("There is no such discipline."))
    return versions.rating_lists_version(discipline=discipline)


def rating_list_address(request: HttpRequest, discipline: str) -> HttpResponse:
    """``/ratings/<discipline>/``. The pairs' list had the address ``/ratings/short/?pairs=1``
    before the disciplines had lists of their own: it is sent on to ``/ratings/short-pairs/``."""
    if discipline == disciplines.SHORT and request.GET.get("pairs") == "1":
        kept = request.GET.copy()
        del kept["pairs"]
        target = reverse("rating-list", args=[disciplines.SHORT_PAIRS])
        return redirect(f"{target}?{kept.urlencode()}" if kept else target, permanent=True)
    return rating_list_page(request, discipline=discipline)


@shared_page(
    _lists_version,
    params={"system": Tournament.RatingSystem.values, "page": page_number},
    fresh=["q"],
    reader=lambda request, discipline: True,  # the page is everyone's; their own rows are drawn
    own={"position": _own_position},
)
def rating_list_page(request: HttpRequest, discipline: str) -> HttpResponse:
    """A discipline's rating list a page at a time (``RATING_LIST_PAGE`` rows), or the rows
    whose player's name has the words of ``?q=``, each with their rank in the whole list."""
    system = _system_of(request, discipline)
    ratings = rating_selectors.list_ratings(system=system, discipline=discipline)
    query = request.GET.get("q", "").strip()
    size = rating_selectors.RATING_LIST_PAGE
    if query:
        found = ratings.filter(player__in=players_found(query=query).values("pk"))
        page = pager(request.GET, total=found.count(), size=size)
        found_here = page.cut(rating_selectors.ordered_ratings(found))
        rows = rating_selectors.rating_rows(list(found_here), of=ratings)
    else:
        page = pager(request.GET, total=ratings.count(), size=size)
        rows = rating_selectors.rating_list(
            system=system, discipline=discipline, offset=page.offset, size=size
        )
    return render(
        request,
        "tournaments/rating_list.html",
        {
            "rows": rows,
            "pager": page,
            "query": query,
            "discipline": discipline,
            "discipline_name": Tournament.Discipline(discipline).label,
            "system": system,
            "disciplines": Tournament.Discipline.choices,
            "systems": Tournament.RatingSystem.choices,
        },
    )


# --- Shared by the pages -----------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    """A line of the standings table: the row, its entry, and the tie-breaks that decided its
    place with their values (a phone shows these instead of every tie-break's column)."""

    row: StandingRow
    entry: Entry
    decided_by: list[tuple[str, Fraction]]
    out: bool = False


class StandingLines(list[StandingLine]):
    """The lines of a standings table, and what its legend explains."""

    @property
    def forfeits(self) -> bool:
        """Some line has a match won or lost by forfeit (its +/− marks)."""
        return any(line.row.forfeits_won or line.row.forfeits_lost for line in self)

    @property
    def by_lots(self) -> bool:
        """Some places were decided by lots."""
        return any(line.row.lot is not None for line in self)


def standing_lines(standings: list[selectors.Standing]) -> StandingLines:
    deciders = deciding_tiebreaks([standing.row for standing in standings])
    return StandingLines(
        StandingLine(
            standing.row,
            standing.entry,
            [(str(TIEBREAK_NAMES[name]), standing.row.tiebreaks[name]) for name in names],
            standing.out,
        )
        for standing, names in zip(standings, deciders, strict=True)
    )


def rules_summary(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules in plain words, one fact a line, for its page and its print: what
    each setting's declaration says (``tournaments.declarations``), its discipline, and whether
    it is rated."""
    return [
        (str(_("Discipline")), discipline_summary(tournament)),
        *summary_of(tournament),
        (str(_("Rated")), str(rated_summary(tournament))),
    ]


def discipline_summary(tournament: Tournament) -> str:
    """The tournament's discipline in words, with its code in the register of sports where it
    is known, and the rating list it counts on."""
    name = tournament.get_discipline_display()
    code = disciplines.CODES.get(tournament.discipline)
    said = _("%(name)s (code %(code)s)") % {"name": name, "code": code} if code else str(name)
    return _("%(discipline)s: rated on its own list, apart from the other disciplines") % {
        "discipline": said
    }


def rated_summary(tournament: Tournament) -> str:
    """Whether the tournament's results count on its rating list, and who approved it (HTML:
    the officer's name is not for translating)."""
    if not tournament.rated:
        return _("no: its results count once a rating officer approves the tournament")
    if tournament.rated_by_id is None:
        return _("yes (rated before approvals were required)")
    return format_html(
        _("yes, approved by {officer} on {date}"),
        officer=format_html(
            '<span translate="no">{}</span>', rating_selectors.officer_name(tournament.rated_by_id)
        ),
        date=date_format(tournament.rated_at, "DATE_FORMAT"),
    )


def match_actions(request: HttpRequest, match: Match) -> set[str]:
    """What the viewer may do with this match's result now: the buttons the page shows. The
    services decide again when the form is sent."""
    user = request.user
    if not user.is_authenticated or match.home_id is None or match.away_id is None:
        return set()
    if match.tournament.status != Tournament.Status.RUNNING:
        return set()
    actions: set[str] = set()
    if match.status == Match.Status.SCHEDULED and may(user, "match.report", match):
        actions |= {"record", "report"}
    if match.status == Match.Status.REPORTED and may(user, "match.answer", match):
        actions |= {"confirm", "dispute"}
    if match.status in (Match.Status.REPORTED, Match.Status.DISPUTED) and may(
        user, "match.resolve", match
    ):  # an official event's judges, another's organizers
        actions.add("resolve")
    if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL) and may(
        user, "match.correct", match
    ):
        actions.add("correct")
    return actions


def _rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """The matches grouped as they are played: by round, or by bracket and bracket round. Each
    group carries its own key and version (its newest write), so that its cached HTML outlives
    the other groups' results, and its matches are read only when that HTML is missing."""
    groups = list(
        Match.objects.filter(tournament=tournament)
        .values_list("round__number", "bracket", "bracket_round")
        .annotate(version=Max("updated_at"), undecided=Count("pk", filter=selectors.UNDECIDED))
        .order_by("round__number", "bracket", "bracket_round")
    )
    rows = _GroupRows(tournament, [group[:3] for group in groups])
    return [
        {
            "title": _group_title(number, bracket, bracket_round),
            "number": number,
            "matches": cached_part(functools.partial(rows.of, index)),
            "key": str(number) if number is not None else f"{bracket}-{bracket_round}",
            "version": version.isoformat(),
            "complete": number is not None and not undecided,
        }
        for index, (number, bracket, bracket_round, version, undecided) in enumerate(groups)
    ]


_Group = tuple[int | None, str, int | None]  # round number, bracket, bracket round


class _GroupRows:
    """The matches of the groups whose cached HTML is missing, in at most two queries: the
    first group asked for is read with every group after it (while a Swiss is played only the
    last rounds change, so a new result costs their rows, not every round's); a second miss
    reads all the rest."""

    def __init__(self, tournament: Tournament, groups: list[_Group]) -> None:
        self.tournament = tournament
        self.groups = groups
        self.read: dict[_Group, list[Match]] = {}

    def of(self, index: int) -> list[Match]:
        if self.groups[index] not in self.read:
            wanted = self.groups[index:] if not self.read else self.groups
            self.read |= self._matches([group for group in wanted if group not in self.read])
        return self.read[self.groups[index]]

    def _matches(self, groups: list[_Group]) -> dict[_Group, list[Match]]:
        found: dict[_Group, list[Match]] = {group: [] for group in groups}
        matches = Match.objects.filter(tournament=self.tournament)
        if len(groups) < len(self.groups):
            numbers = [number for number, _, _ in groups if number is not None]
            wanted = Q(round__number__in=numbers)
            for number, bracket, bracket_round in groups:
                if number is None:
                    wanted |= Q(round__isnull=True, bracket=bracket, bracket_round=bracket_round)
            matches = matches.filter(wanted)
        for match in matches.select_related("round", "home__player", "away__player").order_by("pk"):
            number = match.round.number if match.round else None
            group = (number, match.bracket, match.bracket_round)
            if group in found:  # not a group paired since the groups were read
                found[group].append(match)
        return found


def _group_title(number: int | None, bracket: str, bracket_round: int | None) -> str:
    if number is not None:
        return _("Round %(n)s") % {"n": number}
    return _("%(bracket)s, round %(n)s") % {
        "bracket": BRACKET_NAMES.get(bracket, bracket),
        "n": bracket_round,
    }

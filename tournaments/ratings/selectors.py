"""Reads of the rating lists: the lists and a player's history in
them, what a match did (or would do) to its players' ratings, what is still to be rated, and
the audit trail a user may read."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet, Subquery

from nardy_site.joined import Compiled
from tournaments.models import Match, Player, Tournament
from tournaments.policy import is_rating_officer
from tournaments.ratings import history
from tournaments.ratings.ledger import as_rated, pending_holds, ratings_pending
from tournaments.ratings.models import Rating, RatingAudit, RatingChange, RatingList

User = AbstractBaseUser | AnonymousUser


def audit_trail(rating_list: RatingList, user: User) -> QuerySet[RatingAudit]:
    """What ``user`` may read of the list's trail, newest first: everything for its rating
    officers and staff, the rows of their own tournaments for organizers, else nothing."""
    rows = RatingAudit.objects.filter(rating_list=rating_list).select_related("actor")
    if is_rating_officer(rating_list, user):
        return rows
    if not user.is_authenticated:
        return rows.none()
    own = Q(tournament__organizer=user) | Q(tournament__co_organizers=user)
    return rows.filter(own).distinct()


def rating_list_revision(*, system: str, discipline: str) -> int:
    """A rating list's revision (0 before its first rating): pages showing its ratings key on
    it."""
    revision = (
        RatingList.objects.filter(system=system, discipline=discipline)
        .values_list("revision", flat=True)
        .first()
    )
    return revision or 0


@dataclass(frozen=True)
class RatingListRow:
    """One line of a rating list."""

    rank: int
    player: Player
    rating: float
    experience: int
    matches: int
    last_change: float
    last_match_at: datetime


#: Rows per page of a rating list, on the site and in the API (``?page=N``).
RATING_LIST_PAGE = 100
#: The order of a rating list: best first, then by name (and id: one order always).
_ORDER = ("-rating", "player__display_name", "player_id")


def list_ratings(
    *, system: str, discipline: str, among: QuerySet[Player] | None = None
) -> QuerySet[Rating]:
    """A rating list's cached ratings (``among``: only these players, a club's list),
    unordered: what ``rating_list`` and ``rating_rows`` page and rank."""
    the_list = RatingList.objects.filter(system=system, discipline=discipline)
    # The list's id as a value of its own (an InitPlan): each rank's count then walks the
    # index of (list, rating) from the rating up, instead of joining the lists for every row.
    ratings = Rating.objects.filter(rating_list_id=Subquery(the_list.values("pk")[:1]))
    if among is not None:
        ratings = ratings.filter(player__in=among.values("pk"))
    return ratings


def rating_list(
    *,
    system: str,
    discipline: str,
    among: QuerySet[Player] | None = None,
    offset: int = 0,
    size: int | None = RATING_LIST_PAGE,
) -> list[RatingListRow]:
    """Rows ``offset`` on of a rating list (``size`` of them; None: to the end), best first;
    ties share a rank (the first of them: 1, 2, 2, 4). Two queries whatever the list's length:
    the rows, and how many are rated above the first."""
    ratings = list_ratings(system=system, discipline=discipline, among=among)
    ordered = ordered_ratings(ratings)
    page = list(ordered[offset:] if size is None else ordered[offset : offset + size])
    return ranked(page, offset=offset, of=ratings)


def ordered_ratings(ratings: QuerySet[Rating]) -> QuerySet[Rating]:
    """``ratings`` in their list's order, each with its player."""
    return ratings.select_related("player").order_by(*_ORDER)


def ranked(page: list[Rating], *, offset: int, of: QuerySet[Rating]) -> list[RatingListRow]:
    """The rows of ``page``, the ratings ``offset`` on in ``of``'s order (``ordered_ratings``):
    ties share a rank, and the first row's is counted (one query past the first page)."""
    if not page:
        return []
    above = of.filter(rating__gt=page[0].rating).count() if offset else 0
    rows: list[RatingListRow] = []
    for position, rating in enumerate(page, start=offset + 1):
        tied = rows[-1].rank if rows and rows[-1].rating == rating.rating else None
        rows.append(_row(rating, tied or (above + 1 if not rows else position)))
    return rows


def rating_rows(page: list[Rating], *, of: QuerySet[Rating]) -> list[RatingListRow]:
    """Some rows of a list, read already (``ordered_ratings``), each with its rank in the whole
    list ``of`` (``list_ratings``): a search's rows, a player's own. One query: every rating of
    the list (numbers only: 20,000 of them read in milliseconds), against which each row's rank
    is counted here; counted by the database, row by row, a page of a search took 100 ms."""
    if not page:
        return []
    every = sorted(of.values_list("rating", flat=True))
    return [_row(rating, len(every) - bisect_right(every, rating.rating) + 1) for rating in page]


def _row(rating: Rating, rank: int) -> RatingListRow:
    return RatingListRow(
        rank=rank,
        player=rating.player,
        rating=rating.rating,
        experience=rating.experience,
        matches=rating.matches,
        last_change=rating.last_delta,
        last_match_at=rating.last_match_at,
    )


def player_rating_history(
    *, player: Player, system: str, discipline: str
) -> QuerySet[RatingChange]:
    """A player's ledger rows in a list, oldest first, each with its match and opponent known."""
    return (
        RatingChange.objects.filter(
            player=player, rating_list__system=system, rating_list__discipline=discipline
        )
        .select_related(
            "match__home__player",
            "match__away__player",
            "match__tournament__rated_by",
        )
        .order_by("finished_at", "match_id")
    )


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One rating change as a player's page lists it: the match by its tournament and players'
    names, and who approved the tournament's rating (empty: rated before approvals)."""

    finished_at: datetime
    delta: float
    after: float
    match_id: int
    tournament: str
    officer: str
    home: str
    away: str


def player_histories(*, player_id: int) -> dict[tuple[str, str], list[HistoryRow]]:
    """Every rating list the player is on, by (system, discipline) in the order of discipline
    then system, with their changes in it, oldest first: one query, compiled once (a player page is
    drawn again at each of their ratings)."""
    histories: dict[tuple[str, str], list[HistoryRow]] = {}
    for row in _PLAYER_HISTORIES.rows(player_id):
        system, discipline, finished_at, delta, after, match_id, tournament, officer, home, away = (
            row
        )
        histories.setdefault((system, discipline), []).append(
            HistoryRow(finished_at, delta, after, match_id, tournament, officer or "", home, away)
        )
    return histories


_PLAYER_HISTORIES = Compiled(
    lambda player_id: (
        RatingChange.objects.filter(player_id=player_id)
        .order_by("rating_list__discipline", "rating_list__system", "finished_at", "match_id")
        .values_list(
            "rating_list__system",
            "rating_list__discipline",
            "finished_at",
            "delta",
            "after",
            "match_id",
            "match__tournament__name",
            f"match__tournament__rated_by__{get_user_model().USERNAME_FIELD}",
            "match__home__player__display_name",
            "match__away__player__display_name",
        )
    ),
    placeholder=-424_242,
    converted=True,
)


def tournament_ratings_pending(*, tournament: Tournament) -> int:
    """Decided matches of the tournament whose rating changes are not in the ledger yet."""
    matches = Match.objects.filter(
        tournament=tournament,
        status__in=Match.DECIDED,
        home__isnull=False,
        away__isnull=False,
        forfeit="",
    ).select_related("tournament", "home", "away")
    return ratings_pending(matches)


@dataclass(frozen=True)
class RatingEffect:
    """What a decided match did to its players' ratings, or (``rated`` False: its tournament is
    not rated) what it would do to their current ratings if it were rated."""

    rated: bool
    #: (player's name, rating before, after, change) for the winner, then the loser.
    rows: list[tuple[str, float, float, float]]
    #: The change is held for a rating officer's review: ``rows`` is what it would do now.
    held: bool = False


def match_rating_effect(*, match: Match) -> RatingEffect | None:
    """The match's rating changes (None: not decided, or nothing to show yet)."""
    if match.status not in Match.DECIDED or match.home is None or match.away is None:
        return None
    names = {match.home.player_id: match.home.player.display_name,
             match.away.player_id: match.away.player.display_name}  # fmt: skip
    if match.tournament.rated:
        rows = [
            (names.get(player, ""), before, after, delta)
            for player, before, after, delta in _MATCH_CHANGES.rows(match.pk)
        ]
        if rows:
            return RatingEffect(True, rows)
    held = match.tournament.rated and bool(pending_holds([match.pk]))
    if match.tournament.rated and not held:
        return None  # not rated yet: the rating work is pending
    rated = as_rated(match)
    if rated is None:
        return None
    rating_list = RatingList.objects.filter(
        system=match.tournament.rating_system,
        discipline=match.tournament.discipline,
    ).first()
    current = {} if rating_list is None else {
        rating.player_id: history.Standing(rating.rating, rating.experience)
        for rating in Rating.objects.filter(rating_list=rating_list, player_id__in=list(names))
    }  # fmt: skip
    system = match.tournament.rating_system
    changes, _, _ = history.replay(system, [rated], current)  # type: ignore[arg-type]
    rows = [(names[c.player], c.before.rating, c.after.rating, c.delta) for c in changes]
    return RatingEffect(False, rows, held) if rows else None


def officer_name(user_id: int) -> str:
    """The user name of the rating officer who approved a tournament (compiled once: the page of
    each match of a rated tournament says who approved it)."""
    row = _USER_NAME.first(user_id)
    return "" if row is None else str(row[0])


_USER_NAME = Compiled(
    lambda pk: get_user_model().objects.filter(pk=pk).values_list(get_user_model().USERNAME_FIELD),
    placeholder=-424_242,
)

#: A match's ledger rows, the winner's first: what a match page shows (compiled once).
_MATCH_CHANGES = Compiled(
    lambda pk: (
        RatingChange.objects.filter(match_id=pk)
        .order_by("-score", "pk")
        .values_list("player_id", "before", "after", "delta")
    ),
    placeholder=-424_242,
)


def match_ratings_pending(*, match: Match) -> bool:
    """Whether the match's decided result still waits for its rating changes."""
    if match.status not in Match.DECIDED or match.home_id is None or match.away_id is None:
        return False
    return ratings_pending([match]) > 0

"""The versions of the shared pages and of the API's ETags: what a page shows changes only when
its version does (``nardy_site.page_cache``). A version reads whatever the page shows, across the
tournament, its matches, their analysis and the rating lists, in one query."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Case,
    CharField,
    Count,
    Max,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast, Concat
from django.db.models.query import QuerySet

from games.models import Game
from nardy_site.joined import Compiled
from tournaments.analysis.models import MatchAnalysis
from tournaments.models import Match, Player, Tournament
from tournaments.ratings.models import RatingChange, RatingHold, RatingList


def tournament_version(*, slug: str) -> str | None:
    """The tournament's revision and its rating list's (None: no such tournament). Every write
    to the tournament raises the one, every rating change the other."""
    row = _TOURNAMENT.first(slug)
    return None if row is None else f"{row[0]}:{row[1] or 0}"


_TOURNAMENT = Compiled(
    lambda slug: (
        Tournament.objects.filter(slug=slug)
        .annotate(ratings=_ratings_revision("rating_system", "discipline"))
        .values_list("revision", "ratings")[:1]
    ),
    placeholder="\x00slug",
)


def match_version(*, pk: int) -> str | None:
    """A match page's version (None: no such match), a ``MatchVersion``: the match's own last
    write (bracket moves save the match too), its tournament's status and rating approval, its
    rows in the rating ledger (a replay writes new ones) and its rating hold, which say whether
    its ratings are still pending or held for review, and its analysis. A match its tournament
    does not rate shows the change it would make from its players' current ratings: for it,
    their newest rows in the ledger too. Nothing else of the tournament or the rating list: the
    pages of a day's matches are not all drawn again at every result of the day."""
    row = _MATCH.first(pk)
    if row is None:
        return None
    (written, status, home, away, tournament, rated, *ledger, games, analysed) = map(str, row)
    return str(
        MatchVersion(
            frame=":".join((home, away, tournament)),
            scheduled=str(status == Match.Status.SCHEDULED),
            match=written,
            ratings=":".join((written, tournament, rated, *ledger)),
            games=games,
            analysis=analysed,
        )
    )


@dataclass(frozen=True)
class MatchVersion:
    """A match page's version in the parts the page draws apart: a rating draws the rating
    change again, not the games and their replay, nor the page around them. ``str()`` is the
    page's version; ``parse`` reads one back."""

    #: What the page around its parts shows: who plays the match, its tournament's status.
    frame: str
    #: Whether it is still to be played: whether it can be followed live.
    scheduled: str
    #: The match's last write: its score, status and dates, its games.
    match: str
    #: That, its tournament's status and approval, its ledger rows and hold (and, unrated, its
    #: players' newest rows): the rating change and whether it is pending.
    ratings: str
    #: Its newest game (a report or a correction writes them all anew): the games and replay.
    games: str
    #: Its analysis: the analysis part of the record, and whether the page refreshes itself.
    analysis: str

    def __str__(self) -> str:
        return "|".join(
            (self.frame, self.scheduled, self.match, self.ratings, self.games, self.analysis)
        )

    @classmethod
    def parse(cls, version: str) -> MatchVersion:
        frame, scheduled, match, ratings, games, analysis = version.split("|")
        return cls(frame, scheduled, match, ratings, games, analysis)


def _match_version_query(pk: int) -> QuerySet[Match]:
    unrated = ~Q(tournament__rated=True)
    return (
        Match.objects.filter(pk=pk)
        .order_by()  # one row: no joins for the matches' ordering
        .annotate(
            rated=_newest_change(match=OuterRef("pk")),
            analysed=_analysis_state(),
            held=Subquery(
                RatingHold.objects.filter(match=OuterRef("pk")).order_by().values("status")[:1]
            ),
            home_rated=Case(
                When(unrated, then=_newest_change(player=OuterRef("home__player_id"))),
                default=None,
            ),
            away_rated=Case(
                When(unrated, then=_newest_change(player=OuterRef("away__player_id"))),
                default=None,
            ),
            recorded=_newest(Game.objects.filter(match=OuterRef("pk")), "match"),
        )
        .values_list(
            "updated_at",
            "status",
            "home_id",
            "away_id",
            "tournament__status",
            "tournament__rated",
            "rated",
            "held",
            "home_rated",
            "away_rated",
            "recorded",
            "analysed",
        )[:1]  # fmt: skip
    )


_MATCH = Compiled(_match_version_query, placeholder=-424_242)


@dataclass(frozen=True)
class PlayerVersion:
    """A player page's version in the parts the page draws apart, each drawn again only when its
    own part changes: a report on one of the player's matches draws their matches again, not
    their rating charts. ``str()`` is the page's version; ``parse`` reads one back."""

    #: The player's name, club and country, which every part that lists the player shows.
    details: str
    #: Their newest rating-ledger row (a replay writes new ones): the rating histories.
    ratings: str
    #: The number of their matches and the last write to any: the matches table.
    matches: str
    #: When the newest analysis of their matches ended (empty: none has): the PR chart.
    analyses: str

    def __str__(self) -> str:
        return "|".join((self.details, self.ratings, self.matches, self.analyses))

    @classmethod
    def parse(cls, version: str) -> PlayerVersion:
        details, ratings, matches, analyses = version.split("|")
        return cls(details, ratings, matches, analyses)


def player_version(*, pk: int) -> str | None:
    """A player page's version (None: no such player): a ``PlayerVersion``, in one query.
    Tournament names, shown beside the matches, are fixed once a tournament has matches; an
    opponent renamed in the admin shows when the stored part expires."""
    row = _PLAYER.first(pk)
    if row is None:
        return None
    name, club, country, rated, home_club, *sides = row
    details = hashlib.sha256("\n".join((name, club, country, home_club or "")).encode())
    home_matches, away_matches, *seen = sides
    analysed = max((one for one in seen if one is not None), default="")
    return str(
        PlayerVersion(
            details.hexdigest()[:16], str(rated), f"{home_matches}/{away_matches}", str(analysed)
        )
    )


def _player_side(side: str) -> dict[str, Subquery]:
    """The player's matches on one side: their number and newest change, and their newest
    analysis. Each side apart, grouped by the entry's player, so that the database walks the
    player's entries (their index) and each entry's matches (the side's index): an OR of the
    two sides scanned every match."""
    matches = Match.objects.filter(**{f"{side}__player": OuterRef("pk")}).order_by()
    grouped = matches.values(f"{side}__player")
    return {
        f"{side}_matches": Subquery(
            grouped.annotate(
                both=Concat(
                    Cast(Count("pk"), CharField()),
                    Value("@"),
                    Cast(Max("updated_at"), CharField()),
                )
            ).values("both")
        ),
        f"{side}_seen": Subquery(
            grouped.annotate(seen=Max("analysis__finished_at")).values("seen")
        ),
    }


_PLAYER = Compiled(
    lambda pk: (
        Player.objects.filter(pk=pk)
        .annotate(
            rated=_newest_change(player=OuterRef("pk")),
            **_player_side("home"),
            **_player_side("away"),
        )  # fmt: skip
        .values_list(
            "display_name",
            "club",
            "country",
            "rated",
            "home_club__name",
            "home_matches",
            "away_matches",
            "home_seen",
            "away_seen",
        )[:1]  # fmt: skip
    ),
    placeholder=-424_242,
)


def tournament_list_version() -> str:
    """Every tournament's revision summed, with their number and the newest: a new, changed or
    deleted tournament changes it."""
    totals = Tournament.objects.aggregate(count=Count("pk"), newest=Max("pk"), sum=Sum("revision"))
    return f"{totals['count']}:{totals['newest']}:{totals['sum']}"


def rating_lists_version(*, discipline: str) -> str:
    """The discipline's rating lists' revisions summed: every rating change raises one."""
    lists = RatingList.objects.filter(discipline=discipline)
    total = lists.aggregate(sum=Sum("revision"))["sum"]
    return str(total or 0)


def _newest_change(**where: Any) -> Subquery:
    """The newest ledger row of a match or a player (``where``: one of them)."""
    return _newest(RatingChange.objects.filter(**where), *where)


def _newest(rows: QuerySet[Any], owner: str) -> Subquery:
    """The newest of ``rows`` (the greatest id), which all belong to one ``owner``. Grouped by
    it, so that PostgreSQL finds them by the owner's index: the newest by ORDER BY id DESC
    LIMIT 1, or a plain MAX(id), walks the table's primary key back from its newest row, as far
    as the owner's newest (a whole season's ledger for an early match)."""
    return Subquery(rows.order_by().values(owner).annotate(newest=Max("pk")).values("newest"))


def _analysis_state() -> Subquery:
    """The match's analysis: its state and when it ended (the page shows it)."""
    analyses = MatchAnalysis.objects.filter(match=OuterRef("pk")).annotate(
        state=Concat(
            "status",
            Value("@"),
            Cast("games_done", CharField()),
            Value("@"),
            Cast("finished_at", CharField()),
        )  # fmt: skip
    )
    return Subquery(analyses.values("state")[:1])


def _ratings_revision(system: str, discipline: str) -> Subquery:
    lists = RatingList.objects.filter(system=OuterRef(system), discipline=OuterRef(discipline))
    return Subquery(lists.order_by().values("revision")[:1])

"""Reads: what the pages, the API and the tasks show, in a fixed number of queries."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import CharField, Count, Max, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Cast, Concat

from tournaments.analysis.models import MatchAnalysis
from tournaments.formats import elimination
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.ratings import history
from tournaments.ratings.history import INITIAL_RATING
from tournaments.ratings.ledger import as_rated, pending_holds, ratings_pending
from tournaments.ratings.models import Rating, RatingChange, RatingList
from tournaments.scoring import MatchPoints
from tournaments.standings import Entrant, Result, StandingRow, compute


def entry_ratings(*, tournament: Tournament) -> dict[int, float]:
    """Each rated entry's current rating in the tournament's rating list, by entry id."""
    return dict(
        Rating.objects.filter(
            rating_list__system=tournament.rating_system,
            rating_list__variant=tournament.variant,
            player__entries__tournament=tournament,
        ).values_list("player__entries__pk", "rating")
    )


# --- Versions: what a page shows changes only when its version does -------------------------


def tournament_version(*, slug: str) -> str | None:
    """The tournament's revision and its rating list's (None: no such tournament). Every write
    to the tournament raises the one, every rating change the other."""
    row = (
        Tournament.objects.filter(slug=slug)
        .annotate(ratings=_ratings_revision("rating_system", "variant"))
        .values_list("revision", "ratings")
        .first()
    )
    return None if row is None else f"{row[0]}:{row[1] or 0}"


def match_version(*, pk: int) -> str | None:
    """A match page's version (None: no such match): the match's own last write (bracket moves
    save the match too), its tournament's status, and its rows in the rating ledger (a replay
    writes new ones), which say whether its ratings are still pending."""
    row = (
        Match.objects.filter(pk=pk)
        .annotate(
            rated=_newest_change(match=OuterRef("pk")),
            ratings=_ratings_revision("tournament__rating_system", "tournament__variant"),
            analysed=_analysis_state(),
        )
        .values_list(
            "updated_at",
            "tournament__status",
            "rated",
            "tournament__revision",
            "ratings",
            "analysed",
        )  # fmt: skip
        .first()
    )
    # The tournament's revision (its rating approval) and its list's (an unrated match shows the
    # change it would make from the players' current ratings).
    return None if row is None else ":".join(str(part) for part in (row[0].isoformat(), *row[1:]))


def player_version(*, pk: int) -> str | None:
    """A player page's version (None: no such player): the player's details, the last write to
    any of their matches, their number, and their newest rating-ledger row (a replay writes new
    ones). Tournament names, shown beside the matches, are fixed once a tournament has matches;
    an opponent renamed in the admin shows when the stored page expires."""
    row = (
        Player.objects.filter(pk=pk)
        .annotate(rated=_newest_change(player=OuterRef("pk")))
        .values_list("display_name", "club", "country", "rated", "home_club__name")
        .first()
    )
    if row is None:
        return None
    matches = Match.objects.filter(Q(home__player=pk) | Q(away__player=pk)).aggregate(
        count=Count("pk"), newest=Max("updated_at"), analysed=Max("analysis__finished_at")
    )
    newest = matches["newest"].isoformat() if matches["newest"] else ""
    details = hashlib.sha256("\n".join((*row[:3], row[4] or "")).encode()).hexdigest()[:16]
    return f"{details}:{row[3]}:{matches['count']}:{newest}:{matches['analysed']}"


def tournament_list_version() -> str:
    """Every tournament's revision summed, with their number and the newest: a new, changed or
    deleted tournament changes it."""
    totals = Tournament.objects.aggregate(count=Count("pk"), newest=Max("pk"), sum=Sum("revision"))
    return f"{totals['count']}:{totals['newest']}:{totals['sum']}"


def rating_list_revision(*, system: str, variant: str) -> int:
    """A rating list's revision (0 before its first rating): pages showing its ratings key on
    it."""
    revision = (
        RatingList.objects.filter(system=system, variant=variant)
        .values_list("revision", flat=True)
        .first()
    )
    return revision or 0


def rating_lists_version(*, variant: str) -> str:
    """The variant's rating lists' revisions summed: every rating change raises one."""
    total = RatingList.objects.filter(variant=variant).aggregate(sum=Sum("revision"))["sum"]
    return str(total or 0)


def _newest_change(**where: Any) -> Subquery:
    changes = RatingChange.objects.filter(**where).order_by("-pk")
    return Subquery(changes.values("pk")[:1])


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


def _ratings_revision(system: str, variant: str) -> Subquery:
    lists = RatingList.objects.filter(system=OuterRef(system), variant=OuterRef(variant))
    return Subquery(lists.order_by().values("revision")[:1])


def tournament_list() -> QuerySet[Tournament]:
    """All tournaments, newest first, each with ``entry_count`` (the stages of a two-stage
    event are shown on its page, not here)."""
    return Tournament.objects.filter(parent__isnull=True).annotate(entry_count=Count("entries"))


@dataclass(frozen=True)
class Standing:
    """A standings row with its entry (and player) loaded."""

    row: StandingRow
    entry: Entry


def tournament_standings(*, tournament: Tournament) -> list[Standing]:
    """The standings of a round robin or Swiss tournament, by its points and tie-break order.

    Three queries whatever the size: the entries with their players, their current ratings in
    the tournament's rating list (1500 for the unrated), and the decided matches of the rounds.
    """
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
    matches = Match.objects.filter(
        tournament=tournament, round__isnull=False, status__in=Match.DECIDED
    ).values_list(*STANDINGS_MATCH_FIELDS)
    ratings = entry_ratings(tournament=tournament)
    return standings_of(tournament, entries, list(matches), ratings)


#: The columns of a decided round match that the standings read, as ``standings_of`` takes them.
STANDINGS_MATCH_FIELDS = (
    "round__number", "home_id", "away_id", "winner_id", "score_home", "score_away"
)  # fmt: skip


def standings_of(
    tournament: Tournament,
    entries: list[Entry],
    matches: list[tuple[Any, ...]],
    ratings: dict[int, float],
) -> list[Standing]:
    """The standings from rows already read: the entries (with players), the decided round
    matches (``STANDINGS_MATCH_FIELDS``) and the entries' ratings. No query."""
    by_id = {entry.pk: entry for entry in entries}
    results = []
    for number, home, away, winner, score_home, score_away in matches:
        if away is None:
            results.append(Result.bye(number, home))
        else:
            results.append(Result(number, home, away, winner, score_home or 0, score_away or 0))
    points = MatchPoints(
        win=tournament.points_win,
        draw=tournament.points_draw,
        loss=tournament.points_loss,
        bye=tournament.points_bye,
    )
    rows = compute(
        [Entrant(entry_id, ratings.get(entry_id, INITIAL_RATING)) for entry_id in by_id],
        results,
        tournament.tiebreaks,
        points=points,
        rounds=tournament.swiss_rounds if tournament.format == Tournament.Format.SWISS else None,
    )
    return [Standing(row, by_id[row.entrant.id]) for row in rows]


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


def rating_list(
    *, system: str, variant: str, among: QuerySet[Player] | None = None
) -> list[RatingListRow]:
    """A rating list, best first (ties share a rank), in one query; ``among``: only these
    players, ranked among themselves (a club's list)."""
    ratings = Rating.objects.filter(rating_list__system=system, rating_list__variant=variant)
    if among is not None:
        ratings = ratings.filter(player__in=among.values("pk"))
    ratings = ratings.select_related("player").order_by("-rating", "player__display_name")
    rows: list[RatingListRow] = []
    for position, rating in enumerate(ratings, start=1):
        tied = rows and rows[-1].rating == rating.rating
        rows.append(
            RatingListRow(
                rank=rows[-1].rank if tied else position,
                player=rating.player,
                rating=rating.rating,
                experience=rating.experience,
                matches=rating.matches,
                last_change=rating.last_delta,
                last_match_at=rating.last_match_at,
            )
        )
    return rows


def player_rating_history(*, player: Player, system: str, variant: str) -> QuerySet[RatingChange]:
    """A player's ledger rows in a list, oldest first, each with its match and opponent known."""
    return (
        RatingChange.objects.filter(
            player=player, rating_list__system=system, rating_list__variant=variant
        )
        .select_related(
            "match__home__player",
            "match__away__player",
            "match__tournament__rated_by",
        )
        .order_by("finished_at", "match_id")
    )


def tournament_ratings_pending(*, tournament: Tournament) -> int:
    """Decided matches of the tournament whose rating changes are not in the ledger yet."""
    matches = Match.objects.filter(
        tournament=tournament, status__in=Match.DECIDED, home__isnull=False, away__isnull=False
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
        changes = RatingChange.objects.filter(match=match).order_by("-score", "pk")
        rows = [(names.get(c.player_id, ""), c.before, c.after, c.delta) for c in changes]
        if rows:
            return RatingEffect(True, rows)
    held = match.tournament.rated and bool(pending_holds([match.pk]))
    if match.tournament.rated and not held:
        return None  # not rated yet: the rating work is pending
    rated = as_rated(match)
    if rated is None:
        return None
    rating_list = RatingList.objects.filter(
        system=match.tournament.rating_system, variant=match.tournament.variant
    ).first()
    current = {} if rating_list is None else {
        rating.player_id: history.Standing(rating.rating, rating.experience)
        for rating in Rating.objects.filter(rating_list=rating_list, player_id__in=list(names))
    }  # fmt: skip
    system = match.tournament.rating_system
    changes, _, _ = history.replay(system, [rated], current)  # type: ignore[arg-type]
    rows = [(names[c.player], c.before.rating, c.after.rating, c.delta) for c in changes]
    return RatingEffect(False, rows, held) if rows else None


def match_ratings_pending(*, match: Match) -> bool:
    """Whether the match's decided result still waits for its rating changes."""
    if match.status not in Match.DECIDED or match.home_id is None or match.away_id is None:
        return False
    return ratings_pending([match]) > 0


def player_rating_lists(*, player: Player) -> list[tuple[str, str]]:
    """The (system, variant) lists the player has a rating in."""
    return list(
        Rating.objects.filter(player=player)
        .order_by("rating_list__variant", "rating_list__system")
        .values_list("rating_list__system", "rating_list__variant")
    )


def player_matches(*, player: Player) -> QuerySet[Match]:
    """The player's matches with both sides known, newest first, with what their rows show."""
    return (
        Match.objects.filter(Q(home__player=player) | Q(away__player=player))
        .exclude(home__isnull=True)
        .select_related("tournament", "round", "home__player", "away__player")
        # Only the columns the rows show: a tournament row is wide, and a player has many.
        .only(
            *("slot", "status", "score_home", "score_away", "winner_id"),
            *("tournament__name", "tournament__slug", "round__number"),
            *("home__player__display_name", "away__player__display_name"),
        )
        .order_by("-tournament__created_at", "-pk")
    )


def correction_reaches(*, match: Match) -> list[Match]:
    """The later bracket matches with a result that a correction of ``match`` may reset: those
    it feeds a winner or loser to, and those they feed in turn (one query)."""
    if not match.slot:
        return []
    fed_by: dict[str, list[Match]] = {}
    later = (
        Match.objects.filter(tournament_id=match.tournament_id)
        .exclude(slot="")
        .select_related("home__player", "away__player")
    )
    for candidate in later:
        for source in (candidate.home_source or {}, candidate.away_source or {}):
            feeder = source.get("winner_of") or source.get("loser_of")
            if feeder:
                fed_by.setdefault(feeder, []).append(candidate)
    reached: dict[int, Match] = {}
    waiting = [match.slot]
    while waiting:
        for candidate in fed_by.get(waiting.pop(), []):
            if candidate.pk not in reached:
                reached[candidate.pk] = candidate
                waiting.append(candidate.slot)
    return [m for m in reached.values() if m.status != Match.Status.SCHEDULED]


@dataclass(frozen=True)
class MyMatch:
    """A match seen from the side of one of the user's players."""

    match: Match
    mine: Entry
    opponent: Entry | None
    my_score: Decimal | None
    their_score: Decimal | None


def user_matches(*, user: AbstractBaseUser | AnonymousUser) -> dict[str, list[MyMatch]]:
    """The matches of the user's players, grouped: ``to_play``, ``to_answer`` (the opponent
    reported), ``waiting`` (for the opponent or an organizer) and ``decided``; one query."""
    matches = (
        Match.objects.filter(Q(home__player__user=user) | Q(away__player__user=user))
        .select_related("tournament", "round", "home__player", "away__player")
        .order_by(
            "-tournament__created_at", "tournament__pk", "round__number", "bracket_round", "pk"
        )
    )
    groups: dict[str, list[MyMatch]] = {
        "to_play": [],
        "to_answer": [],
        "waiting": [],
        "decided": [],
    }
    for match in matches:
        mine_home = match.home is not None and match.home.player.user_id == user.pk
        row = MyMatch(
            match=match,
            mine=match.home if mine_home else match.away,  # type: ignore[arg-type]
            opponent=match.away if mine_home else match.home,
            my_score=match.score_home if mine_home else match.score_away,
            their_score=match.score_away if mine_home else match.score_home,
        )
        if match.status in Match.DECIDED:
            groups["decided"].append(row)
        elif match.status == Match.Status.SCHEDULED:
            groups["to_play"].append(row)
        elif match.status == Match.Status.REPORTED and match.reported_by_id != user.pk:
            groups["to_answer"].append(row)
        else:  # reported by the user, or disputed: the opponent or an organizer acts next
            groups["waiting"].append(row)
    return groups


def bracket_places(*, tournament: Tournament) -> list[tuple[int, Entry]]:
    """The final places of an elimination tournament once its bracket is played out (shared
    places as the format has them), best first; empty while a needed match is undecided."""
    entries = list(tournament.entries.filter(seed__isnull=False).select_related("player"))
    decided = Match.objects.filter(
        tournament=tournament, status__in=Match.DECIDED, winner__isnull=False
    ).exclude(slot="")
    return places_of(tournament, entries, [(m.slot, m.home_id, m.winner_id) for m in decided])


def places_of(
    tournament: Tournament, entries: list[Entry], decided: list[tuple[str, int | None, int]]
) -> list[tuple[int, Entry]]:
    """``bracket_places`` from rows already read: the entries, and the decided bracket matches
    as (slot, home entry id, winner entry id). No query."""
    seeded = {entry.seed: entry for entry in entries if entry.seed is not None}
    if tournament.status == Tournament.Status.DRAFT or len(seeded) < 2:
        return []
    winners: dict[str, Literal["home", "away"]] = {
        slot: "home" if winner == home else "away" for slot, home, winner in decided if slot
    }
    try:
        places = elimination.places(tournament.bracket_plan(len(seeded)), winners)
    except ValueError:  # not played out yet
        return []
    return sorted(((place, seeded[seed]) for seed, place in places.items()), key=lambda p: p[0])

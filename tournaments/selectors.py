"""Reads: what the pages, the API and the tasks show, in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, QuerySet

from tournaments.models import Entry, Match, Player, Rating, RatingChange, Tournament
from tournaments.ratings.history import INITIAL_RATING
from tournaments.results import DECIDED
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


def tournament_list() -> QuerySet[Tournament]:
    """All tournaments, newest first, each with ``entry_count``."""
    return Tournament.objects.annotate(entry_count=Count("entries"))


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
    entries = {
        entry.pk: entry
        for entry in Entry.objects.filter(tournament=tournament).select_related("player")
    }
    matches = Match.objects.filter(
        tournament=tournament, round__isnull=False, status__in=DECIDED
    ).values_list("round__number", "home_id", "away_id", "winner_id", "score_home", "score_away")
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
    ratings = entry_ratings(tournament=tournament)
    rows = compute(
        [Entrant(entry_id, ratings.get(entry_id, INITIAL_RATING)) for entry_id in entries],
        results,
        tournament.tiebreaks,
        points=points,
        rounds=tournament.swiss_rounds if tournament.format == Tournament.Format.SWISS else None,
    )
    return [Standing(row, entries[row.entrant.id]) for row in rows]


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


def rating_list(*, system: str, variant: str) -> list[RatingListRow]:
    """A rating list, best first (ties share a rank), in one query."""
    ratings = (
        Rating.objects.filter(rating_list__system=system, rating_list__variant=variant)
        .select_related("player")
        .order_by("-rating", "player__display_name")
    )
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
        .select_related("match__home__player", "match__away__player", "match__tournament")
        .order_by("finished_at", "match_id")
    )

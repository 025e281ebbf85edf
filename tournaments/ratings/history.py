"""Rating history: rated matches in their order, turned into ledger changes. Pure: no Django.

The ledger writers give ``replay`` the players' standings just before the first match and the
matches in order; it returns one ``Change`` per player per match. FIBS (the default) rates by
match length and experience; a drawn match (only a fixed number of games can end level) is not
rated by FIBS, which has no draws, and counts ½ each under Elo.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from tournaments.ratings import elo, fibs

System = Literal["fibs", "elo"]
INITIAL_RATING = 1500.0
ELO_K = 32.0
#: The longest match the FIBS formula is given: a longer match is rated, and counts in
#: experience, as one of this many points. The formula's sqrt(n) assumes each game is worth one
#: point; FIBS's own match statistics (M. Rinta-Nikkola's analyses on rec.games.backgammon, 1998
#: and 2000) showed that the skill in a match grows more slowly with its length once gammons and
#: the cube count, so long matches were overrated. At 25 no single match moves a rating by more
#: than 100 points, even a newcomer's: 4 × K (at most 5) × sqrt(25) × P (at most 1) ≤ 100.
FIBS_MAX_LENGTH = 25

OrderKey = tuple[datetime, int]  # when the match was decided, then its id


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A decided match between two players: ``first`` won unless ``drawn``."""

    key: OrderKey
    first: int
    second: int
    length: int
    drawn: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a player stands in a list: its rating and experience (sum of rated lengths)."""

    rating: float = INITIAL_RATING
    experience: int = 0


@dataclass(frozen=True, slots=True)
class Change:
    """One ledger row: what one match did to one player."""

    key: OrderKey
    player: int
    score: float
    before: Standing
    after: Standing

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's place in a list after some matches: what the cached ``Rating`` row holds."""

    standing: Standing
    matches: int
    last_delta: float
    last_at: datetime


def tally(tallies: dict[int, Tally], changes: Iterable[Change]) -> None:
    """Move ``tallies`` on by ``changes`` (in their order)."""
    for change in changes:
        tallies[change.player] = next_tally(
            tallies.get(change.player), change.after, change.delta, change.key[0]
        )


def next_tally(before: Tally | None, after: Standing, delta: float, at: datetime) -> Tally:
    """A player's place after one more rated match (``before``: None, their first)."""
    return Tally(after, 1 if before is None else before.matches + 1, delta, at)


@dataclass(frozen=True, slots=True)
class Review:
    """The anomaly guard: a match that would move a rating by more than ``threshold`` points is
    held (left out, for a rating officer to look at) unless its match id is in ``confirmed``."""

    threshold: float
    confirmed: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Held:
    """A match the guard left out, and the largest change it would have made."""

    match: RatedMatch
    largest: float


def replay(
    system: System,
    matches: Iterable[RatedMatch],
    start: Mapping[int, Standing],
    review: Review | None = None,
) -> tuple[list[Change], dict[int, Standing], list[Held]]:
    """The changes of ``matches`` (in order) from ``start``, every standing at the end, and the
    matches ``review`` held (their changes are not made: later matches go on without them)."""
    standings = dict(start)
    changes: list[Change] = []
    held: list[Held] = []
    for match in matches:
        first = standings.get(match.first, Standing())
        second = standings.get(match.second, Standing())
        scores = (0.5, 0.5) if match.drawn else (1.0, 0.0)
        length = rated_length(match.length)
        if system == "fibs":
            if match.drawn:
                continue
            gain, loss = fibs.change(
                first.rating, first.experience, second.rating, second.experience, length
            )
        elif system == "elo":
            gain = elo.change(first.rating, second.rating, scores[0], ELO_K)
            loss = elo.change(second.rating, first.rating, scores[1], ELO_K)
        else:
            raise ValueError(f"unknown rating system {system!r}")
        largest = max(abs(gain), abs(loss))
        if (
            review is not None
            and largest > review.threshold
            and match.key[1] not in review.confirmed
        ):
            held.append(Held(match, largest))
            continue
        for player, before, score, delta in (
            (match.first, first, scores[0], gain),
            (match.second, second, scores[1], loss),
        ):
            after = Standing(before.rating + delta, before.experience + length)
            standings[player] = after
            changes.append(Change(match.key, player, score, before, after))
    return changes, standings, held


def rated_length(length: int) -> int:
    """The match length the rating maths uses: at most ``FIBS_MAX_LENGTH``.

    >>> rated_length(7), rated_length(99999)
    (7, 25)
    """
    return min(length, FIBS_MAX_LENGTH)

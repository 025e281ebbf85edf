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


def replay(
    system: System, matches: Iterable[RatedMatch], start: Mapping[int, Standing]
) -> tuple[list[Change], dict[int, Standing]]:
    """The changes of ``matches`` (in order) from ``start``, and every standing at the end."""
    standings = dict(start)
    changes: list[Change] = []
    for match in matches:
        first = standings.get(match.first, Standing())
        second = standings.get(match.second, Standing())
        scores = (0.5, 0.5) if match.drawn else (1.0, 0.0)
        if system == "fibs":
            if match.drawn:
                continue
            gain, loss = fibs.change(
                first.rating, first.experience, second.rating, second.experience, match.length
            )
        elif system == "elo":
            gain = elo.change(first.rating, second.rating, scores[0], ELO_K)
            loss = elo.change(second.rating, first.rating, scores[1], ELO_K)
        else:
            raise ValueError(f"unknown rating system {system!r}")
        for player, before, score, delta in (
            (match.first, first, scores[0], gain),
            (match.second, second, scores[1], loss),
        ):
            after = Standing(before.rating + delta, before.experience + match.length)
            standings[player] = after
            changes.append(Change(match.key, player, score, before, after))
    return changes, standings

"""The season table: each event's finish turned into points, and the players ranked. Pure.

Points per event, by the season's rule:

* ``"place"``: the points of the player's final place in a table (25, 18, 15, 12, 10, 8, 6, 4, 2,
  1 by default); places past its end earn nothing. Players who share a place (the two semifinal
  losers of a bracket, both 3rd) each earn that place's points.
* ``"wins"``: the points of a match won times the matches won; a drawn match counts half.

"Best N of M": with ``best_of`` set, only each player's N best events count (equal points: the
earlier event counts); the others are shown, struck out.

Ranking, best first: counted points; then countback (more 1st places, then more 2nd places …, over
all events played); then the points of all events, dropped ones included. Players equal on all of
these share the rank. ``running`` gives each player's counted points after each event, in the
season's order, for the chart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal, TypeAlias

__all__ = [
    "DEFAULT_PLACE_POINTS",
    "MAX_PLACE_POINTS",
    "EventFinish",
    "EventPoints",
    "Rule",
    "SeasonRow",
    "event_points",
    "season_table",
]

Number: TypeAlias = int | float | Decimal | Fraction
Scoring: TypeAlias = Literal["place", "wins"]

DEFAULT_PLACE_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
MAX_PLACE_POINTS = 64


@dataclass(frozen=True, slots=True)
class EventFinish:
    """How a player finished one event: the final place (shared places repeat) and the matches
    won (a draw counts half)."""

    event: int
    player: int
    place: int
    wins: Fraction


@dataclass(frozen=True, slots=True)
class Rule:
    scoring: Scoring = "place"
    place_points: Sequence[Number] = DEFAULT_PLACE_POINTS
    win_points: Number = 1
    best_of: int | None = None


@dataclass(frozen=True, slots=True)
class EventPoints:
    event: int
    place: int
    wins: Fraction
    points: Fraction
    counted: bool


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int
    player: int
    points: Fraction
    all_points: Fraction
    #: One item per event of the season, in its order; None where the player did not play.
    events: tuple[EventPoints | None, ...]
    #: Counted points after each event of the season (for the chart).
    running: tuple[Fraction, ...]

    @property
    def played(self) -> int:
        return sum(1 for item in self.events if item is not None)


def event_points(finish: EventFinish, rule: Rule) -> Fraction:
    """The points one finish earns under ``rule``."""
    if rule.scoring == "wins":
        return _fraction(rule.win_points) * finish.wins
    if 1 <= finish.place <= len(rule.place_points):
        return _fraction(rule.place_points[finish.place - 1])
    return Fraction(0)


def season_table(
    events: Sequence[int], finishes: Iterable[EventFinish], rule: Rule
) -> list[SeasonRow]:
    """The table of a season whose events (ids, in the season's order) ended with ``finishes``:
    every player with at least one finish, ranked best first."""
    order = {event: index for index, event in enumerate(events)}
    by_player: dict[int, list[EventFinish]] = {}
    for finish in finishes:
        if finish.event not in order:
            raise ValueError(f"event {finish.event} is not one of the season's")
        by_player.setdefault(finish.player, []).append(finish)
    rows = [_row(player, played, order, rule) for player, played in by_player.items()]
    keys = {row.player: _key(row) for row in rows}
    rows.sort(key=lambda row: (keys[row.player], row.player))
    ranked: list[SeasonRow] = []
    for index, row in enumerate(rows):
        tied = ranked and keys[ranked[-1].player] == keys[row.player]
        rank = ranked[-1].rank if tied else index + 1
        ranked.append(
            SeasonRow(rank, row.player, row.points, row.all_points, row.events, row.running)
        )
    return ranked


# --- Inside ------------------------------------------------------------------------------------


def _row(player: int, played: list[EventFinish], order: dict[int, int], rule: Rule) -> SeasonRow:
    played = sorted(played, key=lambda finish: order[finish.event])
    if len({finish.event for finish in played}) != len(played):
        raise ValueError(f"player {player} finishes an event twice")
    points = [event_points(finish, rule) for finish in played]
    counted = _counted(points, rule.best_of)
    slots: list[EventPoints | None] = [None] * len(order)
    for index, finish in enumerate(played):
        slots[order[finish.event]] = EventPoints(
            finish.event, finish.place, finish.wins, points[index], index in counted
        )
    # The counted points after each event: they change only at the player's own events (a
    # player plays a few of a season's many).
    running: list[Fraction] = []
    so_far: list[Fraction] = []
    now = Fraction(0)
    for slot in slots:
        if slot is not None:
            so_far.append(slot.points)
            now = sum((so_far[i] for i in _counted(so_far, rule.best_of)), Fraction(0))
        running.append(now)
    total = sum((points[index] for index in counted), Fraction(0))
    return SeasonRow(0, player, total, sum(points, Fraction(0)), tuple(slots), tuple(running))


def _counted(points: Sequence[Fraction], best_of: int | None) -> set[int]:
    """The indexes of the events that count: all, or the ``best_of`` best (earlier on ties)."""
    if best_of is None or best_of >= len(points):
        return set(range(len(points)))
    ranked = sorted(range(len(points)), key=lambda index: (-points[index], index))
    return set(ranked[:best_of])


def _key(row: SeasonRow) -> tuple[object, ...]:
    """The sort key, best first: counted points, countback of places (more 1st places, then
    more 2nd places …), all points. The countback compares the player's places in ascending
    order, one at a time: the first that differs decides, the lower place ahead (it is one more
    of that place), and a list that has ended loses to any place (its end is past them all)."""
    places = sorted(item.place for item in row.events if item is not None)
    return (-row.points, (*places, math.inf), -row.all_points)


def _fraction(value: Number) -> Fraction:
    return Fraction(str(value)) if isinstance(value, float | Decimal) else Fraction(value)

"""The final protocol of an event, as one document: everything it says, already in the reader's
language, which the page, the PDF and the spreadsheet each draw. Pure: no Django (the selector
``tournaments.protocol.selectors.tournament_protocol`` fills it in a fixed number of queries).

>>> tiebreak_cells(("buchholz", "wins"), {"buchholz": "12", "wins": "3"}, ("wins",))
('', '3')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: What an unknown value prints as (a discipline without a known code).
UNKNOWN = "—"


@dataclass(frozen=True, slots=True)
class Fact:
    """A line of the title block: "Discipline: Long Nardy blitz"."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class Line:
    """A player's line of the final standings. ``birth_year``, ``region`` and ``rank`` are
    empty where the protocol does not publish them (an event that is not official)."""

    place: int | None
    name: str
    birth_year: str
    region: str
    rank: str
    club: str
    points: str
    #: One cell for each of the protocol's tie-break columns: the value where it decided the
    #: player's place, "" where it did not.
    tiebreaks: tuple[str, ...]
    #: The rank whose norm the player met ("": none).
    norm: str = ""
    #: Why the player's line is marked (withdrawn, removed by the chief judge; "": not).
    note: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """A match of a round: its sides and its score ("7:3", "+:−", "" while undecided)."""

    home: str
    away: str
    score: str
    #: "home", "away" or "" (none, or not decided).
    winner: str = ""


@dataclass(frozen=True, slots=True)
class RoundResults:
    title: str
    results: tuple[Result, ...]


@dataclass(frozen=True, slots=True)
class Signature:
    """A signature line of the panel: its role and the judge's name ("" for a blank line)."""

    role: str
    name: str


@dataclass(frozen=True)
class Protocol:
    """Everything the protocol says. Strings are in the language it was built in."""

    title: str
    #: "Final protocol" or, before the finish, the provisional one.
    heading: str
    official: bool
    finished: bool
    #: Whether the birth year, the region and the rank are published (an official event).
    personal: bool
    facts: tuple[Fact, ...]
    #: The names of the tie-break columns (only those that decided a place).
    tiebreak_names: tuple[str, ...]
    lines: tuple[Line, ...]
    rounds: tuple[RoundResults, ...]
    signatures: tuple[Signature, ...]
    #: The norms' table is the shipped example (the official one could not be found).
    norms_example: bool = False
    #: The sport and its code in the register of sports ("Sport: nardy (code …)").
    sport: str = ""
    #: When and where it was made ("Made on 29 November 2026 by nardy").
    footer: str = ""

    @property
    def with_norms(self) -> bool:
        return any(line.norm for line in self.lines)

    @property
    def with_points(self) -> bool:
        """Whether the standings have points (not a knockout event's, placed by its bracket):
        the page, the PDF and the spreadsheet leave the column out otherwise."""
        return any(line.points for line in self.lines)


def tiebreak_cells(
    columns: Sequence[str], values: Mapping[str, str], deciding: Sequence[str]
) -> tuple[str, ...]:
    """A line's cells under the tie-break ``columns``: its value where that tie-break decided
    its place (``deciding``), else nothing."""
    return tuple(values.get(name, "") if name in deciding else "" for name in columns)


def deciding_columns(columns: Sequence[str], deciders: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The tie-breaks, in their order, that decided some place: the protocol's columns."""
    used = {name for names in deciders for name in names}
    return tuple(name for name in columns if name in used)

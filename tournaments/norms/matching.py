"""Which rank norm each player met: pure (no Django).

A norm (the shape of the ЕВСК's tables in other sports) says: at an event of a status, in a
discipline, for a gender ("": either), a place of ``places_up_to`` or better among at least
``participants_from`` participants meets ``rank``. A player meets every norm whose conditions
their place and the event's count meet; the norm that counts is the one of the highest rank (of
those, the one asking the most participants, then the best place: the row a protocol cites).

>>> norms = [
...     Norm("championship-of-russia", "long", "male", "kms", 16, 1),
...     Norm("championship-of-russia", "long", "male", "1", 40, 8),
... ]
>>> best_norm(norms, status="championship-of-russia", discipline="long", gender="male",
...           participants=116, place=1).rank
'kms'
>>> best_norm(norms, status="championship-of-russia", discipline="long", gender="male",
...           participants=46, place=8).rank
'1'
>>> best_norm(norms, status="championship-of-russia", discipline="long", gender="male",
...           participants=30, place=8) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

#: The sport ranks and titles lowest first, as ``Player.SportRank`` stores them.
RANK_ORDER: tuple[str, ...] = ("3y", "2y", "1y", "3", "2", "1", "kms", "ms", "msmk")

#: A tournament's category ("men", "women", "": open) as the norms' gender ("male", "female",
#: "": either).
GENDER_OF_CATEGORY: dict[str, str] = {"men": "male", "women": "female"}


@dataclass(frozen=True, slots=True)
class Norm:
    """One row of the table of norms."""

    status: str
    discipline: str
    gender: str
    rank: str
    participants_from: int
    places_up_to: int
    example: bool = False

    def met_by(
        self, *, status: str, discipline: str, gender: str, participants: int, place: int
    ) -> bool:
        """Whether a player of ``place`` among ``participants`` at such an event meets it. An
        open event (no gender) meets only the norms for either gender."""
        return (
            self.status == status
            and self.discipline == discipline
            and self.gender in ("", gender)
            and participants >= self.participants_from
            and 1 <= place <= self.places_up_to
        )


def rank_level(rank: str) -> int:
    """How high a rank is: 0 for none, 1 for the 3rd youth rank … (an unknown rank: 0)."""
    return RANK_ORDER.index(rank) + 1 if rank in RANK_ORDER else 0


def best_norm(
    norms: Iterable[Norm],
    *,
    status: str,
    discipline: str,
    gender: str,
    participants: int,
    place: int,
) -> Norm | None:
    """The norm of the highest rank a player of ``place`` met (None: none)."""
    met = [
        norm
        for norm in norms
        if norm.met_by(
            status=status,
            discipline=discipline,
            gender=gender,
            participants=participants,
            place=place,
        )
    ]
    if not met:
        return None
    return max(
        met, key=lambda norm: (rank_level(norm.rank), norm.participants_from, -norm.places_up_to)
    )


K = TypeVar("K")


def norms_met(
    norms: Iterable[Norm],
    *,
    status: str,
    discipline: str,
    category: str,
    participants: int,
    places: Mapping[K, int],
) -> dict[K, Norm]:
    """For each player (any key) of ``places`` who met a norm, the norm of the highest rank.
    ``category`` is the tournament's ("men", "women", "": open)."""
    table = [norm for norm in norms if norm.status == status and norm.discipline == discipline]
    gender = GENDER_OF_CATEGORY.get(category, "")
    found = {}
    for key, place in places.items():
        norm = best_norm(
            table,
            status=status,
            discipline=discipline,
            gender=gender,
            participants=participants,
            place=place,
        )
        if norm is not None:
            found[key] = norm
    return found

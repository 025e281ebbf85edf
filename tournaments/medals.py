"""Standings by region and the regional medal table of official events. Pure.

An official event's players represent the subjects of the Russian Federation (``regions``). Its
finish, grouped by region, lists each region's players with their places; its medal table counts
the golds, silvers and bronzes (places 1, 2 and 3; places shared, as a bracket's two 3rds, each
take the medal) of each region, ordered as medal tables are: by golds, then silvers, then
bronzes. Regions level on all three share their rank. A series of events (a season) adds its
events' medals up. Players without a region are counted under ``NO_REGION``.

>>> table = medal_table([Finish(1, "RU-MOW", 1), Finish(2, "RU-SPE", 2), Finish(3, "RU-SPE", 3),
...                      Finish(4, "RU-TA", 3), Finish(5, "", 5)])
>>> [(row.rank, row.region, row.gold, row.silver, row.bronze) for row in table]
[(1, 'RU-MOW', 1, 0, 0), (2, 'RU-SPE', 0, 1, 1), (3, 'RU-TA', 0, 0, 1), (4, '', 0, 0, 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

#: The region of a player whose profile gives none.
NO_REGION = ""
#: The places that take a medal: gold, silver, bronze.
GOLD, SILVER, BRONZE = 1, 2, 3


@dataclass(frozen=True, slots=True)
class Finish:
    """A player's final place in one event, with the region they represent ("" for none)."""

    player: int
    region: str
    place: int


@dataclass(frozen=True, slots=True)
class MedalRow:
    """A region's line of the medal table: its rank (shared when level), its medals and how
    many of its players finished."""

    rank: int
    region: str
    gold: int
    silver: int
    bronze: int
    players: int

    @property
    def total(self) -> int:
        return self.gold + self.silver + self.bronze


@dataclass(frozen=True, slots=True)
class RegionGroup:
    """A region's players in the standings, best place first."""

    region: str
    finishes: list[Finish] = field(default_factory=list)


def _key(row: MedalRow) -> tuple[int, int, int]:
    return (-row.gold, -row.silver, -row.bronze)


def medal_table(finishes: Iterable[Finish], name_of: Callable[[str], str] = str) -> list[MedalRow]:
    """Every region that finished, as a medal table: by golds, then silvers, then bronzes;
    regions level on all three share the rank and are listed by ``name_of`` their code (no
    region last among them). A player who finished several events (a season) counts once in
    ``players``."""
    medals: dict[str, list[int]] = {}
    players: dict[str, set[int]] = {}
    for finish in finishes:
        counts = medals.setdefault(finish.region, [0, 0, 0])
        players.setdefault(finish.region, set()).add(finish.player)
        if GOLD <= finish.place <= BRONZE:
            counts[finish.place - 1] += 1
    rows = [
        MedalRow(0, region, gold, silver, bronze, len(players[region]))
        for region, (gold, silver, bronze) in medals.items()
    ]
    rows.sort(key=lambda row: (*_key(row), row.region == NO_REGION, name_of(row.region)))
    ranked: list[MedalRow] = []
    for index, row in enumerate(rows):
        level = ranked and _key(ranked[-1]) == _key(row)
        rank = ranked[-1].rank if level else index + 1
        ranked.append(MedalRow(rank, row.region, row.gold, row.silver, row.bronze, row.players))
    return ranked


def by_region(finishes: Iterable[Finish], name_of: Callable[[str], str] = str) -> list[RegionGroup]:
    """The standings grouped by region: each region's players by place (then as given), the
    regions in the medal table's order.

    >>> groups = by_region([Finish(1, "RU-TA", 2), Finish(2, "", 1), Finish(3, "RU-TA", 4)])
    >>> [(group.region, [finish.player for finish in group.finishes]) for group in groups]
    [('', [2]), ('RU-TA', [1, 3])]
    """
    given = list(finishes)
    groups = {row.region: RegionGroup(row.region) for row in medal_table(given, name_of)}
    for finish in sorted(given, key=lambda finish: finish.place):
        groups[finish.region].finishes.append(finish)
    return list(groups.values())

"""Reads of the rank norms: the table, and the norms the players of a tournament met."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments import selectors
from tournaments.models import Entry, Player, Tournament
from tournaments.norms.matching import Norm, rank_level
from tournaments.norms.matching import norms_met as match_norms
from tournaments.norms.models import EventStatus, RankNorm


@dataclass(frozen=True)
class NormMet:
    """A player who met a norm: their entry, their place, and the norm (the highest rank)."""

    entry: Entry
    place: int
    norm: Norm

    @property
    def rank_name(self) -> str:
        return rank_name(self.norm.rank)


def rank_name(rank: str) -> str:
    """A rank's name in the reader's language ("1st adult rank")."""
    return str(dict(Player.SportRank.choices).get(rank, rank))


def norm_table(*, status_id: int | None = None) -> list[Norm]:
    """The table of norms (of one status), as the pure matching takes it: one query."""
    rows = RankNorm.objects.select_related("status")
    if status_id is not None:
        rows = rows.filter(status_id=status_id)
    return [
        Norm(
            row.status.code,
            row.discipline,
            row.gender,
            row.rank,
            row.participants_from,
            row.places_up_to,
            row.example,
        )
        for row in rows
    ]


def table_is_example() -> bool:
    """Whether the table holds example rows (the official one could not be found)."""
    return RankNorm.objects.filter(example=True).exists()


def statuses() -> list[EventStatus]:
    return list(EventStatus.objects.all())


def norm_table_by_status() -> list[tuple[EventStatus, list[RankNorm]]]:
    """The table of norms as the page shows it, by status (higher statuses first): one query."""
    by_status: dict[int, tuple[EventStatus, list[RankNorm]]] = {}
    rows = RankNorm.objects.select_related("status").order_by(
        "status__order", "status__name", "discipline", "gender"
    )
    for row in rows:
        by_status.setdefault(row.status_id, (row.status, []))[1].append(row)
    order = list(Tournament.Discipline.values)
    for _status, norms in by_status.values():
        norms.sort(
            key=lambda norm: (
                order.index(norm.discipline) if norm.discipline in order else len(order),
                norm.gender,
                -rank_level(norm.rank),
                norm.participants_from,
                norm.places_up_to,
            )
        )
    return list(by_status.values())


def final_places(*, tournament: Tournament) -> list[tuple[int, Entry]]:
    """The places of a tournament, best first, with their entries: the standings' ranks of a
    round robin or Swiss, the bracket's places of an elimination (shared places as they are)."""
    if tournament.format in Tournament.ROUND_FORMATS:
        return [
            (standing.row.rank, standing.entry)
            for standing in selectors.tournament_standings(tournament=tournament)
        ]
    return selectors.bracket_places(tournament=tournament)


def counts_for_norms(tournament: Tournament) -> bool:
    """Whether a tournament's places meet norms: a finished official event with a status."""
    return (
        tournament.official
        and tournament.event_status_id is not None
        and tournament.status == Tournament.Status.FINISHED
    )


def norms_of_places(
    tournament: Tournament, places: list[tuple[int, Entry]], table: list[Norm]
) -> list[NormMet]:
    """The norms met at the places already read (no query but the status's code, read with the
    tournament when it is loaded with ``select_related("event_status")``)."""
    if not counts_for_norms(tournament) or not places:
        return []
    by_entry = {entry.pk: (place, entry) for place, entry in places}
    found = match_norms(
        table,
        status=tournament.event_status.code,
        discipline=tournament.discipline,
        category=tournament.category,
        participants=len(places),
        places={entry_id: place for entry_id, (place, _entry) in by_entry.items()},
    )
    return [
        NormMet(by_entry[entry_id][1], by_entry[entry_id][0], norm)
        for entry_id, norm in found.items()
    ]


def norms_met(tournament: Tournament) -> list[NormMet]:
    """The norms the players of ``tournament`` met, best place first (none before the finish,
    nor for an event that is not official or has no status): the standings' queries, and one
    for the table."""
    if not counts_for_norms(tournament):
        return []
    places = final_places(tournament=tournament)
    table = norm_table(status_id=tournament.event_status_id)
    return sorted(
        norms_of_places(tournament, places, table), key=lambda met: (met.place, met.entry.pk)
    )


#: The events the overall page lists, newest first.
NORMS_PAGE = 20


def events_with_norms(*, page: int = 1) -> list[tuple[Tournament, list[NormMet]]]:
    """The finished official events with a status, newest first, a page of ``NORMS_PAGE``, each
    with the norms met at it (each event's standings are read on their own: a page of them,
    not every event)."""
    start = (page - 1) * NORMS_PAGE
    events = list(
        Tournament.objects.filter(
            official=True, event_status__isnull=False, status=Tournament.Status.FINISHED
        )
        .select_related("event_status")
        .order_by("-starts_at", "-pk")[start : start + NORMS_PAGE]
    )
    table = norm_table()
    return [
        (event, norms_of_places(event, final_places(tournament=event), table)) for event in events
    ]

"""Reads of a two-stage event for its page, the API and its own services: each stage-1
tournament with its standings, whether stage 1 is complete, who goes on, and the bracket of
stage 2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.formats import groups as grouping
from tournaments.models import Match, Player, Tournament
from tournaments.selectors import Standing, tournament_standings
from tournaments.standings import level_among_first

FirstStage = Tournament.FirstStage
Format = Tournament.Format


@dataclass(frozen=True)
class Qualifier:
    """A player who goes on: bracket seed, the player, and where they finished stage 1."""

    seed: int
    player: Player
    group: str
    place: int


def stage_one_complete(event: Tournament) -> bool:
    """Every stage-1 match decided (and, in a Swiss, every round played)."""
    stages = list(event.stages.filter(stage=1))
    if not stages:
        return False
    for stage in stages:
        if stage.matches.exclude(status__in=Match.DECIDED).exclude(away__isnull=True).exists():
            return False
        if stage.format == Format.SWISS and stage.rounds.count() < (stage.swiss_rounds or 0):
            return False
    return True


def qualifiers(
    event: Tournament, standings: Sequence[tuple[Tournament, Sequence[Standing]]] | None = None
) -> list[Qualifier]:
    """Who goes on, by bracket seed: each group's top ``advance`` cross-seeded (A1–B2, B1–A2 …),
    or the Swiss's top ``advance`` in order. ``standings``: the stage-1 tournaments by group with
    their standings, when the caller has them already."""
    if standings is None:
        stages = event.stages.filter(stage=1).order_by("group")
        standings = [(stage, tournament_standings(tournament=stage)) for stage in stages]
    advance = event.advance or 0
    if event.first_stage == FirstStage.SWISS:
        rows = standings[0][1][:advance]
        return [Qualifier(n, row.entry.player, "", n) for n, row in enumerate(rows, start=1)]
    stages = [stage for stage, _ in standings]
    tables = [rows[:advance] for _, rows in standings]
    return [
        Qualifier(seed, tables[group][place - 1].entry.player, stages[group].group, place)
        for seed, (group, place) in enumerate(grouping.cross_seeding(len(stages), advance), start=1)
    ]


@dataclass(frozen=True)
class Stages:
    first: list[tuple[Tournament, list[Standing]]]
    second: Tournament | None
    complete: bool
    #: Who goes on, by bracket seed: once stage 1 is complete (the preview before stage 2).
    qualifiers: list[Qualifier]
    #: Before stage 2: some players are level where the order decides who goes on or their
    #: seeds, and no lots order them yet (building stage 2 draws them: the preview may change).
    lots_due: bool = False


def event_stages(*, event: Tournament) -> Stages | None:
    """None for a one-stage tournament or before the start."""
    if not event.first_stage or event.status in (
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
    ):
        return None
    stages = list(event.stages.order_by("stage", "group"))
    first = [
        (stage, tournament_standings(tournament=stage)) for stage in stages if stage.stage == 1
    ]
    second = next((stage for stage in stages if stage.stage == 2), None)
    complete = stage_one_complete(event)
    advance = event.advance or 0
    lots_due = second is None and any(
        level_among_first([standing.row for standing in rows], advance) for _, rows in first
    )
    return Stages(first, second, complete, qualifiers(event, first) if complete else [], lots_due)

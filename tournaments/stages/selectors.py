"""Reads of a two-stage event for its page and the API: each stage-1 tournament with its
standings, the bracket of stage 2, and who would go on."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Tournament
from tournaments.selectors import Standing, tournament_standings
from tournaments.stages.services import Qualifier, qualifiers, stage_one_complete


@dataclass(frozen=True)
class Stages:
    first: list[tuple[Tournament, list[Standing]]]
    second: Tournament | None
    complete: bool
    #: Who goes on, by bracket seed: once stage 1 is complete (the preview before stage 2).
    qualifiers: list[Qualifier]


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
    return Stages(first, second, complete, qualifiers(event, first) if complete else [])

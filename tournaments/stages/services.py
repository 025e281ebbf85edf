"""The writes of two-stage events after their first stage: stage 2 built from stage 1's
standings on the organizer's word, and reset. Each runs inside the caller's transaction or its
own, checks who acts and in which state, and raises a ``TournamentError`` having changed nothing.
The first stage is made by the event's start (``tournaments.services.two_stages``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.declarations import Stages, taken_by_stages
from tournaments.errors import Conflict
from tournaments.models import Tournament
from tournaments.policy import require
from tournaments.rows import locked
from tournaments.services import tournament_delete, tournament_start
from tournaments.services.checks import User
from tournaments.services.lots import cut_lots_drawn_if_needed
from tournaments.services.two_stages import stage_enter, stage_make
from tournaments.stages.selectors import qualifiers, stage_one_complete

Format = Tournament.Format
FirstStage = Tournament.FirstStage
#: The bracket's own settings, which stage 2 takes from the event (their declarations say so).
BRACKET_OPTIONS = taken_by_stages(Tournament, Stages.BRACKET)


@transaction.atomic
def stage_two_build(*, event: Tournament, by: User) -> Tournament:
    """Build and start the bracket from stage 1's standings, once the organizer confirms. Players
    level after the tie-breaks where the order decides who goes on or their seeds are put in
    order by lots, drawn now (or the ones drawn at an earlier build: a reset keeps them)."""
    event = _for_organizer(event, by)
    if event.stages.filter(stage=2).exists():
        raise Conflict(_("Stage 2 is built already."))
    if not stage_one_complete(event):
        raise Conflict(_("Stage 1 is not finished: every match needs its result first."))
    for first in event.stages.filter(stage=1):
        cut_lots_drawn_if_needed(first, event.advance or 0, by)
    stage = stage_make(event, 2, event.format, "", _("Stage 2"))
    for option in BRACKET_OPTIONS:
        setattr(stage, option, getattr(event, option))
    stage.save(update_fields=list(BRACKET_OPTIONS))
    stage_enter(stage, [qualifier.player for qualifier in qualifiers(event)])
    return tournament_start(tournament=stage, by=by)


@transaction.atomic
def stage_two_reset(*, event: Tournament, by: User) -> None:
    """Delete stage 2 (its matches and results; rated ones leave the rating list) so that stage
    1 can be corrected; build it again afterwards. The lots drawn at the cut stay: the rebuild
    uses them again."""
    event = _for_organizer(event, by)
    stage = event.stages.filter(stage=2).first()
    if stage is None:
        raise Conflict(_("There is no stage 2 to reset."))
    tournament_delete(stage, by=by)  # type: ignore[arg-type]


def _for_organizer(event: Tournament, by: User) -> Tournament:
    event = locked(Tournament, event.pk)
    require(by, "tournament.run", event)
    if not event.first_stage or event.status != Tournament.Status.RUNNING:
        raise Conflict(_("This is not a running two-stage event."))
    return event

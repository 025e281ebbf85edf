"""The one rule other writes ask about: a stage-1 result no longer changes once stage 2 is built
from its standings (who qualified, and where they are seeded, came from them)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.errors import Conflict
from tournaments.models import Tournament


def require_stage_one_open(tournament: Tournament) -> None:
    """Refuse a change to a stage-1 result once stage 2 exists, saying what to do instead."""
    if tournament.stage != 1 or tournament.parent_id is None:
        return
    if Tournament.objects.filter(parent_id=tournament.parent_id, stage=2).exists():
        raise Conflict(
            _(
                "Stage 2 is built from these standings: a changed result here could change who "
                "qualified. To correct it, first reset stage 2 on the event's page (its matches "
                "are deleted), then correct this result and build stage 2 again."
            )
        )

"""The match's own task: its board replay made by a worker once a record is stored."""

from __future__ import annotations

from celery import shared_task

from tournaments.matches import board
from tournaments.queue import RETRY


# The name it was queued under before the match had a package of its own: messages waiting in a
# queue across a deploy keep finding it.
@shared_task(name="tournaments.tasks.board_frames_prepare", **RETRY)
def board_frames_prepare(match_id: int) -> bool:
    """Replay a newly recorded match for its page's board now, not on its first view."""
    return board.board_frames_of(match_id) is not None

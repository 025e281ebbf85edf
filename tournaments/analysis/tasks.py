"""The analysis task, routed to its own queue (``CELERY_TASK_ROUTES``) so that ratings never wait
behind gnubg: run a worker for it with ``celery -A nardy_site worker -Q analysis``."""

from __future__ import annotations

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from games.analysis.runner import AnalysisError
from tournaments.analysis.services import match_analyse
from tournaments.board import board_frames_of


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(AnalysisError, SoftTimeLimitExceeded),
    retry_backoff=10,
    max_retries=3,
    soft_time_limit=settings.ANALYSIS_TIMEOUT + 30,
    time_limit=settings.ANALYSIS_TIMEOUT + 60,
)
def analysis_run(self: Task, match_id: int) -> str:  # type: ignore[type-arg]
    """Analyse the match's record with gnubg and store it (idempotent: a rerun replaces it). A
    failure is retried on a worker; run in-process (no broker) it is stored as failed and the
    result that enqueued it stands. Once analysed, the match page's replay is made with its
    verdicts, ready for the first view."""
    try:
        outcome = match_analyse(match_id)
    except AnalysisError:
        if not self.request.is_eager:
            raise
        return "failed"
    if outcome == "analysed":
        board_frames_of(match_id)
    return outcome

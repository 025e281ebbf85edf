"""The analysis task, routed to its own queue (``CELERY_TASK_ROUTES``) so that ratings never wait
behind gnubg: run a worker for it with ``celery -A nardy_site worker -Q analysis``."""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings
from django.db import transaction

from games.analysis.runner import AnalysisUnavailable
from tournaments.analysis.selectors import analysed_frames_of
from tournaments.analysis.services import ATTEMPTS, lost_analyses_requeue, match_analyse
from tournaments.matches import board
from tournaments.queue import RETRY, enqueue


@shared_task(
    bind=True,
    acks_late=True,
    # A worker process killed mid-run (the out-of-memory killer, a hard time limit): the message
    # goes back to the queue instead of being acknowledged. The service counts each run in the
    # database, so a message that kills every worker is given up after ATTEMPTS runs.
    reject_on_worker_lost=True,
    soft_time_limit=settings.ANALYSIS_TIMEOUT + 30,
    time_limit=settings.ANALYSIS_TIMEOUT + 60,
)
def analysis_run(self: Task, match_id: int, record: str | None = None) -> str:  # type: ignore[type-arg]
    """Analyse the match's record (``record``: the digest it was queued for) with gnubg and
    store it; safe to run twice (a record analysed already is skipped). Only a missing gnubg
    is retried here, with back-off, while the service has attempts left; a timeout or a record
    gnubg cannot read is stored failed at once. Run in-process (no broker), the attempts follow
    each other at once and the result that enqueued it stands whatever happens. Once analysed,
    the match page's replay is made with its verdicts, ready for the first view."""
    while True:
        try:
            outcome = match_analyse(match_id, record, task=self.request.id or "")
            break
        except AnalysisUnavailable as error:  # left queued by the service: another attempt
            if not self.request.is_eager:
                raise self.retry(
                    exc=error, countdown=10 * 2**self.request.retries, max_retries=ATTEMPTS - 1
                ) from error
            # In-process (no broker): the next attempt at once; the service gives up after
            # ATTEMPTS and returns instead of raising.
    if outcome in ("analysed", "copied") and board.made_ahead():
        analysed_frames_of(match_id)
    return outcome


@shared_task(**RETRY)
def analyses_catch_up() -> int:
    """Periodic (Celery beat, ``nardy_site/celery.py``): send again the analyses whose task was
    lost (``services.lost_analyses_requeue``), each once its transaction commits. Idempotent;
    returns how many were sent (0: none is waiting)."""
    with transaction.atomic():
        found = lost_analyses_requeue()
        for match_id, record in found:
            enqueue(analysis_run, match_id, record)
    return len(found)

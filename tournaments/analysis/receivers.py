"""The analysis follows the results (``tournaments.matches.signals``), connected in
``AnalysisConfig.ready``: a result is analysed once it commits (Short Nardy by gnubg, when this
server has it; Long Nardy by the project's engine). Its analysis is marked queued in the result's
transaction, and a task is enqueued only when the record is not the one analysed or queued
already: a correction to the same record queues nothing; a result without a record (or cleared)
removes the analysis."""

from __future__ import annotations

from typing import Any

from tournaments.analysis.engine import analysis_available
from tournaments.analysis.services import analysis_queue
from tournaments.analysis.tasks import analysis_run
from tournaments.models import Match
from tournaments.queue import enqueue


def analyse(sender: Any, *, match: Match, **kwargs: Any) -> None:
    if not analysis_available(match.tournament.variant):
        return
    record = analysis_queue(match=match)
    if record is not None:
        enqueue(analysis_run, match.pk, record)

"""The analysis follows the results (``tournaments.matches.signals``), connected in
``AnalysisConfig.ready``: a Short Nardy result is analysed by gnubg once it commits, when this
server analyses matches. Its analysis is marked queued in the result's transaction, and a task is
enqueued only when the record is not the one analysed or queued already: a correction to the
same record queues nothing; a result without a record (or cleared) removes the analysis."""

from __future__ import annotations

from typing import Any

from tournaments.analysis.engine import analysis_available
from tournaments.analysis.services import analysis_queue
from tournaments.analysis.tasks import analysis_run
from tournaments.models import Match, Tournament
from tournaments.queue import enqueue


def analyse(sender: Any, *, match: Match, **kwargs: Any) -> None:
    if match.tournament.variant != Tournament.Variant.SHORT or not analysis_available():
        return
    record = analysis_queue(match=match)
    if record is not None:
        enqueue(analysis_run, match.pk, record)

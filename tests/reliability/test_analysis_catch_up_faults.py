"""An analysis lost while Redis was down, for real: a Long Nardy result is recorded with the
broker stopped, so its analysis stays queued and its message never exists. Redis comes back
empty; once a run would have ended, Celery beat's ``analyses_catch_up`` sends it again, with no
correction asking, and a worker of the analysis queue stores it, once.

It needs the real broker mode (CI's stage 2)."""

import time
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from tests.conftest import needs_broker
from tests.web.conftest import make_site
from tournaments.analysis.models import MatchAnalysis, PlayerFigures
from tournaments.analysis.services import lost_after
from tournaments.matches.results import match_result_record

WAIT_SECONDS = 90
NOT_ENQUEUED = "may not be enqueued"


@needs_broker
@pytest.mark.django_db(transaction=True)
@override_settings(ANALYSIS="on", LONG_ANALYSIS_PLIES=0)
def test_an_analysis_lost_while_redis_was_down_is_queued_again_by_beat(
    own_broker, own_worker, own_beat, caplog
):
    redis = own_broker
    site = make_site(variant="long", rated=False, match_length=1)
    redis.stop()
    match = match_result_record(
        match=site.match("Anna", "Boris"), by=site.organizer, games=site.recorded_games(7)
    )
    assert any(
        NOT_ENQUEUED in r.getMessage() and "analysis_run" in r.getMessage() for r in caplog.records
    )
    assert MatchAnalysis.objects.get(match=match).status == "queued"

    redis.start()  # empty: the message is gone for good
    # The time a run would take passes (the analysis was queued that long ago).
    MatchAnalysis.objects.filter(match=match).update(
        started_at=timezone.now() - lost_after() - timedelta(seconds=1)
    )
    env = {"ANALYSIS": "on", "LONG_ANALYSIS_PLIES": "0"}
    default = own_worker(env=env)  # beat's tasks
    analysing = own_worker(env=env, queue="analysis")
    beat = own_beat(env={**env, "ANALYSES_CATCH_UP_SECONDS": "1"})
    deadline = time.monotonic() + WAIT_SECONDS
    while MatchAnalysis.objects.get(match=match).status != "done":
        for process in (default, analysing, beat):
            if process.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    "no analysis after beat's catch-up:\n"
                    + "\n".join(p.output() for p in (beat, default, analysing))
                )
        time.sleep(0.2)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.attempts == 1 and analysis.error == ""
    assert PlayerFigures.objects.filter(analysis=analysis, game=0).count() == 2
    assert "Sending due task analyses-catch-up" in beat.output()
    assert "tournaments.analysis.tasks.analyses_catch_up" in default.output()
    assert "tournaments.analysis.tasks.analysis_run" in analysing.output()

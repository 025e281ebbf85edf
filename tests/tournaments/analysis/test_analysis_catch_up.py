"""No analysis is lost: one whose message never reached a worker (the broker was down when the
result committed) or whose worker is gone is queued again by beat's ``analyses_catch_up``, as
the ratings' catch-up rates lost results; once per ``lost_after``, and never run twice at once.
Real database, the real result flow, tasks in this process (a lost message is one that
``tournaments.queue`` never hands over)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from nardy_site.celery import app
from tests.web.conftest import make_site
from tournaments import queue
from tournaments.analysis import services
from tournaments.analysis.models import MatchAnalysis, PlayerFigures
from tournaments.analysis.services import ATTEMPTS, lost_after, match_analyse
from tournaments.analysis.tasks import analyses_catch_up, analysis_run
from tournaments.matches.results import match_result_record

pytestmark = pytest.mark.django_db
REAL_PUBLISH = queue._publish


@pytest.fixture
def lost(monkeypatch) -> list[tuple]:
    """The broker is down: the analysis messages handed over after a commit are lost (kept
    here, their arguments), the others are sent."""
    dropped: list[tuple] = []
    real = queue._publish

    def publish(task, args):
        if task is analysis_run:
            dropped.append(args)
        else:
            real(task, args)

    monkeypatch.setattr(queue, "_publish", publish)
    return dropped


def broker_back(monkeypatch) -> None:
    monkeypatch.setattr(queue, "_publish", REAL_PUBLISH)


@pytest.fixture
def runs(monkeypatch) -> list[str]:
    """Each run of the Long Nardy engine on a record (it still runs)."""
    seen: list[str] = []
    real = services.engine_analyse

    def counting(text, **kwargs):
        seen.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(services, "engine_analyse", counting)
    return seen


def decided_with_the_broker_down(lost, django_capture_on_commit_callbacks):
    site = make_site(variant="long", rated=False, match_length=1)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_result_record(
            match=site.match("Anna", "Boris"), by=site.organizer, games=site.recorded_games(7)
        )
    assert lost == [(match.pk, analysis_of(match).record)]
    return match


def analysis_of(match) -> MatchAnalysis:
    return MatchAnalysis.objects.get(match=match)


def aged(match, **fields) -> None:
    """The analysis as it is ``lost_after`` and a second later."""
    MatchAnalysis.objects.filter(match=match).update(
        started_at=timezone.now() - lost_after() - timedelta(seconds=1), **fields
    )


def caught_up(django_capture_on_commit_callbacks) -> int:
    with django_capture_on_commit_callbacks(execute=True):
        return analyses_catch_up.apply().get()


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_an_analysis_whose_message_was_lost_is_queued_again_by_beat_and_analysed_once(
    analysis_on, eager_tasks, lost, runs, monkeypatch, django_capture_on_commit_callbacks
):
    match = decided_with_the_broker_down(lost, django_capture_on_commit_callbacks)
    assert analysis_of(match).status == "queued" and runs == []
    # Its message may still be on its way (a long queue): left alone until a run would be over.
    assert caught_up(django_capture_on_commit_callbacks) == 0 and runs == []
    aged(match)
    broker_back(monkeypatch)  # tasks run in this process
    assert caught_up(django_capture_on_commit_callbacks) == 1
    analysis = analysis_of(match)
    assert analysis.status == "done" and analysis.attempts == 1 and len(runs) == 1
    assert PlayerFigures.objects.filter(analysis=analysis, game=0).count() == 2
    # Nothing waits any more: the next beats send nothing and run nothing.
    assert caught_up(django_capture_on_commit_callbacks) == 0
    aged(match)
    assert caught_up(django_capture_on_commit_callbacks) == 0 and len(runs) == 1


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_a_lost_analysis_is_sent_once_per_lost_after_while_the_broker_stays_down(
    analysis_on, lost, runs, django_capture_on_commit_callbacks
):
    match = decided_with_the_broker_down(lost, django_capture_on_commit_callbacks)
    aged(match)
    assert caught_up(django_capture_on_commit_callbacks) == 1  # sent again, lost again
    assert lost[-1] == lost[0] and len(lost) == 2
    analysis = analysis_of(match)
    assert analysis.status == "queued" and analysis.started_at > timezone.now() - lost_after()
    assert caught_up(django_capture_on_commit_callbacks) == 0 and len(lost) == 2
    # The message that was sent arrives after all, twice (the broker delivered both): one run.
    record = analysis.record
    assert match_analyse(match.pk, record, task="message-1") == "analysed"
    assert match_analyse(match.pk, record, task="message-2") == "already analysed"
    assert len(runs) == 1


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_a_running_analysis_whose_worker_is_gone_is_queued_again_while_attempts_are_left(
    analysis_on, lost, runs, django_capture_on_commit_callbacks
):
    match = decided_with_the_broker_down(lost, django_capture_on_commit_callbacks)
    record = analysis_of(match).record
    # A worker claimed it, then died; its message is gone with the broker's data.
    MatchAnalysis.objects.filter(match=match).update(status="running", attempts=1, task="m-1")
    assert caught_up(django_capture_on_commit_callbacks) == 0  # its worker may be alive
    assert match_analyse(match.pk, record, task="m-2") == "already running"  # not twice at once
    aged(match)
    assert caught_up(django_capture_on_commit_callbacks) == 1
    analysis = analysis_of(match)
    assert analysis.status == "queued" and analysis.error == "the worker running it was lost"
    assert lost[-1] == (match.pk, record)
    assert match_analyse(match.pk, record, task="m-3") == "analysed"
    analysis = analysis_of(match)
    assert analysis.status == "done" and analysis.attempts == 2 and len(runs) == 1


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_a_worker_lost_at_its_last_attempt_is_given_up(
    analysis_on, lost, runs, django_capture_on_commit_callbacks
):
    match = decided_with_the_broker_down(lost, django_capture_on_commit_callbacks)
    aged(match, status="running", attempts=ATTEMPTS, task="m-3")
    sent = len(lost)
    assert caught_up(django_capture_on_commit_callbacks) == 0 and len(lost) == sent
    analysis = analysis_of(match)
    assert analysis.status == "failed" and runs == []
    assert analysis.error == "gave up after 3 attempts: the worker running it was lost"


def test_with_analysis_off_nothing_is_sent(lost, django_capture_on_commit_callbacks):
    with override_settings(ANALYSIS="on"):
        match = decided_with_the_broker_down(lost, django_capture_on_commit_callbacks)
    aged(match)
    with override_settings(ANALYSIS="off"):
        assert caught_up(django_capture_on_commit_callbacks) == 0
    assert analysis_of(match).status == "queued"


def test_beat_sends_the_catch_up():
    entry = app.conf.beat_schedule["analyses-catch-up"]
    assert entry["task"] == analyses_catch_up.name == "tournaments.analysis.tasks.analyses_catch_up"
    assert entry["schedule"] > 0 and entry["task"] in app.tasks

"""Nobody can flood the analysis queue: an analysis is keyed by the digest of the record gnubg
analyses, so identical corrections queue nothing and the same games are never analysed twice;
only transient failures are tried again, at most twice; and figures are joined to the match's
sides, never to names. Real database, real gnubg, through the real result flow."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games.analysis.runner import (
    AnalysisError,
    AnalysisTimeout,
    AnalysisUnavailable,
    analyse,
    gnubg_path,
)
from tournaments.analysis import services
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.analysis.services import ATTEMPTS, match_analyse, retried
from tournaments.analysis.tasks import analysis_run
from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Entry, Match, Player

from .test_analysis_task import corpus_match, recorded

pytestmark = pytest.mark.django_db
if gnubg_path() is None and os.environ.get("CI", "").lower() != "true":
    pytest.skip("gnubg is not installed: apt-get install gnubg", allow_module_level=True)

#: A corpus match of the same length (7) as ``corpus_match()``'s: a new record for its match.
OTHER_OF_SAME_LENGTH = 23
#: A match that takes gnubg seconds at 2 plies.
SLOW = 700


@dataclass
class Counted:
    """What reached the analysis queue (each ``analysis_run`` enqueued) and gnubg (each run of
    the runner); both still happen."""

    enqueued: list[tuple[object, ...]] = field(default_factory=list)
    runs: int = 0


@pytest.fixture
def counted(monkeypatch) -> Counted:
    from tournaments.analysis import receivers  # noqa: PLC0415

    seen = Counted()
    enqueue, run = receivers.enqueue, services.analyse

    def counting_enqueue(task, *args):
        if task is analysis_run:
            seen.enqueued.append(args)
        enqueue(task, *args)

    def counting_analyse(*args, **kwargs):
        seen.runs += 1
        return run(*args, **kwargs)

    monkeypatch.setattr(receivers, "enqueue", counting_enqueue)
    monkeypatch.setattr(services, "analyse", counting_analyse)
    return seen


def figures_of(match: Match) -> list[tuple]:
    rows = PlayerFigures.objects.filter(analysis__match=match)
    fields = ("game", "side", "checker_error", "cube_error", "luck", "unforced_moves",
              "close_cube_decisions", "blunders", "errors")  # fmt: skip
    return sorted(rows.values_list(*fields))


def mistakes_of(match: Match) -> list[tuple]:
    rows = Mistake.objects.filter(analysis__match=match)
    return sorted(rows.values_list("game", "ply", "move", "side", "dice", "played", "best", "loss"))


def test_twenty_identical_corrections_queue_one_analysis_and_a_new_record_one_more(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks, counted
):
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match, olga = recorded(text, home, away, length)
    for _ in range(20):
        with django_capture_on_commit_callbacks(execute=True):
            match_result_correct(match=match, by=olga, mat=text)
    analysis = MatchAnalysis.objects.get(match=match)
    assert len(counted.enqueued) == 1 and counted.runs == 1
    assert analysis.status == "done" and analysis.attempts == 1
    first = analysis.record

    other, *_ = corpus_match(OTHER_OF_SAME_LENGTH)
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=olga, mat=other)
    analysis.refresh_from_db()
    assert len(counted.enqueued) == 2 and counted.runs == 2
    assert counted.enqueued[1] == (match.pk, analysis.record) and analysis.record != first
    assert analysis.status == "done" and analysis.games == match.games.count()

    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=olga, score=(length, 0))  # no plays: no analysis
    assert len(counted.enqueued) == 2
    assert MatchAnalysis.objects.get(match=match).status == "kept"  # set aside, never shown
    # The same record back: its analysis is back, and nothing runs again (issue 43).
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=olga, mat=other)
    assert len(counted.enqueued) == 2 and counted.runs == 2
    assert MatchAnalysis.objects.get(match=match).status == "done"


def test_the_record_is_queued_in_the_results_transaction(
    analysis_on, django_capture_on_commit_callbacks, counted
):
    """Queued with the result, before it commits: the next identical correction sees it even
    while its task has not run, and a task queued for an older record writes nothing."""
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match, olga = recorded(text, home, away, length)
        match_result_correct(match=match, by=olga, mat=text)
    queued = MatchAnalysis.objects.get(match=match)
    assert queued.status == "queued" and queued.attempts == 0
    assert len(counted.enqueued) == 1 and len(callbacks) >= 1
    other, *_ = corpus_match(OTHER_OF_SAME_LENGTH)
    match_result_correct(match=match, by=olga, mat=other)
    assert len(counted.enqueued) == 2
    (_, old), (_, new) = counted.enqueued
    assert MatchAnalysis.objects.get(match=match).record == new != old
    assert analysis_run(match.pk, old) == "superseded" and counted.runs == 0
    assert analysis_run(match.pk, new) == "analysed" and counted.runs == 1


def test_two_players_named_alike_by_the_mat_writer_get_their_own_figures(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    """``Ab:cd`` is written ``Ab꞉cd`` (U+A789) in a .mat: the other player's very name. Each side
    still gets its own figures: the same as gnubg's for the same games under plain names."""
    text, _home, _away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match, _ = recorded(text, "Ab:cd", "Ab\ua789cd", length)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "done"
    expected = analyse(text)  # the corpus file itself: two different names
    totals = {row.side: row for row in PlayerFigures.objects.filter(analysis=analysis, game=0)}
    assert sorted(totals) == [1, 2]
    assert totals[1].unforced_moves != totals[2].unforced_moves  # two players, not one twice
    for side in (1, 2):
        assert totals[side].unforced_moves == expected.totals[side].unforced_moves
        assert totals[side].checker_error == pytest.approx(expected.totals[side].checker_error)
        assert totals[side].blunders == expected.totals[side].blunders
    mistakes = Mistake.objects.filter(analysis=analysis)
    assert sorted(mistakes.values_list("game", "ply", "side")) == sorted(
        (d.game, d.ply, d.side) for game in expected.games for d in game.decisions
    )
    assert set(mistakes.values_list("side", flat=True)) == {1, 2}


def test_a_second_match_with_the_same_record_is_not_analysed_again(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks, counted
):
    """Other players, other names: the same games have the same digest and the analysis is
    copied from the first match."""
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        first, olga = recorded(text, home, away, length)
    entries = [
        Entry.objects.create(tournament=first.tournament,
                             player=Player.objects.create(display_name=name))
        for name in ("Someone", "Else")
    ]  # fmt: skip
    second = Match.objects.create(tournament=first.tournament, round=first.round,
                                  home=entries[0], away=entries[1])  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        match_result_record(match=second, by=olga, mat=text)
    assert counted.runs == 1 and len(counted.enqueued) == 2
    one, two = (MatchAnalysis.objects.get(match=m) for m in (first, second))
    assert one.record == two.record and two.status == "done" and two.games == one.games
    assert figures_of(second) == figures_of(first) and len(figures_of(second)) > 2
    assert mistakes_of(second) == mistakes_of(first) and mistakes_of(second)
    assert analysis_run(second.pk) == "already analysed" and counted.runs == 1


def test_a_timeout_is_stored_failed_and_not_tried_again(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks, counted
):
    text, home, away, length = corpus_match(SLOW)
    with (
        override_settings(ANALYSIS_PLIES=2, ANALYSIS_TIMEOUT=0.5),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match, olga = recorded(text, home, away, length)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "failed" and "longer than" in analysis.error
    assert counted.runs == 1 and analysis.attempts == 1
    with (
        override_settings(ANALYSIS_PLIES=2, ANALYSIS_TIMEOUT=0.5),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match_result_correct(match=match, by=olga, mat=text)  # the same record: nothing
    assert len(counted.enqueued) == 1 and counted.runs == 1
    assert MatchAnalysis.objects.get(match=match).status == "failed"


def test_only_transient_failures_are_tried_again_and_at_most_twice():
    timeout, unreadable = AnalysisTimeout("took long"), AnalysisError("could not read")
    unavailable = AnalysisUnavailable("gnubg is not installed")
    assert [retried(unavailable, runs) for runs in (1, 2, 3)] == [True, True, False]
    assert [retried(None, runs) for runs in (1, 2, 3)] == [True, True, False]  # worker lost
    assert not any(retried(error, 1) for error in (timeout, unreadable))
    assert ATTEMPTS == 3


def test_a_worker_without_gnubg_is_retried_twice_then_given_up(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks, counted, monkeypatch
):
    monkeypatch.setenv("GNUBG", "")  # ANALYSIS=on: queued, but this worker has no gnubg
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match, olga = recorded(text, home, away, length)
    analysis = MatchAnalysis.objects.get(match=match)
    assert counted.runs == ATTEMPTS and analysis.attempts == ATTEMPTS
    assert analysis.status == "failed"
    assert analysis.error == "gave up after 3 attempts: gnubg is not installed"
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=olga, mat=text)
    assert len(counted.enqueued) == 1 and counted.runs == ATTEMPTS


class Killed(BaseException):
    """The worker dies while gnubg runs: nothing after the claim happens."""


def test_a_lost_worker_is_tried_again_at_most_twice(analysis_on, counted, monkeypatch):
    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)  # queued (its task is not run here)
    record = MatchAnalysis.objects.get(match=match).record
    real = services.analyse

    def dying(*args, **kwargs):
        raise Killed

    monkeypatch.setattr(services, "analyse", dying)
    for attempt in (1, 2, 3):  # the message is delivered again after each death (same task)
        with pytest.raises(Killed):
            match_analyse(match.pk, record, task="message-1")
        found = MatchAnalysis.objects.get(match=match)
        assert (found.status, found.attempts, found.task) == ("running", attempt, "message-1")
    monkeypatch.setattr(services, "analyse", real)
    assert match_analyse(match.pk, record, task="message-1") == "gave up"
    assert counted.runs == 0  # no fourth run of gnubg
    found = MatchAnalysis.objects.get(match=match)
    assert found.status == "failed" and found.attempts == ATTEMPTS
    assert found.error == "gave up after 3 attempts: the worker running it was lost"
    assert not PlayerFigures.objects.filter(analysis=found).exists()


def test_a_lost_worker_after_one_death_finishes_the_analysis(analysis_on, monkeypatch):
    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)
    record = MatchAnalysis.objects.get(match=match).record
    real = services.analyse
    monkeypatch.setattr(services, "analyse", lambda *a, **k: (_ for _ in ()).throw(Killed()))
    with pytest.raises(Killed):
        match_analyse(match.pk, record, task="message-1")
    monkeypatch.setattr(services, "analyse", real)
    # Another message of the same record, while the first one's worker may be alive: left alone.
    assert match_analyse(match.pk, record, task="message-2") == "already running"
    # Its worker gone for longer than any run lasts: the next one takes it over.
    MatchAnalysis.objects.filter(match=match).update(
        started_at=timezone.now() - services.lost_after() - timedelta(seconds=1)
    )
    assert match_analyse(match.pk, record, task="message-2") == "analysed"
    found = MatchAnalysis.objects.get(match=match)
    assert found.status == "done" and found.attempts == 2 and found.error == ""
    assert PlayerFigures.objects.filter(analysis=found, game=0).count() == 2


def test_a_web_process_with_other_plies_does_not_queue_the_same_record_again(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks, counted
):
    """The plies are the worker's: a web process configured otherwise does not queue an
    identical correction again."""
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match, olga = recorded(text, home, away, length)
    with override_settings(ANALYSIS_PLIES=1), django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=olga, mat=text)
    analysis = MatchAnalysis.objects.get(match=match)
    assert len(counted.enqueued) == 1 and counted.runs == 1
    assert analysis.status == "done" and analysis.plies == 0


def test_an_analysis_whose_message_was_lost_is_queued_again_by_the_next_correction(
    analysis_on, counted
):
    """The broker was down when the result committed: the analysis stays queued. An identical
    correction queues nothing while a run could still come, and queues it again once the
    longest run would have ended."""
    text, home, away, length = corpus_match()
    match, olga = recorded(text, home, away, length)  # its message never sent
    match_result_correct(match=match, by=olga, mat=text)
    assert len(counted.enqueued) == 1
    MatchAnalysis.objects.filter(match=match).update(
        started_at=timezone.now() - services.lost_after() - timedelta(seconds=1)
    )
    match_result_correct(match=match, by=olga, mat=text)
    assert len(counted.enqueued) == 2 and counted.enqueued[0] == counted.enqueued[1]
    assert MatchAnalysis.objects.get(match=match).status == "queued"

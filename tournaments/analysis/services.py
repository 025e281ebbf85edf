"""Queue, analyse and store a match's analysis: by GNU Backgammon for Short Nardy, by the
project's own engine (``games.engine``) for Long Nardy (``tournaments.analysis.engine``).

An analysis is keyed by what is analysed: the digest of the .mat text (``analysis_record``: the
match's games written with neutral names and without event headers, so that the same games
anywhere have the same digest), the plies the worker analyses at and the engine that does.

- ``analysis_queue`` runs in the transaction that records or corrects a result: it marks the
  match's analysis queued for the new record and says whether a task must be enqueued. A
  correction that leaves the record as it was queues nothing, whatever state its analysis is in
  (queued, running, done or failed); a result without a record removes the analysis.
- ``match_analyse`` is what the task runs: it claims the analysis (counting the attempt: a
  message delivered again after its worker was lost counts too), copies the analysis of another
  match with the same record if there is one, else runs the analysis outside any transaction, then
  replaces the stored analysis in one transaction: a reader sees the old one or the new one,
  never a half-written one. A run whose record was replaced meanwhile writes nothing.

Only transient failures are tried again (``ATTEMPTS`` runs in all): gnubg missing on the worker
(``AnalysisUnavailable``, raised for the task to retry) and a worker lost mid-run. A run that
took too long would take as long again: it is stored failed with its reason, as is a record gnubg
cannot read.

- ``lost_analyses_requeue`` (Celery beat: ``tasks.analyses_catch_up``) queues again the analyses
  whose message was lost: queued longer than ``lost_after`` (the broker was down when the result
  committed, or lost its data), or running that long (its worker is gone and no message comes
  back). Each is sent once per ``lost_after``; the claim keeps two messages of one record from
  running it twice at once, and a record analysed already is skipped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.analysis import runner
from games.analysis.runner import (
    AnalysisError,
    AnalysisTimeout,
    AnalysisUnavailable,
    Figures,
    analyse,
)
from games.engine.analysis import analyse_text as engine_analyse
from games.rules import GameError, RulesError
from tournaments.analysis.engine import analysis_available, analysis_engine, analysis_plies
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.matches.records import match_mat_text
from tournaments.models import Match, Tournament

#: Runs of one record at most: the first and two more after transient failures.
ATTEMPTS = 3
#: The names the analysed .mat gives the players: the record's digest does not depend on who
#: played it, and gnubg's X and O are its left (home) and right (away) columns whatever the
#: players are called.
NEUTRAL_NAMES = ("Home", "Away")


def retried(error: BaseException | None, attempts: int) -> bool:
    """Whether a run that ended with ``error`` (None: its worker was lost, the message comes
    again) is tried again after ``attempts`` runs. Only transient failures are, up to
    ``ATTEMPTS`` runs in all: gnubg missing on the worker, the worker lost. A timeout would take
    as long again, a record gnubg cannot read stays unreadable."""
    transient = error is None or isinstance(error, AnalysisUnavailable)
    return transient and attempts < ATTEMPTS


def lost_after() -> timedelta:
    """A run claimed longer ago than this has no worker any more: the task's hard time limit
    (``ANALYSIS_TIMEOUT`` + 60 s) has passed, with a margin."""
    return timedelta(seconds=settings.ANALYSIS_TIMEOUT + 120)


def analysis_record(match: Match) -> str | None:
    """The .mat text analysed for a decided match with its games' full records, else None: the
    download's text (``tournaments.matches.records.match_mat_text``) with ``NEUTRAL_NAMES`` and
    without the Event and Round headers. Raises ``GameError`` when a stored game does not
    replay."""
    if match.status not in Match.DECIDED:
        return None
    return match_mat_text(match, names=NEUTRAL_NAMES)


def record_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def analysis_queue(*, match: Match) -> str | None:
    """In the transaction that decides or corrects ``match`` (its row locked, its games stored):
    mark its analysis queued for its record, and return the record's digest when a task must
    analyse it, None when nothing is to run (the same record queued or analysed already, or no
    record: its analysis is removed)."""
    variant = match.tournament.variant
    try:
        text = analysis_record(match)
    except GameError as error:
        _unreplayable(match.pk, error)
        return None
    if text is None:  # no record to analyse (any more): an old analysis is set aside
        _set_aside(match.pk)
        return None
    digest = record_digest(text)
    # The match's row is locked by the result's transaction: no other result writes this row
    # meanwhile; a worker only moves it along for the record it holds. The plies and the engine
    # are the worker's to choose (``ANALYSIS_PLIES`` of the worker): the same record is not
    # queued again because a web process is configured otherwise.
    found = MatchAnalysis.objects.filter(match_id=match.pk).first()
    if found is not None and found.record == digest and found.status == MatchAnalysis.Status.KEPT:
        found.status = MatchAnalysis.Status.DONE  # decided again as it was: analysed already
        found.save(update_fields=["status"])
        return None
    if found is not None and found.record == digest:
        pending = found.status in (MatchAnalysis.Status.QUEUED, MatchAnalysis.Status.RUNNING)
        if not (pending and found.started_at < timezone.now() - lost_after()):
            return None  # queued, running, done or failed already for this very record
        # else its message was lost (the broker was down at commit) or its worker died: again
    MatchAnalysis.objects.update_or_create(
        match_id=match.pk,
        defaults={"status": MatchAnalysis.Status.QUEUED, "record": digest,
                  "plies": analysis_plies(variant), "engine": analysis_engine(variant),
                  "games": match.games.count(), "games_done": 0, "error": "", "attempts": 0,
                  "task": "", "started_at": timezone.now(), "finished_at": None},
    )  # fmt: skip
    return digest


def match_analyse(match_id: int, record: str | None = None, *, task: str = "") -> str:
    """Analyse the match's record (what it returns says what happened). ``record`` is the
    digest the task was queued for (None: whatever the match's record is now), ``task`` the
    id of the Celery task running it. Raises ``AnalysisUnavailable`` when gnubg is missing and
    another attempt is left: the analysis is left queued for the retry."""
    match = _match(match_id)
    variant = match.tournament.variant
    queued = MatchAnalysis.objects.filter(match_id=match_id).exists()
    if not analysis_available(variant) and (settings.ANALYSIS == "off" or not queued):
        return "unavailable"
    try:
        text = analysis_record(match)
    except GameError as error:  # stored before plays were stored as the engine made them
        _unreplayable(match_id, error)
        return "unreplayable"
    if text is None:  # no record to analyse (any more): what is not analysed goes
        MatchAnalysis.objects.filter(match_id=match_id).exclude(
            status__in=(MatchAnalysis.Status.DONE, MatchAnalysis.Status.KEPT)
        ).delete()
        return "no record"
    digest = record_digest(text)
    if record is not None and record != digest:
        return "superseded"  # the record changed since: the task queued with it analyses it
    plies, engine = analysis_plies(variant), analysis_engine(variant)
    claimed = _claim(match_id, digest, plies, engine, games=match.games.count(), task=task,
                     queued=record is not None)  # fmt: skip
    if claimed is not None:
        return claimed
    donor = (
        MatchAnalysis.objects.filter(
            record=digest, plies=plies, engine=engine, status=MatchAnalysis.Status.DONE
        )  # fmt: skip
        .exclude(match_id=match_id)
        .order_by("-finished_at")
        .first()
    )
    if donor is not None:  # the same games, analysed for another match: never twice
        return _copied(match_id, digest, plies, engine, donor)

    def progress(done: int, total: int) -> None:
        MatchAnalysis.objects.filter(match_id=match_id, record=digest).update(
            games_done=done, games=total
        )

    try:
        result = _analysed(variant, text, plies, progress)
    except AnalysisUnavailable as error:
        return _unavailable(match_id, digest, error)
    except (AnalysisTimeout, SoftTimeLimitExceeded) as error:
        reason = str(error) or _("the analysis took longer than its time limit")
        _failed(match_id, digest, reason)  # it would take as long again: not retried
        return "timed out"
    except AnalysisError as error:
        _failed(match_id, digest, str(error))
        return "failed"
    if len(result.games) != match.games.count():  # gnubg stopped early: no half analysis
        _failed(match_id, digest, f"gnubg read {len(result.games)} of the record's "
                                  f"{match.games.count()} games")  # fmt: skip
        return "incomplete"
    return _stored(match_id, digest, plies, engine, result)


def lost_analyses_requeue() -> list[tuple[int, str]]:
    """The analyses whose task was lost, queued again (the periodic ``tasks.analyses_catch_up``):
    returns each one's match and record, for the caller to enqueue once this commits.

    Queued longer than ``lost_after``: its message never reached a worker. Running that long:
    the task's hard time limit has passed, its worker is gone, and its message did not come
    back (a broker that lost its data); it is queued again while attempts are left, else given
    up as the redelivered message would be. Each is marked queued now, so that the next beat
    sends it again only after another ``lost_after`` (a queue that is merely long gets one more
    message per ``lost_after``, which finds the analysis done or running and does nothing)."""
    Status = MatchAnalysis.Status
    if settings.ANALYSIS == "off":
        return []
    lost = timezone.now() - lost_after()
    found: list[tuple[int, str]] = []
    with transaction.atomic():
        # Two beats (there should be one) or a worker claiming meanwhile: a row is taken by one.
        stale = (
            MatchAnalysis.objects.select_for_update(skip_locked=True)
            .filter(status__in=(Status.QUEUED, Status.RUNNING), started_at__lt=lost)
            .order_by("started_at")
        )
        for analysis in stale:
            if analysis.status == Status.RUNNING:
                error = _("the worker running it was lost")
                if not retried(None, analysis.attempts):
                    analysis.status = Status.FAILED
                    analysis.error = f"{_gave_up()}: {error}"
                    analysis.finished_at = timezone.now()
                    analysis.save(update_fields=["status", "error", "finished_at"])
                    continue
                analysis.error = error
            analysis.status = Status.QUEUED
            analysis.started_at = timezone.now()
            analysis.save(update_fields=["status", "error", "started_at"])
            found.append((analysis.match_id, analysis.record))
    return found


def _analysed(variant: str, text: str, plies: int,
              progress: Callable[[int, int], None]) -> runner.MatchAnalysis:  # fmt: skip
    """The record analysed by its variant's engine: gnubg, a program of its own with its time
    limit, for Short Nardy; the project's engine, in this process, for Long Nardy (the task's
    soft time limit stops it)."""
    if variant == Tournament.Variant.LONG:
        try:
            return engine_analyse(text, plies=plies, progress=progress)
        except RulesError as error:  # the record replayed when it was stored: not expected
            raise AnalysisError(f"the engine could not read the record: {error}") from error
    return analyse(text, plies=plies, timeout=settings.ANALYSIS_TIMEOUT, progress=progress)


# --- Inside ------------------------------------------------------------------------------------


def _claim(match_id: int, digest: str, plies: int, engine: str, *, games: int, task: str,
           queued: bool) -> str | None:  # fmt: skip
    """Mark the analysis running for this task and count the attempt; a string says why not:
    already analysed, failed before (a queued task does not try a failed record again; a
    direct call does), running in another task, or given up after ``ATTEMPTS`` runs."""
    Status = MatchAnalysis.Status
    with transaction.atomic():
        # Two deliveries of one message, or two messages of one record: one claims at a time.
        found = MatchAnalysis.objects.select_for_update().filter(match_id=match_id).first()
        now = timezone.now()
        if found is None or (found.record, found.plies, found.engine) != (digest, plies, engine):
            attempts, error = 1, ""  # a record not queued before (a direct call): a first run
        elif found.status in (Status.DONE, Status.KEPT):
            return "already analysed"
        elif found.status == Status.FAILED:
            if queued:
                return "failed before"
            attempts, error = 1, ""  # asked for directly: once more
        elif found.status == Status.QUEUED:  # queued by the result, or again for a retry
            attempts, error = found.attempts + 1, found.error
        elif found.task != task and found.started_at >= now - lost_after():
            return "already running"  # another task has it, and its worker is alive
        else:  # its worker was lost: this is its message delivered again
            error = _("the worker running it was lost")
            if not retried(None, found.attempts):
                found.status = Status.FAILED
                found.error = f"{_gave_up()}: {error}"
                found.finished_at = now
                found.save(update_fields=["status", "error", "finished_at"])
                return "gave up"
            attempts = found.attempts + 1
        MatchAnalysis.objects.update_or_create(
            match_id=match_id,
            defaults={"status": Status.RUNNING, "record": digest, "plies": plies,
                      "engine": engine, "games": games,
                      "games_done": 0, "attempts": attempts, "task": task, "started_at": now,
                      "finished_at": None, "error": error},
        )  # fmt: skip
    return None


def _set_aside(match_id: int) -> None:
    """The match's result is gone (cleared, or taken back at the table): a done analysis is
    kept for its record, so that the same record decided again costs no second run (a resign
    and undo loop queues nothing); one queued or running is left to its task, which finds no
    record and drops it, or the record decided again and analyses it; a failed one goes."""
    Status = MatchAnalysis.Status
    found = MatchAnalysis.objects.filter(match_id=match_id)
    found.filter(status=Status.DONE).update(status=Status.KEPT)
    found.filter(status=Status.FAILED).delete()


def _unavailable(match_id: int, digest: str, error: AnalysisUnavailable) -> str:
    """gnubg is missing on this worker: queued again for a retry while attempts are left."""
    with transaction.atomic():
        found = MatchAnalysis.objects.select_for_update().filter(match_id=match_id).first()
        if found is None or found.record != digest:
            return "superseded"
        retry = retried(error, found.attempts)
        if retry:
            found.status = MatchAnalysis.Status.QUEUED
            found.error = str(error)[:2000]
        else:
            found.status = MatchAnalysis.Status.FAILED
            found.error = f"{_gave_up()}: {error}"[:2000]
            found.finished_at = timezone.now()
        found.save(update_fields=["status", "error", "finished_at"])
    if retry:
        raise error
    return "gave up"


def _gave_up() -> str:
    return ngettext(
        "gave up after %(attempts)d attempt", "gave up after %(attempts)d attempts", ATTEMPTS
    ) % {"attempts": ATTEMPTS}


def _failed(match_id: int, digest: str, reason: str) -> None:
    MatchAnalysis.objects.filter(match_id=match_id, record=digest).update(
        status=MatchAnalysis.Status.FAILED, error=reason[:2000], finished_at=timezone.now()
    )


def _unreplayable(match_id: int, error: GameError) -> None:
    MatchAnalysis.objects.update_or_create(
        match_id=match_id,
        defaults={"status": MatchAnalysis.Status.FAILED, "record": "", "games_done": 0,
                  "error": f"the stored record does not replay: {error}"[:2000]},
    )  # fmt: skip


def _stored(match_id: int, digest: str, plies: int, engine: str,
            result: runner.MatchAnalysis) -> str:  # fmt: skip
    """The analysis replaces the stored one, unless the record changed meanwhile."""
    with transaction.atomic():
        found = _still(match_id, digest, plies, engine)
        if found is None:
            return "superseded"  # the record changed meanwhile: its own run writes
        rows = [
            PlayerFigures(analysis=found, game=0, side=side, **_fields(figures))
            for side, figures in result.totals.items()
        ] + [
            PlayerFigures(analysis=found, game=game.number, side=side, **_fields(figures))
            for game in result.games
            for side, figures in game.figures.items()
        ]
        PlayerFigures.objects.bulk_create(rows)
        Mistake.objects.bulk_create(
            Mistake(analysis=found, game=d.game, ply=d.ply, move=d.move, side=d.side,
                    dice=f"{d.dice[0]}{d.dice[1]}", played=d.played[:60], best=d.best[:60],
                    loss=d.loss, kind=d.kind)
            for game in result.games
            for d in game.decisions
        )  # fmt: skip
        _done(found, games=len(result.games))
    return "analysed"


def _copied(match_id: int, digest: str, plies: int, engine: str, donor: MatchAnalysis) -> str:
    """Another match's analysis of the very same record, copied row by row: the sides are the
    same columns of the same text."""
    with transaction.atomic():
        found = _still(match_id, digest, plies, engine)
        if found is None:
            return "superseded"
        PlayerFigures.objects.bulk_create(
            PlayerFigures(analysis=found, game=row.game, side=row.side, **_fields(row))
            for row in donor.figures.all()
        )
        Mistake.objects.bulk_create(
            Mistake(analysis=found, game=row.game, ply=row.ply, move=row.move, side=row.side,
                    dice=row.dice, played=row.played, best=row.best, loss=row.loss,
                    kind=row.kind)
            for row in donor.mistakes.all()
        )  # fmt: skip
        _done(found, games=donor.games)
    return "copied"


def _still(match_id: int, digest: str, plies: int, engine: str) -> MatchAnalysis | None:
    """The match's analysis, locked and emptied, if it is still of this record; else None."""
    found = MatchAnalysis.objects.select_for_update().filter(match_id=match_id).first()
    if found is None or (found.record, found.plies, found.engine) != (digest, plies, engine):
        return None
    found.figures.all().delete()
    found.mistakes.all().delete()
    return found


def _done(found: MatchAnalysis, *, games: int) -> None:
    found.status = MatchAnalysis.Status.DONE
    found.games = found.games_done = games
    found.error = ""
    found.finished_at = timezone.now()
    found.save(update_fields=["status", "games", "games_done", "error", "finished_at"])


def _match(match_id: int) -> Match:
    return Match.objects.select_related("tournament").get(pk=match_id)


def _fields(figures: Figures | PlayerFigures) -> dict[str, object]:
    names = ("checker_error", "cube_error", "luck", "unforced_moves", "close_cube_decisions",
             "blunders", "errors", "result", "luck_adjusted")  # fmt: skip
    found = {name: getattr(figures, name) for name in names}
    if isinstance(figures, PlayerFigures):
        found["rolls_marked"] = figures.rolls_marked
    else:
        found["rolls_marked"] = PlayerFigures.marked_from(figures.rolls_marked)
    return found

"""Analyse a match and store it. ``match_analyse`` is what the task runs: it reads the match's
record, marks the analysis as running (the match page says so), runs gnubg outside any
transaction, then replaces the stored analysis in one transaction: a reader sees the old one
or the new one, never a half-written one. A second run replaces the first."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.analysis.runner import AnalysisError, analyse, gnubg_path
from games.rules import GameError
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.models import Match, Tournament
from tournaments.records import match_mat_text
from tournaments.results import DECIDED


def analysis_available() -> bool:
    """Whether this server analyses matches: ``ANALYSIS`` is on, or auto with gnubg installed."""
    mode = settings.ANALYSIS
    return mode == "on" or (mode == "auto" and gnubg_path() is not None)


def match_analyse(match_id: int) -> str:
    """Analyse the match's record (what it returns says what happened)."""
    if not analysis_available():
        return "unavailable"
    match = _match(match_id)
    try:
        text = _record(match)
    except GameError as error:  # stored before plays were stored as the engine made them
        MatchAnalysis.objects.update_or_create(
            match_id=match_id,
            defaults={"status": MatchAnalysis.Status.FAILED, "record": "", "games_done": 0,
                      "error": f"the stored record does not replay: {error}"[:2000]},
        )  # fmt: skip
        return "unreplayable"
    if text is None:  # no record to analyse (any more): an old analysis goes
        MatchAnalysis.objects.filter(match_id=match_id).delete()
        return "no record"
    digest = hashlib.sha256(text.encode()).hexdigest()
    games = match.games.count()
    MatchAnalysis.objects.update_or_create(
        match_id=match_id,
        defaults={"status": MatchAnalysis.Status.RUNNING, "record": digest, "games": games,
                  "games_done": 0, "plies": settings.ANALYSIS_PLIES, "error": "",
                  "finished_at": None},
    )  # fmt: skip

    def progress(done: int, total: int) -> None:
        MatchAnalysis.objects.filter(match_id=match_id, record=digest).update(
            games_done=done, games=total
        )

    try:
        result = analyse(
            text,
            plies=settings.ANALYSIS_PLIES,
            timeout=settings.ANALYSIS_TIMEOUT,
            progress=progress,
        )
    except AnalysisError as error:
        MatchAnalysis.objects.filter(match_id=match_id, record=digest).update(
            status=MatchAnalysis.Status.FAILED, error=str(error)[:2000]
        )
        raise
    if len(result.games) != games:  # gnubg stopped reading the file early: no half analysis
        message = f"gnubg read {len(result.games)} of the record's {games} games"
        MatchAnalysis.objects.filter(match_id=match_id, record=digest).update(
            status=MatchAnalysis.Status.FAILED, error=message
        )
        return "incomplete"
    with transaction.atomic():
        found = MatchAnalysis.objects.select_for_update().filter(match_id=match_id).first()
        if found is None or found.record != digest:
            return "superseded"  # the record changed meanwhile: its own run writes
        found.figures.all().delete()
        found.mistakes.all().delete()
        home, away = result.players
        sides = {home: 1, away: 2}
        rows = [
            PlayerFigures(analysis=found, game=0, side=sides[name], **_fields(figures))
            for name, figures in result.totals.items()
        ] + [
            PlayerFigures(analysis=found, game=game.number, side=sides[name], **_fields(figures))
            for game in result.games
            for name, figures in game.figures.items()
        ]
        PlayerFigures.objects.bulk_create(rows)
        Mistake.objects.bulk_create(
            Mistake(analysis=found, game=d.game, ply=d.ply, move=d.move, side=sides[d.player],
                    dice=f"{d.dice[0]}{d.dice[1]}", played=d.played[:60], best=d.best[:60],
                    loss=d.loss)
            for game in result.games
            for d in game.decisions
        )  # fmt: skip
        found.status = MatchAnalysis.Status.DONE
        found.finished_at = timezone.now()
        found.save(update_fields=["status", "finished_at"])
    return "analysed"


def _match(match_id: int) -> Match:
    return Match.objects.select_related("tournament", "round", "home__player", "away__player").get(
        pk=match_id
    )


def _record(match: Match) -> str | None:
    """The .mat text of a decided Short Nardy match with its games' full records, else None."""
    if match.tournament.variant != Tournament.Variant.SHORT or match.status not in DECIDED:
        return None
    return match_mat_text(match)


def _fields(figures: object) -> dict[str, object]:
    names = ("checker_error", "cube_error", "luck", "unforced_moves", "close_cube_decisions",
             "blunders", "errors")  # fmt: skip
    return {name: getattr(figures, name) for name in names}

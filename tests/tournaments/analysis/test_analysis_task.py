"""The analysis task: a recorded Short Nardy match is analysed by gnubg once its result commits;
the stored figures are gnubg's; a second run of the same record keeps the first; a correction
replaces the analysis (a plain score removes it); without gnubg nothing happens and nothing
fails."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth.models import User

from games.analysis.runner import analyse, gnubg_path
from tests.support.corpus import corpus_or_skip, match_files
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.analysis.selectors import match_analysis, pr_table
from tournaments.analysis.tasks import analysis_run
from tournaments.matches.records import match_mat_text
from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Entry, Match, Player, Round, Tournament

pytestmark = pytest.mark.django_db
if gnubg_path() is None and os.environ.get("CI", "").lower() != "true":
    pytest.skip("gnubg is not installed: apt-get install gnubg", allow_module_level=True)


def corpus_match(pick: int = 0) -> tuple[str, str, str, int]:
    """A corpus file's text, its two players and its length."""
    text = match_files(corpus_or_skip())[pick].read_text(encoding="utf-8", errors="replace")
    players = re.findall(r'^; \[Player \d "([^"]+)"\]', text, re.M)
    length = int(re.search(r"^\s*(\d+) point match", text, re.M).group(1))
    return text, players[0], players[1], length


def recorded(text: str, home: str, away: str, length: int) -> tuple[Match, User]:
    olga = User.objects.create_user("olga")
    tournament = Tournament.objects.create(
        name="Cup", slug="cup", variant="short", status="running", organizer=olga,
        match_length=length,
    )  # fmt: skip
    sides = [
        Entry.objects.create(tournament=tournament, player=Player.objects.create(display_name=n))
        for n in (home, away)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1)
    match = Match.objects.create(tournament=tournament, round=round_, home=sides[0], away=sides[1])
    return match_result_record(match=match, by=olga, mat=text), olga


def test_a_recorded_match_is_analysed_on_commit_with_gnubgs_figures(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match, _ = recorded(text, home, away, length)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "done" and analysis.games == match.games.count()
    expected = analyse(match_mat_text(match))
    totals = {row.side: row for row in PlayerFigures.objects.filter(analysis=analysis, game=0)}
    for side in (1, 2):
        want = expected.totals[side]
        got = totals[side]
        assert (got.unforced_moves, got.close_cube_decisions) == (
            want.unforced_moves, want.close_cube_decisions,
        )  # fmt: skip
        assert got.checker_error == pytest.approx(want.checker_error)
        assert got.pr == pytest.approx(want.pr)
    per_game = PlayerFigures.objects.filter(analysis=analysis).exclude(game=0)
    assert per_game.count() == 2 * analysis.games
    assert Mistake.objects.filter(analysis=analysis).count() == sum(
        len(game.decisions) for game in expected.games
    )


def test_a_second_run_of_the_same_record_keeps_the_first(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match, _ = recorded(text, home, away, length)
    first = sorted(PlayerFigures.objects.values_list("pk", "game", "side", "checker_error"))
    record = MatchAnalysis.objects.get(match=match).record
    assert analysis_run(match.pk, record) == "already analysed"
    assert analysis_run(match.pk) == "already analysed"
    assert sorted(PlayerFigures.objects.values_list("pk", "game", "side", "checker_error")) == first
    assert MatchAnalysis.objects.count() == 1


def test_a_correction_replaces_the_analysis(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    text, home, away, length = corpus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match, olga = recorded(text, home, away, length)
    assert MatchAnalysis.objects.filter(match=match).exists()
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=olga, score=(length, 0))
    # A score has no plays: the analysis is set aside for its record, never shown meanwhile.
    assert MatchAnalysis.objects.get(match=match).status == "kept"
    assert match_analysis(match=match).state == "none"
    assert not pr_table(tournament=match.tournament)
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=olga, mat=text)
    assert MatchAnalysis.objects.get(match=match).status == "done"


def test_without_gnubg_nothing_is_analysed_and_nothing_fails(
    analysis_off, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setenv("GNUBG", "")
    from django.test import override_settings  # noqa: PLC0415

    text, home, away, length = corpus_match()
    with override_settings(ANALYSIS="auto"), django_capture_on_commit_callbacks(execute=True):
        match, _ = recorded(text, home, away, length)
        assert analysis_run(match.pk) == "unavailable"
    assert match.status == "final" and not MatchAnalysis.objects.exists()

"""The Long Nardy analysis read for a club player: the rating bands (gnubg's), the engine's own
blunder and error thresholds, and each player's summary on the match page, in English and in
Russian (numbers with a decimal comma, no "эквити" or "веса")."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.test import override_settings
from django.urls import reverse

from games.analysis import runner
from games.engine import analysis as long_analysis
from tests.web.conftest import make_site
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.analysis.reading import LONG, SHORT, band_of, thresholds
from tournaments.matches.results import match_result_record


@pytest.mark.parametrize(
    ("pr", "band"),
    [
        (None, None),
        (0.0, "supernatural"),
        (0.99, "supernatural"),
        (1.0, "world-class"),
        (2.49, "world-class"),
        (2.5, "expert"),
        (4.0, "advanced"),
        (5.99, "advanced"),
        (6.0, "intermediate"),
        (9.0, "casual"),
        (12.99, "casual"),
        (13.0, "beginner"),
        (17.49, "beginner"),
        (17.5, "awful"),
        (117.3, "awful"),
    ],
)
def test_a_pr_falls_in_gnubgs_band(pr, band):
    """gnubg's arThrsRating (error per decision 0.002 … 0.035) × 500, each bound in the band
    above it (gnubg rates ``rError < threshold``)."""
    assert band_of(pr) == band


def test_long_nardy_marks_plays_with_its_own_thresholds_and_short_nardy_keeps_gnubgs():
    assert (
        (LONG.error, LONG.blunder) == (long_analysis.ERROR, long_analysis.BLUNDER) == (0.08, 0.16)
    )
    assert (SHORT.error, SHORT.blunder) == (runner.ERROR, runner.BLUNDER) == (0.04, 0.08)
    assert thresholds(long=True) is LONG and thresholds(long=False) is SHORT
    assert [LONG.mark(loss) for loss in (0.05, 0.08, 0.1, 0.16, 0.2)] == [
        "", "", "error", "error", "blunder"
    ]  # fmt: skip
    assert [SHORT.mark(loss) for loss in (0.03, 0.05, 0.1)] == ["", "error", "blunder"]


@pytest.fixture
def analysed(db, analysis_on, eager_tasks, django_capture_on_commit_callbacks):
    """A Long Nardy match of random play, analysed at 0-ply as its result commits."""
    site = make_site(variant="long", rated=False, match_length=1)
    match = site.match("Anna", "Boris")
    with override_settings(LONG_ANALYSIS_PLIES=0), django_capture_on_commit_callbacks(execute=True):
        match_result_record(match=match, by=site.organizer, games=site.recorded_games(7))
    assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.DONE
    return match


def summary_of(page: str, side: int) -> str:
    found = re.search(rf'data-role="player-summary" data-side="{side}">(.*?)</article>', page, re.S)
    assert found, f"no summary for side {side}"
    return found.group(1)


def counted(summary: str, role: str) -> int:
    found = re.search(rf'data-role="{role}"><strong>(\d+)</strong>', summary)
    assert found, role
    return int(found.group(1))


def test_each_player_gets_their_moves_mistakes_and_worst_plays_in_words(client, analysed):
    page = client.get(reverse("match", args=[analysed.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    analysis = MatchAnalysis.objects.get(match=analysed)
    assert "our Long Nardy engine, trained by playing against itself" in html
    for side in (1, 2):
        summary = summary_of(html, side)
        row = PlayerFigures.objects.get(analysis=analysis, game=0, side=side)
        losses = sorted(
            (m.loss for m in Mistake.objects.filter(analysis=analysis, side=side)), reverse=True
        )
        assert counted(summary, "summary-decisions") == row.unforced_moves
        assert counted(summary, "summary-blunders") == sum(1 for loss in losses if loss > 0.16)
        assert counted(summary, "summary-errors") == sum(
            1 for loss in losses if 0.08 < loss <= 0.16
        )
        assert (
            counted(summary, "summary-blunders") == row.blunders
            and counted(summary, "summary-errors") == row.errors
        )
        assert counted(summary, "summary-blunders") > 0, "random play blunders"
        # Random play: gnubg's lowest band, read in words, with its PR explained beside it.
        assert "<strong>Awful</strong>: many big mistakes" in summary
        assert f"PR {row.pr:.1f}: the points a game given away per 500 moves" in summary
        assert (
            "more than 0.16 points a game" in summary and "more than 0.08 points a game" in summary
        )
        # The three worst, each a link to its position on the board viewer.
        links = re.findall(
            r'data-board-game="(\d+)" data-board-step="(\d+)" data-mark="(\w+)"', summary
        )
        worst = sorted(Mistake.objects.filter(analysis=analysis, side=side), key=lambda m: -m.loss)[
            :3
        ]
        assert links == [(str(m.game), str(m.ply), "blunder") for m in worst]
        assert f"gave away {worst[0].loss:.2f}" in summary
    assert 'id="replay-heading"' in html
    pr_page = client.get(f"/t/{analysed.tournament.slug}/pr/", HTTP_ACCEPT_LANGUAGE="en")
    assert pr_page.content.decode().count('<td data-role="level">Awful<') == 2
    assert "What the figures mean" in html and "a mars 2" in html


def test_in_russian_the_numbers_have_a_comma_and_no_jargon_is_left(client, analysed):
    page = client.get(reverse("match", args=[analysed.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    html = page.content.decode()
    assert '<html lang="ru">' in html
    summary = summary_of(html, 1)
    analysis = MatchAnalysis.objects.get(match=analysed)
    row = PlayerFigures.objects.get(analysis=analysis, game=0, side=1)
    assert f"PR {row.pr:.1f}".replace(".", ",") in summary
    assert "больше 0,16 очка партии" in summary and "больше 0,08 очка партии" in summary
    assert "<strong>Очень слабо</strong>" in summary
    assert re.search(r"грубы[ехй] ошиб", summary)
    assert "наша программа для длинных нард, обученная игрой сама с собой" in html
    text = re.sub(r"<[^>]+>", " ", html).lower()
    for word in ("эквити", "веса", "equity", "weights"):
        assert word not in text, word
    assert not re.search(r"\bPR \d+\.\d", summary), "a decimal point in Russian"
    pr_page = client.get(f"/t/{analysed.tournament.slug}/pr/", HTTP_ACCEPT_LANGUAGE="ru")
    pr_html = pr_page.content.decode()
    assert "эквити" not in pr_html.lower()
    assert pr_html.count('<td data-role="level">Очень слабо<') == 2  # random play, both


def test_long_analyses_stored_before_are_recounted_with_the_engines_thresholds(analysed):
    """The migration that counts the stored Long Nardy analyses' blunders and errors again."""
    migration = importlib.import_module("tournaments.migrations.0033_long_nardy_mistakes_recounted")
    analysis = MatchAnalysis.objects.get(match=analysed)
    rows = PlayerFigures.objects.filter(analysis=analysis)
    expected = {(r.game, r.side): (r.blunders, r.errors) for r in rows}
    assert any(blunders for blunders, _ in expected.values())
    rows.update(blunders=0, errors=99)  # as counted before, with other thresholds
    migration.recount(apps, None)
    assert {(r.game, r.side): (r.blunders, r.errors) for r in rows.all()} == expected

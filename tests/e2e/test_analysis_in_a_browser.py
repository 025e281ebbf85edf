"""A match analysed by gnubg, in a real browser: the match page shows the analysis, "next blunder"
steps the board viewer to the first blunder with its loss and gnubg's best play, which is shown on
the board on demand, and the tournament's PR table ranks the players. Screenshots on a desktop
and a phone."""

from __future__ import annotations

import os

import pytest

from games.analysis.runner import gnubg_path
from tests.tournaments.analysis.test_analysis_task import corpus_match, recorded
from tournaments.analysis.models import MatchAnalysis
from tournaments.analysis.tasks import analysis_run

from .conftest import blunder_frames, untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)
if gnubg_path() is None and os.environ.get("CI", "").lower() != "true":
    pytest.skip("gnubg is not installed: apt-get install gnubg", allow_module_level=True)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def analysed(analysis_on, eager_tasks):
    """A recorded corpus match with blunders in it, analysed."""
    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)  # committed: analysed in-process on commit
    assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.DONE
    assert analysis_run(match.pk) == "already analysed"  # the same record is never run twice
    return match


def test_next_blunder_steps_the_viewer_to_it_and_shows_gnubgs_best_play(
    new_page, analysed, screenshot
):
    page = new_page(width=1920, height=1080)
    page.goto(f"/m/{analysed.pk}/")
    assert page.locator('[data-role="analysis-totals"] tbody tr').count() == 2
    blunders = blunder_frames(page)
    assert blunders, "the corpus match picked has blunders"
    board = page.locator('[data-role="board"]')
    counter = page.locator('[data-role="counter"]')
    previous = page.locator('[data-step="prev-blunder"]')
    following = page.locator('[data-step="next-blunder"]')
    assert page.locator('[data-role="verdicts"]').is_visible()
    assert previous.get_attribute("aria-disabled") == "true"
    assert page.locator('[data-role="blunders"]').inner_text().endswith(str(len(blunders)))

    following.click()
    first = blunders[0]
    assert board.get_attribute("data-game") == str(first["game"])
    assert board.get_attribute("data-step") == str(first["step"])
    assert counter.inner_text().split("/")[0].strip() == str(first["index"] + 1)
    verdict = page.locator('[data-role="verdict"]').inner_text()
    assert verdict.startswith("Blunder") and f"{first['analysis']['loss']:.3f}" in verdict
    assert first["analysis"]["best"] in verdict
    assert page.locator(".board-viewer__mark").inner_text().strip() == "??"

    best = page.locator('[data-role="best"]')
    played_board = board.inner_html()
    best.click()
    assert best.get_attribute("aria-pressed") == "true"
    assert board.inner_html() != played_board
    assert first["analysis"]["best"] in page.locator('[data-role="play"]').inner_text()
    screenshot(page, "desktop-analysed-match")
    best.click()
    assert best.get_attribute("aria-pressed") == "false"
    assert board.inner_html() == played_board

    if len(blunders) > 1:
        following.click()
        assert board.get_attribute("data-step") == str(blunders[1]["step"])
        previous.click()
        assert board.get_attribute("data-step") == str(first["step"])
    board.focus()
    page.keyboard.press("Home")
    page.keyboard.press("Shift+ArrowRight")  # the keyboard's "next blunder"
    assert board.get_attribute("data-step") == str(first["step"])

    phone = new_page(**PHONE)
    phone.goto(f"/m/{analysed.pk}/")
    phone.locator('[data-step="next-blunder"]').click()
    phone.locator('[data-role="best"]').click()
    screenshot(phone, "phone-analysed-match")


def test_the_pr_table_ranks_the_players_by_their_pr(new_page, analysed, screenshot):
    for name, size in (("desktop", {"width": 1920, "height": 1080}), ("phone", PHONE)):
        page = new_page(**size)
        page.goto(f"/t/{analysed.tournament.slug}/pr/")
        rows = page.locator("table tbody tr")
        assert rows.count() == 2
        assert rows.first.locator("td").first.inner_text().strip() == "1"
        screenshot(page, f"{name}-pr-table")


def test_the_analysis_in_russian_has_no_english_left(new_page, analysed):
    page = new_page(language="ru")
    page.goto(f"/m/{analysed.pk}/")
    page.locator('[data-step="next-blunder"]').click()
    assert page.locator('[data-role="verdict"]').inner_text().startswith("Грубая ошибка")
    page.locator('[data-role="best"]').click()
    assert untranslated_words(page) == []
    page.goto(f"/t/{analysed.tournament.slug}/pr/")
    assert untranslated_words(page) == []

"""A Long Nardy match analysed by the project's engine, in a real browser: the match page names
the engine in plain words and sums up each player's match in words, a worst play's link shows its
position on the board, "next blunder" steps the board viewer to a blunder with the engine's play,
shown on the board on demand; the recorder of a casual match says what the engine would have
played; each player's luck and result with luck taken out, and, in a recorded match with dave
offers, the dave decisions that gave points away (a take of a double-drop, a double missed in a
bear-off) and not the right drop. Screenshots on a phone and at 1920×1080, in English and
Russian."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import override_settings

from games.engine.analysis import long_mark_of
from games.engine.search import engine
from games.rules import LongNardy, Position
from games.rules.game import Double, Drop, Turn
from games.rules.matfile import read_match
from tests.e2e.test_recorder_accepted_in_a_browser import type_play
from tests.e2e.test_recorder_in_a_browser import PHONE, choose_first, recorder, roll, wait_ply
from tests.games.engine.cube_match import LENGTH, staged_misses
from tests.web.conftest import make_site
from tournaments.analysis.models import MatchAnalysis, Mistake
from tournaments.matches.results import match_result_record

from .conftest import SCREENSHOTS, blunder_frames, untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)

DAVE_MATCH = Path(__file__).parents[1] / "games" / "engine" / "cube_match.mat"


@pytest.fixture
def analysed(analysis_on, eager_tasks):
    """A Long Nardy match of random play (blunders aplenty), analysed as its result commits."""
    site = make_site(variant="long", rated=False, match_length=1)
    match = site.match("Anna", "Boris")
    match_result_record(match=match, by=site.organizer, games=site.recorded_games(seed=7))
    assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.DONE
    return match


def test_the_viewer_steps_to_a_blunder_and_shows_the_engines_play(new_page, analysed, screenshot):
    for name, size in (("desktop", {"width": 1920, "height": 1080}), ("phone", PHONE)):
        page = new_page(**size)
        page.goto(f"/m/{analysed.pk}/")
        assert page.locator('[data-role="analysis-totals"] tbody tr').count() == 2
        line = page.locator('[data-role="engine-line"]').inner_text()
        assert "our Long Nardy engine, trained by playing against itself" in line
        summaries = page.locator('[data-role="player-summary"]')
        assert summaries.count() == 2
        summaries.first.scroll_into_view_if_needed()
        screenshot(page, f"{name}-long-analysis-summary")
        section = page.locator('[data-role="analysis"]')
        section.screenshot(path=str(SCREENSHOTS / f"{name}-long-analysis-section.png"))
        link = summaries.first.locator('[data-role="worst"] a').first
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44
        game, step = link.get_attribute("data-board-game"), link.get_attribute("data-board-step")
        link.click()
        board = page.locator('[data-role="board"]')
        assert board.get_attribute("data-step") == step
        assert page.locator('[data-role="verdict"]').inner_text().startswith("Blunder")
        assert page.locator('[data-role="game"]').input_value() == game
        page.goto(f"/m/{analysed.pk}/")  # the viewer back at the start
        blunders = blunder_frames(page)
        assert blunders, "random play blunders"
        board = page.locator('[data-role="board"]')
        page.locator('[data-step="next-blunder"]').click()
        first = blunders[0]
        assert board.get_attribute("data-step") == str(first["step"])
        verdict = page.locator('[data-role="verdict"]').inner_text()
        assert verdict.startswith("Blunder") and first["analysis"]["best"] in verdict
        played = board.inner_html()
        page.locator('[data-role="best"]').click()
        assert board.inner_html() != played
        assert first["analysis"]["best"] in page.locator('[data-role="play"]').inner_text()
        screenshot(page, f"{name}-long-analysed-match")
        page.goto(f"/p/{analysed.home.player.pk}/")
        assert page.locator("#pr-history-long-title").count() == 1
        page.locator('[data-role="pr-history"]').scroll_into_view_if_needed()
        screenshot(page, f"{name}-long-player-pr")


@pytest.fixture
def with_dave(analysis_on, eager_tasks):
    """The recorded 11-point match with dave offers (``tests/games/engine/cube_match.mat``:
    game 1 a double-drop offered and dropped, game 2 one taken, game 3 a double missed in a
    bear-off), its .mat uploaded and analysed as its result commits."""
    site = make_site(variant="long", rated=False, match_length=LENGTH)
    match = site.match("Anna", "Boris")  # Anna plays home: the record's first player
    with override_settings(LONG_ANALYSIS_PLIES=0):
        match_result_record(match=match, by=site.organizer, mat=DAVE_MATCH.read_text("utf-8"))
    assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.DONE
    return match


def test_each_players_luck_and_dave_decisions_show(new_page, with_dave, screenshot):
    cube = Mistake.objects.filter(analysis=with_dave.analysis, kind="cube")
    taken = cube.get(game=2, played="take")
    (ply, _, _), *_ = staged_misses(read_match(DAVE_MATCH.read_text("utf-8")), engine())
    missed = cube.get(game=3, ply=ply)  # the double missed in the bear-off
    dropped = read_match(DAVE_MATCH.read_text("utf-8")).games[0].actions
    assert isinstance(dropped[-1], Drop) and isinstance(dropped[-2], Double)
    offered_after = sum(isinstance(action, Turn) for action in dropped)  # the moves before it
    for name, size in (("desktop", {"width": 1920, "height": 1080}), ("phone", PHONE)):
        page = new_page(**size)
        page.goto(f"/m/{with_dave.pk}/")
        summaries = page.locator('[data-role="player-summary"]')
        for side in (0, 1):
            luck = summaries.nth(side).locator('[data-role="summary-luck"]')
            assert luck.inner_text().startswith("Luck: ")
            assert "with luck taken out" in luck.inner_text()
        decisions = {
            side: summaries.nth(side - 1).locator('[data-role="cube-decisions"] li')
            for side in (1, 2)
        }
        # The take of a double-drop gave points away: a blunder of its taker.
        take = decisions[taken.side].filter(has_text=f"Game 2, after move {taken.move}:")
        assert take.count() == 1
        assert f"gave away {taken.loss:.2f}" in take.inner_text()
        assert "chose take; the engine’s best: drop" in take.inner_text()
        assert take.get_attribute("data-mark") == long_mark_of(taken.loss) == "blunder"
        # The double missed in the bear-off of game 3: a mistake too.
        miss = decisions[missed.side].filter(has_text=f"Game 3, after move {missed.move}:")
        assert "chose no double; the engine’s best: double" in miss.inner_text()
        assert miss.get_attribute("data-mark") == long_mark_of(missed.loss)
        assert long_mark_of(missed.loss) in ("error", "blunder")
        # Game 1's offer and drop were right: neither shows.
        for side in (1, 2):
            said = decisions[side].all_inner_texts()
            assert not any(line.startswith(f"Game 1, after move {offered_after}:") for line in said)
            assert not any("chose drop" in line or "chose double;" in line for line in said)
        for details in page.locator('[data-role="analysis"] details').all():
            details.locator("summary").click()
        headers = page.locator('[data-role="analysis-totals"] thead th').all_text_contents()
        assert "Luck" in headers and "Cube error" in headers  # the last on a wide screen
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        # The screen as a reader sees it (the whole section is many screens long).
        page.locator("#analysis-heading").evaluate("e => e.scrollIntoView()")
        page.screenshot(path=str(SCREENSHOTS / f"long-analysis-dave-{name}-summary.png"))
        take.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(SCREENSHOTS / f"long-analysis-dave-{name}.png"))
    page = new_page(language="ru", **PHONE)
    page.goto(f"/m/{with_dave.pk}/")
    assert untranslated_words(page) == []
    page.locator('[data-role="summary-luck"]').first.evaluate("e => e.scrollIntoView()")
    page.screenshot(path=str(SCREENSHOTS / "long-analysis-dave-phone-ru.png"))


def test_in_russian_no_english_is_left(new_page, analysed, screenshot):
    for name, size in (("desktop", {"width": 1920, "height": 1080}), ("phone", PHONE)):
        page = new_page(language="ru", **size)
        page.goto(f"/m/{analysed.pk}/")
        summary = page.locator('[data-role="player-summary"]').first
        summary.scroll_into_view_if_needed()
        assert "," in summary.locator('[data-role="reading"]').inner_text()  # PR 117,3
        screenshot(page, f"{name}-long-analysis-summary-ru")
        section = page.locator('[data-role="analysis"]')
        section.screenshot(path=str(SCREENSHOTS / f"{name}-long-analysis-section-ru.png"))
        page.locator('[data-role="analysis-terms"] summary').click()
        screenshot(page, f"{name}-long-analysis-terms-ru")
    page.locator('[data-step="next-blunder"]').click()
    verdict = page.locator('[data-role="verdict"]').inner_text()
    assert "очка партии" in verdict and "," in verdict and "эквити" not in verdict
    page.locator('[data-role="best"]').click()
    assert untranslated_words(page) == []
    page.goto(f"/t/{analysed.tournament.slug}/pr/")
    assert page.locator('[data-role="pr-table"] tbody tr').count() == 2
    assert untranslated_words(page) == []


def test_the_recorder_of_a_casual_match_gives_the_engines_play(new_page, log_in, screenshot):
    site = make_site(variant="long", rated=False, casual=True, match_length=1)
    match = site.match("Anna", "Boris")
    page = new_page(**PHONE)
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")
    ply = choose_first(page, 0, 1)
    ply = roll(page, (6, 5), ply)
    type_play(page, "24/13")
    wait_ply(page, ply + 1)
    hint = recorder(page).locator('[data-role="hint"]')
    assert hint.is_hidden()  # the only play of 6-5
    ply = roll(page, (6, 5), ply + 1)
    type_play(page, "24/13")
    wait_ply(page, ply + 1)
    white = Position.from_points(LongNardy(), {24: 14, 13: 1}, {24: 14, 13: 1})
    ranked = engine().rank(white, (4, 2), 0)
    ply = roll(page, (4, 2), ply + 1)
    type_play(page, str(ranked[-1].play))
    wait_ply(page, ply + 1)
    hint.wait_for(state="visible")
    assert str(ranked[0].play) in hint.inner_text()
    assert hint.inner_text().startswith("Practice: the engine would have played")
    screenshot(page, "phone-recorder-practice-hint")

"""The opening roll (the sport rules, art. 26.3) on the recorder, in a real browser on a phone: an
official Long Nardy event, whose games open with one die each. A tie is thrown again; Black
throws higher and moves first with both numbers; the game stored says Black opened. Screenshots
of the opening throw at a phone's size and at 1920×1080."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.e2e.test_recorder_in_a_browser import PHONE, recorder, state_of, tap_play, wait_ply
from tests.web.conftest import make_site

pytestmark = pytest.mark.django_db(transaction=True)


def status_line(page) -> str:
    return recorder(page).locator('[data-role="status"]').text_content().strip()


def throw(page, white: int, black: int) -> None:
    recorder(page).locator(f'[data-opening="white"][data-face="{white}"]').click()
    recorder(page).locator(f'[data-opening="black"][data-face="{black}"]').click()


def test_black_wins_the_opening_throw_on_a_phone(new_page, log_in, screenshot):
    site = make_site(variant="long", official=True, match_length=1)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")
    wait_ply(page, 0)

    # The game opens with the throw: one die each, named after the players and their colours;
    # no "who moves first" question and no two-dice roll.
    assert status_line(page) == (
        "Game 1: the opening throw. One die each, Anna (White) first, then Boris (Black): "
        "tap each die."
    )
    names = recorder(page).locator('[data-role="opening-name"]').all_text_contents()
    assert names == ["Anna (White) threw", "Boris (Black) threw"]
    assert recorder(page).locator('[data-panel="first"]').is_hidden()
    assert recorder(page).locator('[data-panel="dice"]').is_hidden()
    dice = recorder(page).locator("[data-opening]")
    assert dice.count() == 12
    assert min(box["width"] for box in (d.bounding_box() for d in dice.all())) >= 44
    recorder(page).locator('[data-opening="white"][data-face="2"]').click()
    screenshot(page, "recorder-opening-throw-phone")
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "recorder-opening-throw-1920")
    page.set_viewport_size(PHONE)
    recorder(page).locator('[data-action="undo"]').click()  # the die tapped is taken back
    assert recorder(page).locator('[aria-pressed="true"][data-opening]').count() == 0

    # A tie is thrown again: the server says so and nothing is stored.
    throw(page, 4, 4)
    message = recorder(page).locator('[data-role="message"]')
    message.wait_for(state="visible")
    assert "equal dice are thrown again" in message.text_content()
    assert state_of(page, match)["ply"] == 0

    # White throws 2, Black 5: Black (Boris) moves first and plays 5-2.
    throw(page, 2, 5)
    wait_ply(page, 1)
    state = state_of(page, match)
    assert (state["on_roll"], state["dice"], state["first"]) == ("black", "52", "black")
    assert status_line(page).startswith("Boris (Black) plays 52")
    assert recorder(page).locator('[data-panel="opening"]').is_hidden()
    screenshot(page, "recorder-opening-black-plays-phone")
    wanted = next(i for i, legal in enumerate(state["legal_plays"]) if legal["play"] == "24/17")
    tap_play(page, state, wanted)
    wait_ply(page, 2)
    assert state_of(page, match)["on_roll"] == "white"

    # Anna (White) resigns the game, and with it the match to 1.
    recorder(page).locator('[data-role="resign"] summary').click()
    recorder(page).locator('[data-resign="white"][data-value="1"]').click()
    recorder(page).locator('[data-action="resign-confirm"]').click()
    wait_ply(page, 3)
    game = Game.objects.get(match=match)
    assert game.actions[0] == {"opens": "black"} and game.white == 1 and game.winner == 2

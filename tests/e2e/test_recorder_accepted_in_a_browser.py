"""A move the opponent accepts, on the recorder in a real browser on a phone (issue 31, seed 001):
a play typed as it was made at the table is shown with the rule it breaks, the opponent may
demand the correct move or accept it, and the accepted play is entered marked so. A screenshot
is saved."""

from __future__ import annotations

import pytest

from tests.e2e.test_recorder_in_a_browser import PHONE, choose_first, recorder, roll, wait_ply
from tests.web.conftest import make_site
from tournaments.matches.live.models import Draft

pytestmark = pytest.mark.django_db(transaction=True)


def type_play(page, play: str) -> None:
    as_made = recorder(page).locator('[data-role="as-made"]')
    if as_made.get_attribute("open") is None:
        as_made.locator("summary").click()
    as_made.locator('[data-role="as-made-play"]').fill(play)
    as_made.locator('[data-action="as-made"]').click()


def test_seed_001s_incomplete_play_is_shown_refused_and_accepted_on_a_phone(
    new_page, log_in, screenshot
):
    site = make_site(variant="long", match_length=1)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")
    ply = choose_first(page, 0, 1)
    ply = roll(page, (6, 1), ply)

    type_play(page, "24/18")
    panel = recorder(page).locator('[data-panel="accept"]')
    panel.wait_for(state="visible")
    assert panel.locator('[data-role="accept-question"]').text_content() == (
        "24/18 breaks the rules: 2 of 2 dice can be played, this play uses 1. "
        "Does Boris accept it as made?"
    )
    assert recorder(page).locator('[data-panel="moves"]').is_hidden()
    assert recorder(page).locator('[data-role="status"]').text_content() == (
        "Boris accepts the play as made, or demands the correct move"
    )
    screenshot(page, "recorder-accept-question-phone")
    # Boris demands the correct move: back to the roll, nothing entered.
    panel.locator('[data-action="accept-no"]').click()
    assert panel.is_hidden()
    assert recorder(page).locator('[data-panel="moves"]').is_visible()
    assert Draft.objects.get(match=match).ply == ply

    type_play(page, "24/18")
    panel.wait_for(state="visible")
    panel.locator('[data-action="accept-yes"]').click()
    wait_ply(page, ply + 1)
    entry = Draft.objects.get(match=match).entry_rows.order_by("-ply").first()
    assert entry.data == {"dice": "61", "play": "24/18", "accepted": True}
    status = recorder(page).locator('[data-role="status"]').text_content()
    assert status == "Boris (Black) rolls: tap the two dice"

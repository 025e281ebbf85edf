"""The recorder is the clock (issue 31), in a real browser on a phone (390×844): a timed match
shows both players' clocks, large, the running one marked; each entry switches them; a reload
shows the server's time, not the page's; a spectator sees them too; when a flag falls the
recorder offers the flag fall, and that entry ends the match, lost on time. Screenshots are
saved."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.test_recorder_in_a_browser import PHONE, recorder, roll, state_of, wait_ply
from tests.web.conftest import make_site
from tournaments.matches.live import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

#: Ten minutes a player and a delay of two seconds a move.
CONTROL = {"kind": "delay", "base_seconds": 600, "per_move_seconds": 2}


def clock(page, side: str):
    return page.locator(f'[data-role="clocks"] [data-side="{side}"]')


def shown_seconds(page, side: str) -> int:
    text = clock(page, side).locator('[data-role="time"]').text_content()
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", text).groups()
    return int(minutes) * 60 + int(seconds)


def running(page) -> list[str]:
    return [
        side
        for side in ("home", "away")
        if "is-running" in clock(page, side).get_attribute("class")
    ]


def test_the_recorder_is_the_clock_on_a_phone(new_page, log_in, screenshot):
    site = make_site(variant="short", match_length=1, time_control=CONTROL)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")

    clocks = page.locator('[data-role="clocks"]')
    assert clocks.is_visible()
    assert clock(page, "home").locator('[data-role="name"]').text_content() == "Anna"
    assert [shown_seconds(page, side) for side in ("home", "away")] == [600, 600]
    assert running(page) == []  # the clocks start with the first entry

    recorder(page).locator('[data-first="1"]').click()  # Anna moves first: her clock runs
    wait_ply(page, 1)
    page.wait_for_function(
        "document.querySelector('[data-side=home]').classList.contains('is-running')"
    )
    assert running(page) == ["home"]
    ply = roll(page, (3, 1), 1)
    assert running(page) == ["home"]  # the roll is her turn still
    page.wait_for_timeout(3500)  # past the two seconds' delay: her time runs
    recorder(page).locator('[data-role="only-play"], [data-role="choices"] button').first.wait_for()
    state = state_of(page, match)
    services.live_act(
        match_id=match.pk,
        by=match.home.player.user,
        ply=ply,
        action={"dice": "31", "play": state["legal_plays"][0]["play"]},
    )  # the play, entered on Anna's other phone: this one follows it
    wait_ply(page, ply + 1)
    page.wait_for_function(
        "document.querySelector('[data-side=away]').classList.contains('is-running')"
    )
    assert running(page) == ["away"]
    home_left = shown_seconds(page, "home")
    assert 590 <= home_left <= 599  # a second or more past the delay was charged
    screenshot(page, "recorder-clocks-phone")

    # A reload shows the server's time: Anna's stopped clock as it was, Boris's running one.
    page.wait_for_timeout(3000)
    reloaded = time.monotonic()
    page.reload()
    page.wait_for_selector('[data-role="clocks"]:not([hidden])')
    assert shown_seconds(page, "home") == home_left
    shown = shown_seconds(page, "away")
    server = state_of(page, match)["clocks"]
    assert server["running"] == "away"
    # The page's clock is the server's as the page was drawn, counting down since: it may be
    # ahead of the server's now by the time the page took to come (a busy machine: seconds),
    # and by less than two for the rounding: the page rounds up (597.07 shows 598), the API
    # down (596.7 says 596).
    assert -1 <= shown - server["away"] < 2 + (time.monotonic() - reloaded)
    assert server["away"] < 600  # three seconds and more since Anna's play, two of them delay

    # A spectator's page shows the same clocks.
    spectator = new_page(width=PHONE["width"], height=PHONE["height"])
    spectator.goto(f"/m/{match.pk}/")
    spectator.wait_for_selector('[data-role="live-follow"] [data-role="clocks"]:not([hidden])')
    assert shown_seconds(spectator, "home") == home_left
    spectator.close()

    # The judge takes Boris's time (he is out of it): his flag falls, and the recorder offers
    # the flag fall; nothing else may be entered.
    services.live_clock(
        match_id=match.pk, by=site.organizer, action="adjust", side="away", seconds=-600
    )
    flag = recorder(page).locator('[data-panel="flag"]')
    flag.wait_for(state="visible", timeout=10_000)
    assert flag.locator('[data-role="flag-text"]').text_content() == (
        "Boris’s time ran out: the match is lost on time."
    )
    assert "is-fallen" in clock(page, "away").get_attribute("class")
    assert recorder(page).locator('[data-panel="dice"]').is_hidden()
    screenshot(page, "recorder-flag-fell-phone")
    before = state_of(page, match)["ply"]
    flag.locator('[data-action="flag"]').click()
    wait_ply(page, before + 1)
    status = recorder(page).locator('[data-role="status"]').text_content()
    assert status.startswith("Boris lost on time: Anna wins the match.")
    match = Match.objects.get(pk=match.pk)
    assert match.lost_on_time == "away" and match.winner_id == match.home_id
    assert match.status == Match.Status.REPORTED
    screenshot(page, "recorder-lost-on-time-phone")

    # The match page says so, and the replay shows when each move was entered.
    page.goto(f"/m/{match.pk}/")
    assert (
        page.locator('[data-role="lost-on-time"]').first.text_content().strip()
        == "Boris lost on time"
    )
    times = page.locator('[data-role="move-time"]')
    page.locator('.board-viewer [data-step="next"]').first.click()
    times.first.wait_for()
    assert re.search(r"Anna \d+:\d\d, Boris \d+:\d\d", times.first.text_content())
    screenshot(page, "match-lost-on-time-phone")

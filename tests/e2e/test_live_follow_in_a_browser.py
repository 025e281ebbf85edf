"""A spectator's page follows a match being recorded by long-poll (``live/next``): each entry
shows on the board within a second of being written, and while nothing changes the page asks
nothing more than the one request that waits. (Here the live server's threads wait, as
runserver's do; production's follow server is tested in test_live_follow.py and measured by
bench/live_bench.py.)"""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import make_site
from tournaments.matches.live.services import live_act

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = "() => document.querySelector('[data-role=live-follow] svg').innerHTML"


def test_the_spectators_page_shows_each_entry_within_a_second_and_asks_nothing_meanwhile(
    new_page, settings, screenshot
):
    settings.LIVE_FOLLOW_WAIT_UNDER_WSGI = True
    settings.LIVE_FOLLOW_WAIT_SECONDS = 20
    site = make_site()
    match = site.match("Anna", "Boris")
    boris = site.players["Boris"]
    live_act(match_id=match.pk, by=boris, ply=0, action={"first": 1})
    live_act(match_id=match.pk, by=boris, ply=1, action={"dice": "52"})

    page = new_page(width=390, height=844)
    follows: list[float] = []
    page.on(
        "request", lambda request: "/live/next" in request.url and follows.append(time.monotonic())
    )
    page.goto(f"/m/{match.pk}/")
    page.locator('[data-role="live-follow"]').wait_for(state="visible")
    page.wait_for_function(f"() => ({BOARD})().length > 0")
    page.wait_for_timeout(500)  # the first answer came; its follow-up now waits
    asked = len(follows)
    assert asked == 2

    for ply, action in ((2, {"dice": "52", "play": "24/22 13/8"}), (3, {"dice": "31"})):
        page.wait_for_timeout(2500)
        assert len(follows) == asked  # nothing changed: no request beyond the one waiting
        before = page.evaluate(BOARD)
        live_act(match_id=match.pk, by=boris, ply=ply, action=action)
        page.wait_for_function(f"before => ({BOARD})() !== before", arg=before, timeout=1000)
        page.wait_for_timeout(300)
        asked += 1
        assert len(follows) == asked  # the entry's answer, then one new follow that waits
    screenshot(page, "live-follow-phone")

"""What a judge sees of a phone that recorded offline (issue 50): the match page's replay shows
the time each move was taken, and where the phone's own time could not be (it was clamped), what
the phone said, marked for the judge. On a phone (390×844) and at 1920×1080; screenshots saved."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.e2e.test_recorder_in_a_browser import PHONE
from tests.web.conftest import make_site
from tournaments.matches.live import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", [PHONE, {"width": 1920, "height": 1080}], ids=["phone", "wide"])
def test_the_replay_marks_a_clamped_phone_time_for_the_judge(new_page, log_in, screenshot, size):
    site = make_site(match_length=1, time_control={"kind": "delay", "base_seconds": 600,
                                                   "per_move_seconds": 2})  # fmt: skip
    match = site.match("Anna", "Boris")
    anna = site.players["Anna"]
    now = timezone.now()
    services.live_act(match_id=match.pk, by=anna, ply=0, action={"first": 1})
    behind = now - dt.timedelta(minutes=10)  # the phone's clock is ten minutes behind
    services.live_sync(
        match_id=match.pk, by=anna, ply=1,
        entries=[({"dice": "31"}, behind), ({"resign": "white", "value": 1}, behind)],
    )  # fmt: skip
    page = new_page(width=size["width"], height=size["height"])
    log_in(page, "olga", "pw-olga-123")
    page.goto(f"/m/{match.pk}/")
    page.locator('.board-viewer [data-step="next"]').first.click()
    mark = page.locator('[data-role="clamped-time"]').first
    mark.wait_for()
    said = behind.astimezone(dt.UTC)
    text = mark.text_content()
    assert "the phone said" in text and "clamped, for the judge" in text
    assert f"{said.minute:02d}:{said.second:02d}" in text
    mark.scroll_into_view_if_needed()
    screenshot(page, f"match-clamped-time-{'phone' if size is PHONE else 'wide'}")

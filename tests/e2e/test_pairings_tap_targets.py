"""The way from the pairings to a match is a finger's tap (issue 46): on a phone, each match's
link in a tournament's rounds page (its score, or "vs" before it is played) is at least 44 × 44 CSS
px, played or not. Screenshots of the rounds are saved at both sizes."""

from __future__ import annotations

import pytest

from tests.web.conftest import make_site
from tournaments.matches.results import match_result_record

pytestmark = pytest.mark.django_db(transaction=True)

PHONE, DESKTOP = (390, 844), (1920, 1080)


def test_each_match_of_the_pairings_is_a_44_px_tap_on_a_phone(new_page, screenshot):
    site = make_site()
    match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1))
    for (width, height), name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(width=width, height=height)
        page.goto(f"/t/{site.tournament.slug}/rounds/")
        links = page.locator("tr[data-match] .score-cell a")
        boxes = [links.nth(i).bounding_box() for i in range(links.count())]
        texts = [links.nth(i).text_content().strip() for i in range(links.count())]
        assert len(boxes) == 6 and "vs" in texts and "3 – 1" in texts  # a round robin of 4
        small = [(text, box) for text, box in zip(texts, boxes, strict=True)
                 if box["width"] < 44 or box["height"] < 44]  # fmt: skip
        assert small == [], name
        width_used = page.evaluate("document.documentElement.scrollWidth")
        assert width_used <= width, name
        screenshot(page, f"pairings-tap-targets-{name}")

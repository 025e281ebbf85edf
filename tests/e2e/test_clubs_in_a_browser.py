"""The club and season pages in a real browser, on the demo club: the season table on a phone
and a wall screen (no sideways scroll, a player's chart opens), an organizer makes a season and
counts an evening in it, and the Russian pages show no untranslated text. Screenshots of every
page are saved on the way."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tournaments.demo import DEMO_CLUB_SLUG, DEMO_ORGANIZER, DEMO_SEASON_SLUG, demo_data_seed
from tournaments.ratings.ledger import ratings_replay
from tournaments.seasons.models import Season
from tournaments.services import tournament_create

from .conftest import untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)
CLUB = f"/c/{DEMO_CLUB_SLUG}/"
SEASON = f"{CLUB}s/{DEMO_SEASON_SLUG}/"


@pytest.fixture
def demo_club(db):
    demo_data_seed()
    ratings_replay(None)
    organizer = User.objects.get(username=DEMO_ORGANIZER)
    organizer.set_password("demo-pass-123")
    organizer.save()
    return organizer


def test_the_club_and_season_pages_on_a_phone_and_a_wall(new_page, demo_club, screenshot):
    phone = new_page(width=390, height=844)
    for name, url in [("clubs", "/clubs/"), ("club", CLUB), ("season", SEASON)]:
        phone.goto(url)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{name} scrolls sideways on a phone: {width}px"
        screenshot(phone, f"phone-{name}")
    rows = phone.locator("[data-role=season-table] tbody tr")
    assert rows.count() == 6
    first_chart = phone.locator("[data-role=chart]").first
    first_chart.locator("summary").click()
    assert first_chart.locator("svg.rating-chart").is_visible()
    screenshot(phone, "phone-season-chart")

    wall = new_page(width=1920, height=1080)
    for name, url in [("clubs", "/clubs/"), ("club", CLUB), ("season", SEASON)]:
        wall.goto(url)
        screenshot(wall, f"desktop-{name}")
    assert wall.locator("[data-role=provisional]").is_visible()  # the running evening


def test_an_organizer_makes_a_season_and_counts_an_evening(new_page, demo_club, log_in, screenshot):
    club = demo_club.club_memberships.get().club
    tournament_create(organizer=demo_club, name="Friday Blitz", variant="short", club=club)
    page = new_page(width=390, height=844)
    log_in(page, DEMO_ORGANIZER, "demo-pass-123")
    page.goto(CLUB)
    page.get_by_role("link", name="New season").click()
    page.fill("#id_name", "Winter 2027")
    page.check("input[name=scoring][value=wins]")
    page.fill("#id_win_points", "2")
    page.fill("#id_best_of", "8")
    screenshot(page, "phone-season-create")
    page.get_by_role("button", name="Create the season").click()
    page.wait_for_url(re.compile(r"/s/winter-2027/edit/$"))
    page.select_option("#id_tournament", label="Friday Blitz")
    page.get_by_role("button", name="Count it in the season").click()
    page.wait_for_url(re.compile(r"/s/winter-2027/edit/$"))
    assert page.locator("[data-role=season-events]").inner_text().count("Friday Blitz") == 1
    screenshot(page, "phone-season-edit")
    season = Season.objects.get(slug="winter-2027")
    assert (season.scoring, season.win_points, season.best_of) == ("wins", 2, 8)
    assert list(season.tournaments.values_list("name", flat=True)) == ["Friday Blitz"]


def test_the_russian_club_pages_show_no_untranslated_text(new_page, demo_club, log_in, screenshot):
    page = new_page(language="en")
    page.goto("/")
    with page.expect_navigation():
        page.select_option("#language", "ru")
    pages = [("clubs", "/clubs/"), ("club", CLUB), ("season", SEASON)]
    organizer_pages = [
        ("club-edit", f"{CLUB}edit/"),
        ("club-members", f"{CLUB}members/"),
        ("season-create", f"{CLUB}seasons/new/"),
        ("season-edit", f"{SEASON}edit/"),
        ("create-for-club", "/tournaments/new/"),
    ]
    untranslated = {}
    for signed_in, group in ((False, pages), (True, organizer_pages)):
        if signed_in:
            log_in(page, DEMO_ORGANIZER, "demo-pass-123")
        for name, url in group:
            page.goto(url)
            if words := untranslated_words(page):
                untranslated[name] = words
            screenshot(page, f"ru-{name}")
    assert untranslated == {}

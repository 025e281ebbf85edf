"""The club and season pages in a real browser, on the demo club: the season table on a phone
and a wall screen (no sideways scroll, a player's chart opens), an organizer makes a season and
counts an evening in it, and the Russian pages show no untranslated text. Screenshots of every
page are saved on the way."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.support.demo import demo_seeded
from tournaments.demo import (
    DEMO_CLUB_SLUG,
    DEMO_ORGANIZER,
    DEMO_SEASON_SLUG,
    DEMO_SIGNUP_SLUG,
)
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.ratings.ledger import ratings_replay
from tournaments.seasons.models import Season
from tournaments.services import entry_register, tournament_create

from .conftest import untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)
CLUB = f"/c/{DEMO_CLUB_SLUG}/"
SEASON = f"{CLUB}s/{DEMO_SEASON_SLUG}/"


@pytest.fixture
def demo_club(db):
    demo_seeded()
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
    pages = [("clubs", "/clubs/"), ("club", CLUB), ("season", SEASON),
             ("signup", f"/t/{DEMO_SIGNUP_SLUG}/signup/"), ("two-stage", "/t/demo-evening-2/"),
             ("group", "/t/demo-evening-2-group-a/")]  # fmt: skip
    organizer_pages = [
        ("signup-organizer", f"/t/{DEMO_SIGNUP_SLUG}/signup/"),
        ("club-edit", f"{CLUB}edit/"),
        ("club-members", f"{CLUB}members/"),
        ("season-create", f"{CLUB}seasons/new/"),
        ("season-edit", f"{SEASON}edit/"),
        ("create-for-club", "/tournaments/new/"),
        ("claims", "/claims/"),
        ("merge", f"/p/{Player.objects.get(display_name='Nino Kapanadze').pk}/merge/"),
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


def test_a_player_signs_up_and_checks_in_on_a_phone(new_page, demo_club, log_in, screenshot):
    friday = Tournament.objects.get(slug=DEMO_SIGNUP_SLUG)
    Tournament.objects.filter(pk=friday.pk).update(starts_at=timezone.now() + timedelta(minutes=20))
    User.objects.create_user("lena", password="lena-pass-123")
    page = new_page(width=390, height=844)
    page.goto(f"/t/{friday.slug}/signup/")
    assert page.get_by_role("link", name="Log in to sign up").is_visible()
    screenshot(page, "phone-signup-visitor")
    log_in(page, "lena", "lena-pass-123")
    page.goto(f"/t/{friday.slug}/signup/")
    page.fill("#id_display_name", "Lena Ozola")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector("[data-role=my-state]")
    assert "Entered" in page.locator("[data-role=my-state]").inner_text()
    assert "6 of 16 places taken" in page.locator("[data-role=signup-summary]").inner_text()
    screenshot(page, "phone-signup-entered")
    page.locator("[data-action=check-in]").click()
    page.wait_for_selector("[data-role=checked-in]")
    screenshot(page, "phone-signup-checked-in")
    entry = friday.entries.get(player__display_name="Lena Ozola")
    assert entry.checked_in_at is not None and entry.player.user.username == "lena"
    page.goto("/me/matches/")
    assert "Friday Short Nardy Open" in page.locator("[data-role=signups]").inner_text()
    screenshot(page, "phone-my-signups")

    organizer = new_page(width=1920, height=1080)
    log_in(organizer, DEMO_ORGANIZER, "demo-pass-123")
    organizer.goto(f"/t/{friday.slug}/")
    notice = organizer.locator("[data-role=start-notice]").first.inner_text()
    assert "Not checked in, so withdrawn at the start" in notice and "Lena" not in notice
    screenshot(organizer, "desktop-start-notice")
    organizer.goto(f"/t/{friday.slug}/signup/")
    screenshot(organizer, "desktop-signup-organizer")


def test_an_organizer_runs_a_two_stage_event_to_its_end(new_page, demo_club, log_in, screenshot):
    page = new_page(width=1920, height=1080)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, DEMO_ORGANIZER, "demo-pass-123")
    page.goto("/tournaments/new/")
    page.fill("#id_name", "Two-Stage Cup")
    page.check("input[name=variant][value=long]")
    page.select_option("#id_format", "single-elimination")
    page.fill("#id_match_size", "1")
    page.select_option("#id_first_stage", "groups")
    page.fill("#id_groups", "2")
    page.fill("#id_advance", "1")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/t/two-stage-cup/")
    cup = Tournament.objects.get(slug="two-stage-cup")
    for player in Player.objects.order_by("display_name")[:6]:
        entry_register(tournament=cup, player=player, by=demo_club)
    page.reload()
    page.locator("[data-step=start]").click()
    page.wait_for_selector("[data-role=stages]")
    assert page.locator("[data-role=stage-one]").count() == 2
    for group in cup.stages.all():
        for match in group.matches.filter(away__isnull=False):
            match_result_record(match=match, by=demo_club, score=(1, 0))
    page.reload()
    assert page.locator("[data-role=qualifiers] li").count() == 2
    screenshot(page, "desktop-two-stage-groups")
    page.locator("[data-step=build-stage-2]").click()
    page.wait_for_selector("[data-role=stage-two]")
    final = Match.objects.get(tournament__parent=cup, tournament__stage=2)
    page.goto(f"/m/{final.pk}/")
    page.locator("[data-action=report]").click()
    page.locator("input[name=mode][value=score]").check()
    page.fill("input[name=score_home]", "1")
    page.fill("input[name=score_away]", "0")
    page.locator("[data-action=submit-result]").click()
    page.wait_for_url(f"**/m/{final.pk}/")
    page.goto(f"/t/{final.tournament.slug}/bracket/")
    screenshot(page, "desktop-two-stage-bracket")
    page.goto("/t/two-stage-cup/")
    page.locator("[data-step=finish]").click()
    page.wait_for_load_state()
    assert page.locator("[data-role=status]").first.inner_text().strip() == "Finished"
    assert set(Tournament.objects.filter(parent=cup).values_list("status", flat=True)) == {
        "finished"
    }
    phone = new_page(width=390, height=844)
    phone.goto("/t/two-stage-cup/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "phone-two-stage-event")

"""A federation's lists on a phone and a desktop (issue 44): the home page's running events and
its pages, a rating list paged and searched with the reader's own place, players found by name
in either script, a season's table by event, and an entry form that finds a player as the
organizer types. Screenshots are saved."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.support.history import rated_history
from tournaments import services
from tournaments.clubs.models import Club, Membership
from tournaments.models import Player, Tournament
from tournaments.ratings import ledger
from tournaments.seasons.models import Season

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}


@pytest.fixture
def federation():
    """130 rated players (two pages of a rating list), a club whose season has 16 events (one
    column at a time), one of them running, and a Cyrillic name to find."""
    history = rated_history(matches=400, players=130, tournaments=16, seed=21)
    club = Club.objects.create(name="Baku Nardy", slug="baku")
    owner = User.objects.create_user("rashad", password="pw-rashad-123")
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    season = Season.objects.create(club=club, name="2026", slug="s2026")
    Tournament.objects.filter(pk__in=[t.pk for t in history.tournaments]).update(
        club=club, season=season
    )
    Tournament.objects.filter(pk=history.tournaments[-1].pk).update(
        status=Tournament.Status.RUNNING
    )
    ledger.ratings_replay(None)
    viktor = Player.objects.create(display_name="Виктор Петров", home_club=club)
    anna = User.objects.create_user("anna", password="pw-anna-123")
    Player.objects.filter(pk=history.players[40].pk).update(user=anna)
    return {"club": club, "season": season, "owner": owner, "viktor": viktor,
            "anna_player": history.players[40]}  # fmt: skip


def test_the_lists_of_a_federation_on_a_phone_and_a_desktop(
    federation, new_page, log_in, screenshot
):
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(width=size["width"], height=size["height"])
        page.goto("/")
        assert page.locator('[data-role="running-tournaments"] tr').count() == 2  # head + 1
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        screenshot(page, f"{name}-home-running-and-pages")

        page.goto("/ratings/short/")
        assert page.locator('[data-role="rating-list"] tbody tr').count() == 100
        page.locator('[data-role="pager"] a[rel="next"]').click()
        page.wait_for_url("**page=2**")
        assert page.locator('[data-role="rating-list"] tbody tr').count() >= 1
        page.locator('[data-role="rating-search"] input[name="q"]').fill("21-7")
        page.locator('[data-role="rating-search"] button[type=submit]').click()
        page.wait_for_url("**q=21-7**")
        rows = page.locator('[data-role="rating-list"] tbody tr')
        assert rows.count() >= 1 and "Player 21-7" in rows.first.text_content()
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        screenshot(page, f"{name}-rating-list-searched")

        page.goto("/players/?q=viktor")
        found = page.locator('[data-role="players-found"] tbody tr')
        assert found.count() == 1 and "Виктор Петров" in found.first.text_content()
        screenshot(page, f"{name}-players-found-by-a-latin-spelling")

        page.goto(f"/c/baku/s/{federation['season'].slug}/")
        assert page.locator('[data-role="by-event"]').count() == 1
        page.locator('[data-role="event-column"]').nth(2).click()
        page.wait_for_url("**event=**")
        assert "With the points of" in page.locator('[data-role="by-event"]').text_content()
        screenshot(page, f"{name}-season-table-by-event")

    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto("/ratings/short/")
    own = page.locator('[data-role="own-position"]')
    assert federation["anna_player"].display_name in own.text_content()
    own.locator("a").click()
    page.wait_for_url("**page=**")
    screenshot(page, "phone-rating-list-own-place")


def test_an_organizer_finds_a_player_by_typing_in_the_entry_form(
    federation, new_page, log_in, screenshot
):
    cup = services.tournament_create(
        organizer=federation["owner"], name="Baku Open", slug="baku-open", variant="short",
        match_length=5,
    )  # fmt: skip
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "rashad", "pw-rashad-123")
    page.goto(f"/t/{cup.slug}/players/")
    form = page.locator('[data-role="add-player"]')
    field = form.locator('input[name="player"]')
    field.press_sequentially("петр", delay=60)
    options = page.locator(f"datalist#{field.get_attribute('list')} option")
    options.first.wait_for(state="attached")
    assert options.first.get_attribute("value") == "Виктор Петров"
    screenshot(page, "phone-entry-form-finds-a-player")
    field.fill("Виктор Петров")
    form.locator("button[type=submit]").click()
    page.locator('[role="status"], .message').first.wait_for()
    assert cup.entries.filter(player=federation["viktor"]).exists()

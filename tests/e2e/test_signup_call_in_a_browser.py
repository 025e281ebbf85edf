"""A new player's way in is a finger's tap (issue 46): on a tournament that takes sign-ups a
visitor sees "Create an account and sign up", creates the account and lands on the tournament's
sign-up; "Log in" and "Sign up" in the header and the call's two buttons are at least 44 × 44 CSS
px on a phone. English and Russian; screenshots at both sizes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments.services import tournament_create, tournament_open_registration

pytestmark = pytest.mark.django_db(transaction=True)

PHONE, DESKTOP = (390, 844), (1920, 1080)
TAPS = ".site-header .account > a, [data-role='signup-call'] a"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_visitor_taps_the_call_creates_an_account_and_lands_on_the_sign_up(
    new_page, screenshot, language
):
    olga = User.objects.create_user("olga", password="pw-olga-123")
    tournament = tournament_create(organizer=olga, name="Tuesday", variant="long", self_signup=True)
    tournament_open_registration(tournament=tournament, by=olga)
    for (width, height), size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(language=language, width=width, height=height)
        page.goto(f"/t/{tournament.slug}/")
        links = page.locator(TAPS)
        assert links.count() == 4  # Log in, Sign up; the call's two
        for index in range(links.count() if size == "phone" else 0):  # a finger's, on a phone
            box = links.nth(index).bounding_box()
            label = links.nth(index).text_content().strip()
            assert box["width"] >= 44 and box["height"] >= 44, (size, label, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"signup-call-{language}-{size}")

    page = new_page(language=language, width=PHONE[0], height=PHONE[1])
    page.goto(f"/t/{tournament.slug}/")
    page.click("[data-role='signup-call'] [data-action='create-account']")
    page.fill("input[name='username']", f"anna-{language}")
    page.fill("input[name='password1']", "a-long-pass-phrase-1")
    page.fill("input[name='password2']", "a-long-pass-phrase-1")
    page.click("main button[type='submit']")
    page.wait_for_url(f"**/t/{tournament.slug}/signup/")
    assert page.locator("button[data-action='signup']").is_visible()
    screenshot(page, f"signup-after-account-{language}-phone")

"""A tournament of a category on a phone (issue 31): a new user signs up to a women's event from
10, is refused with the reason while too young, and is in with a birth year that fits; a player
whose profile is empty sets it from the sign-up page and comes back to sign up. In English and
in Russian, no page wider than the phone, no Russian page with English words."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tournaments.models import Player
from tournaments.services import tournament_create, tournament_open_registration

from .conftest import untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def cup(db):
    olga = User.objects.create_user("olga", password="pw-olga-123")
    made = tournament_create(
        organizer=olga, name="Women's Cup", slug="women", variant="long", self_signup=True,
        category="women", min_age=10, starts_at=timezone.make_aware(datetime(2026, 12, 20, 10)),
    )  # fmt: skip
    return tournament_open_registration(tournament=made, by=olga)


def fits(page, name: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways on a phone: {width}px"


@pytest.mark.parametrize(
    ("language", "refusal", "entered"),
    [
        ("en", "This tournament is for players aged 10 or more in 2026: you are 6 in 2026.",
         "You are in."),
        ("ru", "вам в 2026 году исполняется 6", "Вы в числе участников."),
    ],
)  # fmt: skip
def test_a_new_user_signs_up_to_a_womens_event_on_a_phone(
    new_page, cup, log_in, screenshot, language, refusal, entered
):
    User.objects.create_user("dina", password="pw-dina-123")
    page = new_page(language=language, **PHONE)
    log_in(page, "dina", "pw-dina-123")
    page.goto("/t/women/signup/")
    fits(page, "the sign-up page")
    if language == "ru":
        assert untranslated_words(page) == []
    screenshot(page, f"phone-category-signup-{language}")
    page.fill("#id_display_name", "Dina")
    page.select_option("#id_gender", "female")
    page.fill("#id_birth_year", "2020")
    page.locator("[data-action=signup]").click()
    assert refusal in page.locator("main").inner_text()
    fits(page, "the refused sign-up")
    screenshot(page, f"phone-category-refused-{language}")
    assert not Player.objects.exists()
    page.fill("#id_birth_year", "2000")
    page.select_option("#id_gender", "female")
    page.locator("[data-action=signup]").click()
    page.wait_for_url("**/t/women/signup/")
    assert entered in page.locator("main").inner_text()
    assert cup.entries.get().player.birth_year == 2000


def test_a_player_sets_their_profile_from_the_sign_up_page(new_page, cup, log_in, screenshot):
    anna = User.objects.create_user("anna", password="pw-anna-123")
    Player.objects.create(display_name="Anna", user=anna)
    page = new_page(language="ru", **PHONE)
    log_in(page, "anna", "pw-anna-123")
    page.goto("/t/women/signup/")
    page.locator("[data-action=signup]").click()
    assert "сначала укажите пол в своём профиле" in page.locator("main").inner_text()
    page.locator("[data-action=profile]").click()
    page.wait_for_url("**/profile/**")
    fits(page, "the profile page")
    assert untranslated_words(page) == []
    screenshot(page, "phone-profile-ru")
    page.select_option("#id_gender", "female")
    page.fill("#id_birth_year", "1995")
    page.locator("[data-action=save-profile]").click()
    page.wait_for_url("**/t/women/signup/")
    page.locator("[data-action=signup]").click()
    page.wait_for_url("**/t/women/signup/")
    assert "Вы в числе участников." in page.locator("main").inner_text()

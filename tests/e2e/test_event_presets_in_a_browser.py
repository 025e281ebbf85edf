"""An event preset on the organizer's form (issue 48): choosing one fills the game, the clock,
the match length, the format and the elimination at once, shows the fields that now apply, and
leaves each of them the organizer's to change before saving."""

import pytest
from django.contrib.auth.models import User

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def value(page, name: str) -> str:
    return page.locator(f"#tournament-form [name={name}]").first.input_value()


def shown(page, name: str) -> bool:
    return page.locator(f"#tournament-form [name={name}]").first.is_visible()


def test_a_preset_fills_the_form_and_each_field_stays_editable(new_page, log_in, screenshot):
    User.objects.create_user("olga", password="pw-olga-123")
    page = new_page("en", **PHONE)
    log_in(page, "olga", "pw-olga-123")
    page.goto("/tournaments/new/")
    assert page.locator("[data-role=event-preset] button").count() == 0  # the script fills

    page.select_option("select[name=preset]", "short")
    assert page.locator("#tournament-form input[name=variant][value=short]").is_checked()
    assert (value(page, "match_size"), value(page, "format"), value(page, "clock")) == (
        "9", "swiss", "short",
    )  # fmt: skip
    assert shown(page, "swiss_out_after_losses") and value(page, "swiss_out_after_losses") == "3"

    page.select_option("select[name=preset]", "long-blitz")
    assert page.locator("#tournament-form input[name=variant][value=long]").is_checked()
    assert (value(page, "match_size"), value(page, "format"), value(page, "clock")) == (
        "3", "single-elimination", "long-blitz",
    )  # fmt: skip
    assert not shown(page, "swiss_out_after_losses") and shown(page, "third_place")
    screenshot(page, "event-preset-long-blitz-phone")

    page.fill("#tournament-form input[name=name]", "Blitz Cup")
    page.fill("#tournament-form input[name=match_size]", "5")  # the organizer's own length
    page.locator("#tournament-form button[type=submit]").click()
    page.wait_for_url("**/t/blitz-cup/**")
    made = Tournament.objects.get(slug="blitz-cup")
    assert (made.variant, made.match_length, made.format, made.discipline) == (
        "long", 5, "single-elimination", "long-blitz",
    )  # fmt: skip
    assert made.time_control == {"kind": "delay", "base_seconds": 60, "per_move_seconds": 10}

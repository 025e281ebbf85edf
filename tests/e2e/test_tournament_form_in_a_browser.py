"""The new-tournament form asks only what applies: on a phone, in Russian, each section of the
form fits in about two screens, and choosing the game and the format shows the fields they use
and hides the others (which the server then ignores)."""

import pytest
from django.contrib.auth.models import User

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
SECTION_HEIGHTS = """() => [...document.querySelectorAll('form.stacked > fieldset')]
  .filter(set => !set.hidden).map(set => [set.querySelector('legend').textContent.trim(),
                                          Math.round(set.getBoundingClientRect().height)])"""


def shown(page, name: str) -> bool:
    return page.locator(f"[name={name}]").first.is_visible()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_form_shows_the_fields_of_the_chosen_game_and_format(
    new_page, log_in, screenshot, language
):
    User.objects.create_user("olga", password="pw-olga-123")
    page = new_page(language, **PHONE)
    log_in(page, "olga", "pw-olga-123")
    page.goto("/tournaments/new/")
    # The defaults: Long Nardy, a round robin, dave on, matches to points.
    page.check("input[name=variant][value=long]")
    assert shown(page, "federation_draw") and shown(page, "block_check")
    assert not shown(page, "koks") and not shown(page, "no_hit_and_hide")
    assert not shown(page, "draw_counts")  # only with the Federation draw rule
    assert not shown(page, "third_place") and not shown(page, "grand_final")
    assert not shown(page, "capacity")  # only when players sign up themselves
    heights = page.evaluate(SECTION_HEIGHTS)
    assert all(height <= 2 * PHONE["height"] for _, height in heights), heights
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, f"{language}-tournament-form-long-round-robin-phone")

    page.check("input[name=federation_draw]")
    assert shown(page, "draw_counts")
    page.check("input[name=variant][value=short]")
    assert shown(page, "koks") and not shown(page, "federation_draw")
    assert not shown(page, "draw_counts")
    page.select_option("select[name=format]", "double-elimination")
    assert shown(page, "grand_final") and shown(page, "first_stage")
    assert not shown(page, "tiebreaks") and not shown(page, "swiss_rounds")
    page.select_option("select[name=first_stage]", "groups")
    assert shown(page, "groups") and shown(page, "advance") and shown(page, "tiebreaks")
    page.check("input[name=self_signup]")
    assert shown(page, "capacity")
    heights = page.evaluate(SECTION_HEIGHTS)
    assert all(height <= 2 * PHONE["height"] for _, height in heights), heights
    screenshot(page, f"{language}-tournament-form-short-two-stages-phone")

    page.fill("input[name=name]", "Friday Cup")
    page.fill("input[name=match_size]", "5")
    page.fill("input[name=groups]", "2")
    page.fill("input[name=advance]", "2")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url("**/t/friday-cup/**")
    made = Tournament.objects.get(slug="friday-cup")
    assert (made.variant, made.format, made.first_stage, made.groups) == (
        "short",
        "double-elimination",
        "groups",
        2,
    )
    assert made.federation_draw is False  # ticked while it was Long Nardy, then hidden: ignored

"""Entry at the speed of a room (issue 46), in a browser on a phone, in English and in Russian:
a pasted list of six names enters six players, one of them matched to a player of the site and
one near name answered "did you mean"; and a slip leaves no junk player (after "already
entered" the field is empty, and the next name typed makes only that player). Screenshots of the
paste box and its preview on a phone and at 1920 × 1080."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tests.e2e.conftest import LATIN_ALLOWED
from tournaments import services
from tournaments.clubs.services import club_create
from tournaments.models import Player
from tournaments.players.models import IdentityAudit

pytestmark = pytest.mark.django_db(transaction=True)

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1920, "height": 1080}
SIX = ["anna  petrova", "Rustam Guliev", "", "Elena Kim", "Boris Aliyev", "Dina Sarkisova",
       "Oleg Ivanov"]  # fmt: skip


@pytest.fixture
def evening():
    """Olga's draft evening; Anna Petrova and Rustam Guliyev are players of the site already."""
    olga = User.objects.create_user("olga", password="pw-olga-123")
    Player.objects.create(display_name="Anna Petrova")
    Player.objects.create(display_name="Rustam Guliyev")
    return services.tournament_create(
        organizer=olga, name="Riga evening", variant="short", match_length=3
    )


def entered(tournament) -> list[str]:
    return sorted(tournament.entries.values_list("player__display_name", flat=True))


def untranslated_words_of(page, selector: str) -> list[str]:
    """The Latin words a Russian reader sees in the part of the page ``selector`` picks (the
    names, marked translate="no", left out)."""
    text = page.locator(selector).evaluate(
        """part => {
          const copy = part.cloneNode(true);
          copy.querySelectorAll('[translate="no"], [hidden], script').forEach(e => e.remove());
          return copy.innerText;
        }"""
    )
    return sorted(set(re.findall(r"[A-Za-z]{2,}", text)) - LATIN_ALLOWED)


def tap_targets_too_small(page, selector: str) -> list[str]:
    small = []
    for element in page.locator(selector).all():
        box = element.bounding_box()
        if box is not None and (box["height"] < 44 or box["width"] < 44):
            small.append(f"{element.text_content().strip()}: {box}")
    return small


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_pasted_list_of_six_enters_six_one_of_them_matched(
    new_page, log_in, screenshot, evening, language
):
    sizes = [("phone", PHONE)] + ([("desktop", DESKTOP)] if language == "en" else [])
    for size, viewport in sizes:
        if size == "desktop":  # the same list again at 1920 × 1080, on a fresh evening
            evening.entries.all().delete()
            Player.objects.exclude(display_name__in=["Anna Petrova", "Rustam Guliyev"]).delete()
        page = new_page(language, **viewport)
        log_in(page, "olga", "pw-olga-123")
        page.goto(f"/t/{evening.slug}/players/")
        box = page.locator("[data-role=paste-names] textarea[name=names]")
        box.fill("\n".join(SIX))
        screenshot(page, f"entry-paste-box-{language}-{size}")
        with page.expect_navigation():
            page.locator("[data-action=paste-preview]").click()

        preview = page.locator("[data-role=paste-preview]")
        matched = preview.locator("fieldset[data-line='1'] [data-role=matched] input")
        assert matched.is_checked()  # Anna Petrova, whatever the case and spacing
        near = preview.locator("fieldset[data-line='2']")
        assert near.locator("[data-role=near]").is_visible()  # did you mean …
        assert near.locator("[data-role=near-player]").inner_text().strip() == "Rustam Guliyev"
        assert preview.locator("fieldset[data-line='3']").count() == 0  # the blank line
        assert evening.entries.count() == 0  # the preview wrote nothing
        assert (
            tap_targets_too_small(page, "[data-role=paste] .choice, [data-role=paste] button") == []
        )
        if language == "ru":
            assert untranslated_words_of(page, "[data-role=paste]") == []
        screenshot(page, f"entry-paste-preview-{language}-{size}")

        near.locator("[data-role=near-player]").click()
        preview.locator("[data-action=paste]").click()
        page.wait_for_url(f"**/t/{evening.slug}/players/")

        assert entered(evening) == ["Anna Petrova", "Boris Aliyev", "Dina Sarkisova",
                                    "Elena Kim", "Oleg Ivanov", "Rustam Guliyev"]  # fmt: skip
        assert Player.objects.filter(display_name__iexact="anna petrova").count() == 1
        assert not Player.objects.filter(display_name="Rustam Guliev").exists()
        assert page.locator("table[data-role=entries] tbody tr").count() == 6
        assert page.locator("[data-role=paste-names] textarea[name=names]").input_value() == ""
        assert page.locator("[data-role=paste-preview]").count() == 0
        if language == "ru":
            assert untranslated_words_of(page, "[data-role=paste]") == []


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_slip_leaves_no_junk_player(new_page, log_in, screenshot, evening, language):
    services.entry_register(
        tournament=evening,
        player=Player.objects.get(display_name="Rustam Guliyev"),
        by=evening.organizer,
    )
    page = new_page(language, **PHONE)
    log_in(page, "olga", "pw-olga-123")
    page.goto(f"/t/{evening.slug}/players/")
    field = page.locator("[data-role=add-player] input[name=display_name]")

    field.fill("Rustam Guliyev")
    with page.expect_navigation():
        page.locator("[data-role=add-player] button[type=submit]").click()

    refusal = page.locator("[data-role=error]").inner_text()
    assert ("is already entered" if language == "en" else "уже заявлен") in refusal
    field = page.locator("[data-role=add-player] input[name=display_name]")
    assert field.input_value() == ""
    field.type("Elena Kim")
    page.locator("[data-role=add-player] button[type=submit]").click()
    page.wait_for_url(f"**/t/{evening.slug}/players/")

    assert entered(evening) == ["Elena Kim", "Rustam Guliyev"]
    assert not Player.objects.filter(display_name__contains="GuliyevElena").exists()
    assert set(Player.objects.values_list("display_name", flat=True)) == {
        "Anna Petrova", "Rustam Guliyev", "Elena Kim"
    }  # fmt: skip
    if language == "ru":
        assert untranslated_words_of(page, "[data-role=add-player]") == []


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_club_deletes_a_junk_player_from_the_players_page(
    new_page, log_in, screenshot, language
):
    """A junk player made by a slip is deleted by the club that made it, on a phone, from the
    tournament's players page: the name, then "Delete this player", then the confirmation."""
    olga = User.objects.create_user("olga", password="pw-olga-123")
    riga = club_create(by=olga, name="Riga")
    evening = services.tournament_create(
        organizer=olga, name="Riga evening", variant="short", match_length=3, club=riga
    )
    services.entries_register(
        tournament=evening, by=olga, entries=[services.NewEntry(name="Rustam GuliyevElena Kim")]
    )
    page = new_page(language, **PHONE)
    log_in(page, "olga", "pw-olga-123")
    page.goto(f"/t/{evening.slug}/players/")

    page.locator("a.entry-player").click()
    page.locator("[data-action=delete]").click()
    page.wait_for_url("**/delete/")
    page.wait_for_load_state("load")
    assert page.locator("[data-role=entries-removed]").is_visible()  # the entry goes too
    assert (
        tap_targets_too_small(page, "[data-role=delete-form] button, [data-role=delete-form] a")
        == []
    )
    screenshot(page, f"entry-delete-player-{language}-phone")
    page.locator("[data-role=delete-form] button[data-action=delete]").click()
    page.wait_for_url("**/players/")

    assert not Player.objects.exists() and evening.entries.count() == 0
    assert IdentityAudit.objects.filter(action="deleted", actor=olga).count() == 1

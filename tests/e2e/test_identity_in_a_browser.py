"""Who a player is, in a browser: Riga's organizer merges a duplicate on a phone (the player page
shows the home club, the merge asks to confirm), the identity trail shows the merge with the two
players as they were, and staff undo it on a desktop; the duplicate is back on its own page. The
Russian trail has no untranslated text. Screenshots go to build/screenshots/."""

import pytest
from django.contrib.auth.models import User

from tournaments.clubs.services import club_create
from tournaments.models import Entry, Player
from tournaments.players.services import player_create
from tournaments.services import tournament_create

from .conftest import untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}


@pytest.fixture
def riga():
    olga = User.objects.create_user("olga", password="pw-olga-123")
    User.objects.create_user("sam", password="pw-sam-123", is_staff=True)
    anna_account = User.objects.create_user("anna")
    club = club_create(by=olga, name="Riga Nardy Club")
    for name in ("Anna Ozola", "Anna O."):
        player = player_create(by=olga, display_name=name, club=club)
        cup = tournament_create(organizer=olga, name=f"Tuesday {name}", variant="long", club=club)
        Entry.objects.create(tournament=cup, player=player)
    Player.objects.filter(display_name="Anna O.").update(user=anna_account, country="LV")
    return Player.objects.get(display_name="Anna Ozola"), Player.objects.get(display_name="Anna O.")


def test_an_organizer_merges_on_a_phone_and_staff_undo_it(new_page, log_in, screenshot, riga):
    keep, duplicate = riga
    page = new_page(**PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, "olga", "pw-olga-123")
    page.goto(f"/p/{keep.pk}/")
    assert "Riga Nardy Club" in page.locator('[data-role="player-club"]').inner_text()
    screenshot(page, "identity-player-phone")
    page.goto(f"/p/{keep.pk}/merge/?drop={duplicate.pk}")
    page.locator('[data-action="merge"]').click()
    page.wait_for_url(f"**/p/{keep.pk}/")
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    page.goto("/identity/")
    merged = page.locator('[data-action="merged"]')
    assert "Anna O. → Anna Ozola" in merged.inner_text() and "anna" in merged.inner_text()
    assert page.locator('[data-action="undo-merge"]').count() == 0  # organizers do not undo
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "identity-trail-phone")

    staff = new_page(**DESKTOP)
    staff.on("dialog", lambda dialog: dialog.accept())
    log_in(staff, "sam", "pw-sam-123")
    staff.goto("/identity/")
    screenshot(staff, "identity-trail-desktop")
    staff.locator('[data-action="undo-merge"]').click()
    staff.wait_for_url(f"**/p/{duplicate.pk}/")
    assert "Anna O." in staff.locator("h1").inner_text()
    restored = Player.objects.get(pk=duplicate.pk)
    assert restored.user.username == "anna" and restored.entries.count() == 1
    staff.goto("/identity/")
    assert staff.locator('[data-role="undone"]').count() == 1
    screenshot(staff, "identity-trail-undone-desktop")


def test_the_russian_trail_is_translated(new_page, log_in, screenshot, riga):
    keep, duplicate = riga
    page = new_page("ru", **PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, "sam", "pw-sam-123")
    page.goto(f"/p/{keep.pk}/merge/?drop={duplicate.pk}")
    page.locator('[data-action="merge"]').click()
    page.wait_for_url(f"**/p/{keep.pk}/")
    page.reload()  # the flash message, which names the players, is gone
    assert untranslated_words(page) == []
    page.goto("/identity/")
    assert untranslated_words(page) == []
    screenshot(page, "ru-identity-trail-phone")

"""The organizer's evening in a browser on a phone, in English and in Russian (issue 46): a
player reports a result and sees it reported at once, though the match page is a shared copy
drawn before the report; the organizer finds the report in the inbox, counted in the menu, and
confirms it with one tap. Screenshots of the inbox on a phone and at 1920 x 1080."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from django.utils import translation
from django.utils.translation import gettext

from tests.web.conftest import make_site
from tournaments.clubs.services import club_create
from tournaments.matches import results
from tournaments.models import Match, Player
from tournaments.players import services as players
from tournaments.services import tournament_create, tournament_open_registration
from tournaments.signups import services as signups

from .conftest import untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)

PHONE, DESKTOP = (390, 844), (1920, 1080)


def said(language: str, text: str) -> str:
    with translation.override(language):
        return gettext(text)


def first_match(site) -> Match:
    rounds = Match.objects.filter(tournament=site.tournament, round__number=1)
    return rounds.select_related("home__player", "away__player").order_by("pk").first()


def assert_taps(page, selector: str) -> None:
    """Each element matched is at least 44 x 44 CSS px: a finger's tap."""
    found = page.locator(selector)
    assert found.count() > 0, selector
    for i in range(found.count()):
        box = found.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (selector, i, box)


@pytest.mark.parametrize("language", ["en", "ru"])
@override_settings(PUBLIC_PAGE_REFRESH_SECONDS=60)  # a shared copy lives long: only the fix helps
def test_a_report_is_seen_at_once_and_confirmed_from_the_inbox(
    language, new_page, log_in, screenshot
):
    site = make_site()
    match = first_match(site)
    home = match.home.player.display_name.lower()

    # The player, on a phone: the match page is drawn (and shared) as "Scheduled" first.
    player = new_page(language=language, width=PHONE[0], height=PHONE[1])
    log_in(player, home, f"pw-{home}-123")
    player.goto(f"/m/{match.pk}/")
    badge = player.locator("main .badge.scheduled, main .badge.reported").first
    assert badge.text_content().strip() == said(language, "Scheduled")
    player.locator("[data-action=report]").click()
    player.locator("input[name=mode][value=score]").check()
    player.fill("#id_score_home", "3")
    player.fill("#id_score_away", "1")
    player.locator("[data-action=submit-result]").click()
    player.wait_for_url(f"**/m/{match.pk}/")
    assert player.locator("main .badge.reported").first.text_content().strip() == said(
        language, "Reported"
    )
    assert player.locator("main .badge.scheduled").count() == 0

    # The organizer, on a phone: the menu counts the report; the inbox confirms it in one tap.
    organizer = new_page(language=language, width=PHONE[0], height=PHONE[1])
    log_in(organizer, "olga", "pw-olga-123")
    organizer.goto(f"/t/{site.tournament.slug}/")
    assert organizer.locator("[data-role=inbox-count]").text_content().strip() == "1"
    header = organizer.locator("[data-role=tournament-inbox]")
    assert header.locator(".count").text_content().strip() == "1"
    assert_taps(organizer, "[data-role=tournament-inbox] a, [data-role=inbox-link]")
    screenshot(organizer, f"inbox-tournament-header-{language}-phone")
    organizer.locator("[data-role=inbox-link]").click()
    organizer.wait_for_url("**/me/inbox/")
    item = organizer.locator(f"[data-kind=reported][data-item='{match.pk}']")
    assert item.count() == 1
    assert_taps(organizer, ".inbox-actions button, .inbox-actions .button")
    screenshot(organizer, f"inbox-report-{language}-phone")
    confirm = item.locator("[data-action=confirm]")
    assert confirm.text_content().strip() == said(language, "Confirm")
    confirm.click()

    organizer.wait_for_url("**/me/inbox/")
    assert said(language, "The result is confirmed.") in organizer.locator("main").inner_text()
    assert organizer.locator(f"[data-item='{match.pk}']").count() == 0
    assert organizer.locator("[data-role=inbox-count]").count() == 0  # nothing left to decide
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.confirmed_by == site.organizer
    # The player sees it at once too (their last change was the report; this is the organizer's).
    player.goto(f"/m/{match.pk}/")
    assert player.locator("main .badge.confirmed").count() >= 1


def busy_evening():
    """Olga's round robin with a result to confirm and a dispute, a sign-up to approve in her
    next event, and a claim on a player of her club."""
    site = make_site()
    first, second = Match.objects.filter(tournament=site.tournament, round__number=1).order_by("pk")
    for match in (first, second):
        by = User.objects.get(players__pk=match.home.player_id)
        results.match_result_record(match=match, by=by, score=(3, 1))
    away = User.objects.get(players__pk=second.away.player_id)
    results.match_result_dispute(match=second, by=away, note="We played to 5, not 3.")
    olga = site.organizer
    event = tournament_create(
        organizer=olga, name="Tuesday Blitz", variant="short", self_signup=True,
        signup_approval=True,
    )  # fmt: skip
    tournament_open_registration(tournament=event, by=olga)
    signups.signup_request(tournament=event, by=site.outsider, display_name="Oscar Lapins")
    riga = club_create(by=olga, name="Riga Nardy Club")
    claimer = User.objects.create_user("elena")
    player = Player.objects.create(display_name="Elena Kim", home_club=riga)
    players.claim_request(player=player, by=claimer)
    return site


@pytest.mark.parametrize("language", ["en", "ru"])
def test_screenshots_of_the_inbox(language, new_page, log_in, screenshot):
    busy_evening()
    for (width, height), name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(language=language, width=width, height=height)
        log_in(page, "olga", "pw-olga-123")
        page.goto("/me/inbox/")
        kinds = page.locator("[data-kind]").evaluate_all("items => items.map(i => i.dataset.kind)")
        assert kinds == ["reported", "disputed", "signup", "claim", "to-play", "to-play"], kinds
        assert page.locator("[data-role=inbox-count]").text_content().strip() == "4"
        assert_taps(page, ".inbox-actions button, .inbox-actions .button, .inbox-link")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        if language == "ru":
            assert untranslated_words(page) == [], name
        screenshot(page, f"inbox-{language}-{name}")

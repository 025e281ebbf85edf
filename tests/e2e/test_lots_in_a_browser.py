"""No shared place by accident, in a browser (issue 46): the standings of a round robin whose
tie-breaks left players level show the lots that decided them, who drew them and when, and the
legend of the forfeit marks, on a phone and a desktop, in English and Russian; the form starts
with the format's own tie-break order and changes it with the format (unless the organizer chose
another); the organizer's "Draw lots" is a finger's tap."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SCREENSHOTS, untranslated_words
from tests.web.conftest import make_site
from tournaments import services
from tournaments.matches.results import match_result_record
from tournaments.models import DEFAULT_TIEBREAKS, Lots, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PHONE, DESKTOP = (390, 844), (1920, 1080)
#: Anna and Boris end on 2 points, Carl and Dina on 1 (one of Dina's wins by forfeit).
CYCLE = [("Anna", "Boris"), ("Boris", "Carl"), ("Carl", "Dina"), ("Dina", "Anna"),
         ("Anna", "Carl"), ("Boris", "Dina")]  # fmt: skip


def played_level(**rules):
    site = make_site(rated=False, tiebreaks=[], **rules)
    for winner, loser in CYCLE:
        match = site.match(winner, loser)
        home_won = match.home.player.display_name == winner
        if (winner, loser) == ("Dina", "Anna"):  # Anna did not come
            forfeit = "away" if home_won else "home"
            match_result_record(match=match, by=site.organizer, forfeit=forfeit)
            continue
        score = (3, 0) if home_won else (0, 3)
        match_result_record(match=match, by=site.organizer, score=score)
    return site


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_standings_show_the_lots_and_the_legend_of_their_marks(new_page, screenshot, language):
    site = played_level()
    services.tournament_finish(tournament=site.tournament, by=site.organizer)
    assert Lots.objects.filter(tournament=site.tournament).exists()
    for (width, height), name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(language, width=width, height=height)
        page.goto(f"/t/{site.tournament.slug}/standings/")
        places = page.locator("table[data-role=standings] tbody td:first-child")
        assert [places.nth(i).text_content().split()[0] for i in range(4)] == ["1", "2", "3", "4"]
        assert page.locator("[data-role=lot]").count() == 4
        assert page.locator("[data-role=lots-note]").is_visible()
        assert page.locator("[data-role=forfeits-legend]").is_visible()
        assert "olga" in page.locator("[data-role=lots-note]").text_content()
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        if language == "ru":
            assert untranslated_words(page) == []
        screenshot(page, f"{language}-standings-lots-{name}")
        page.goto(f"/t/{site.tournament.slug}/rounds/")
        assert page.locator("[data-role=forfeits-legend]").is_visible()
        assert page.locator("[data-role=round-complete]").count() == 3
        if language == "ru":
            assert untranslated_words(page) == []
        screenshot(page, f"{language}-rounds-complete-{name}")


def test_the_form_takes_the_formats_order_unless_the_organizer_chose_one(new_page, log_in):
    make_site(rated=False)  # olga
    page = new_page("en", width=PHONE[0], height=PHONE[1])
    log_in(page, "olga", "pw-olga-123")
    page.goto("/tournaments/new/")

    def order() -> list[str]:
        values = page.eval_on_selector_all(
            "ol.ordered-choices select", "selects => selects.map(s => s.value)"
        )
        return [value for value in values if value]

    assert order() == list(DEFAULT_TIEBREAKS["round-robin"])
    page.select_option("select[name=format]", "swiss")
    assert order() == list(DEFAULT_TIEBREAKS["swiss"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    standings = page.locator("form.stacked > fieldset", has=page.locator("[name=tiebreaks]"))
    standings.screenshot(path=str(SCREENSHOTS / "tournament-form-swiss-tiebreaks-phone.png"))
    page.select_option("select[name=format]", "single-elimination")  # no standings
    page.select_option("select[name=first_stage]", "groups")  # the groups' round robins
    assert order() == list(DEFAULT_TIEBREAKS["groups"])
    page.select_option("select[name=first_stage]", "")
    page.select_option("select[name=format]", "double-round-robin")
    assert order() == list(DEFAULT_TIEBREAKS["double-round-robin"])
    page.select_option("ol.ordered-choices select >> nth=0", "rating")  # the organizer's own
    page.select_option("select[name=format]", "swiss")
    assert order()[0] == "rating"  # kept


def test_the_organizers_draw_lots_button_is_a_44_px_tap_on_a_phone(new_page, log_in, screenshot):
    site = played_level()
    Tournament.objects.filter(pk=site.tournament.pk).update(status=Tournament.Status.FINISHED)
    page = new_page("en", width=PHONE[0], height=PHONE[1])
    log_in(page, "olga", "pw-olga-123")
    page.goto(f"/t/{site.tournament.slug}/")
    button = page.locator("button[data-step=lots]")
    box = button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    screenshot(page, "organizer-draw-lots-phone")
    page.once("dialog", lambda dialog: dialog.accept())
    button.click()
    page.wait_for_selector("text=The lots are drawn: every place is decided.")
    assert Lots.objects.get(tournament=site.tournament).drawn_by == site.organizer

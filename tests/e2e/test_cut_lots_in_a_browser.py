"""Lots at the cut of a two-stage event, in a browser (issue 46): before stage 2 the event page
says lots will decide who goes on; after it the group's standings mark the places the lots
decided and say when and by whom they were drawn, on a phone and a desktop, in English and
Russian, with nothing wider than the screen."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.e2e.conftest import untranslated_words
from tests.tournaments.stages.test_cut_lots import group, played
from tournaments.stages.services import stage_two_build

pytestmark = pytest.mark.django_db(transaction=True)

PHONE, DESKTOP = (390, 844), (1920, 1080)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_lots_at_the_cut_on_the_event_and_group_pages(new_page, screenshot, language):
    olga = User.objects.create_user("olga")
    cup = played(olga, advance=2)
    for (width, height), name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(language, width=width, height=height)
        page.goto(f"/t/{cup.slug}/")
        assert page.locator("[data-role=lots-due]").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        if language == "ru":
            assert untranslated_words(page) == []
        screenshot(page, f"{language}-cut-lots-due-{name}")
    stage_two_build(event=cup, by=olga)
    for (width, height), name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(language, width=width, height=height)
        page.goto(f"/t/{group(cup, 'A').slug}/standings/")
        assert page.locator("[data-role=lot]").count() == 3
        assert "olga" in page.locator("[data-role=lots-note]").text_content()
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        if language == "ru":
            assert untranslated_words(page) == []
        screenshot(page, f"{language}-cut-lots-group-{name}")

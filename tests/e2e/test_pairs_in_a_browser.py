"""A pairs Swiss on a phone (issue 31): the standings list the pairs by their names, a forfeit is
marked + and − beside them, the rules say the discipline, and nothing is wider than the phone, in
English and in Russian. Screenshots are saved."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments import services
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
PAIRS = [("Anna", "Boris", "Riga Blitz"), ("Carl", "Dina", "Baku Bears"),
         ("Emil", "Fedor", "Tallinn Two"), ("Gala", "Hugo", "")]  # fmt: skip


def test_pairs_standings_with_a_forfeit_on_a_phone(new_page, screenshot):
    olga = User.objects.create_user("olga", password="pw-olga-123")
    cup = services.tournament_create(
        organizer=olga, name="Pairs Cup", variant="short", format="swiss", pairs=True,
        swiss_rounds=3, match_length=5,
    )  # fmt: skip
    for first, second, name in PAIRS:
        services.pair_register(
            tournament=cup,
            first=Player.objects.create(display_name=first),
            second=Player.objects.create(display_name=second),
            by=olga,
            name=name,
        )
    services.tournament_start(tournament=cup, by=olga)
    first, second = cup.matches.filter(round__number=1).order_by("pk")
    match_result_record(match=first, by=olga, score=(5, 2))
    match_result_record(match=second, by=olga, forfeit="away")  # the away pair did not come
    forfeited = Match.objects.get(pk=second.pk).away.player.display_name

    for language in ("en", "ru"):
        page = new_page(language=language, width=PHONE["width"], height=PHONE["height"])
        page.goto(f"/t/{cup.slug}/standings/")
        table = page.locator("table").first
        names = table.locator("tbody tr td:nth-child(2) a").all_text_contents()
        assert set(names) == {"Riga Blitz", "Baku Bears", "Tallinn Two", "Gala & Hugo"}
        row = table.locator("tbody tr", has_text=forfeited)
        assert row.locator('[data-role="forfeits-lost"]').text_content() == "−1"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"pairs-standings-forfeit-phone-{language}")
        page.goto(f"/t/{cup.slug}/")
        rules = page.content()
        assert ("pairs: two players as one side" in rules) or ("пары: два игрока" in rules)
        page.close()
    desktop = new_page(width=1920, height=1080)
    desktop.goto(f"/t/{cup.slug}/standings/")
    assert desktop.locator('[data-role="forfeits-lost"]').count() == 1
    screenshot(desktop, "pairs-standings-forfeit-1920")

"""Hostile names in a real browser: the match page's board viewer (static/nardy/board.js builds its
SVG and text from the JSON the page embeds), the bracket and the rating chart show the names as
text; no dialog opens, no element or handler attribute comes from a name, and ``{white}`` or
``$&`` in a name stays as typed (the viewer fills its templates once).
"""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User

from games.rules import ShortNardy
from games.rules.selfplay import random_match
from games.services import RecordedGame
from tournaments import services
from tournaments.matches import results
from tournaments.models import Match
from tournaments.ratings import ledger
from tournaments.ratings import services as approvals

pytestmark = pytest.mark.django_db(transaction=True)

HOME = '"><svg onload=alert(1)> {white} $& </script><script>alert(2)</script>'
AWAY = "<img src=x onerror=alert(3)> {name1} {game} $1 ' onmouseover='alert(4)"
TOURNAMENT = '</title><script>alert("cup")</script> {{ x }} %(x)s'

#: Elements with an attribute whose name starts with "on", and script elements, in the page.
HANDLERS = """() => [...document.querySelectorAll('*')]
  .filter(e => [...e.attributes].some(a => a.name.toLowerCase().startsWith('on')))
  .map(e => e.outerHTML.slice(0, 120))"""
SCRIPTS = """() => [...document.querySelectorAll('script')]
  .map(s => s.getAttribute('src') || s.getAttribute('type') || 'inline')"""


@pytest.fixture
def hostile_match(db) -> Match:
    """A finished single-elimination final between the two hostile names, recorded game by game,
    its ratings applied."""
    olga = User.objects.create_user("olga", password="pw-olga-123")
    cup = services.tournament_create(
        organizer=olga, name=TOURNAMENT, variant="short", format="single-elimination",
        match_length=3,
    )  # fmt: skip
    approvals.ratings_approve(tournament=cup, by=User.objects.create_user("rita", is_staff=True))
    services.entries_register(
        tournament=cup,
        by=olga,
        entries=[services.NewEntry(name=HOME, seed=1), services.NewEntry(name=AWAY, seed=2)],
    )
    services.tournament_start(tournament=cup, by=olga)
    match = Match.objects.get(tournament=cup)
    played = random_match(ShortNardy(), 3, random.Random(3))
    games = [RecordedGame(game.white, game.actions) for game in played]
    results.match_result_record(match=match, by=olga, games=games)
    ledger.ratings_apply(match.pk)
    return Match.objects.select_related("tournament", "home__player", "away__player").get(
        pk=match.pk
    )


def test_hostile_names_are_text_in_the_board_viewer_bracket_and_chart(
    new_page, hostile_match, screenshot
):
    page = new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    match = hostile_match
    names = (match.home.player.display_name, match.away.player.display_name)
    assert names == (HOME, AWAY)

    page.goto(f"/m/{match.pk}/")
    assert TOURNAMENT in page.title()
    board = page.locator('[data-role="board"]')
    page.locator("circle.checker.white").first.wait_for()
    first_frame = page.locator('.board-viewer [data-role="play"]').inner_text()
    assert HOME in first_frame and AWAY in first_frame, first_frame
    score = page.locator('.board-viewer [data-role="score"]').inner_text()
    assert HOME in score and AWAY in score, score
    for _ in range(3):
        page.locator('[data-step="next"]').click()
    board.focus()
    page.keyboard.press("ArrowRight")
    page.locator('[data-step="last"]').click()
    end = page.locator('.board-viewer [data-role="play"]').inner_text()
    assert HOME in end or AWAY in end, end  # the winner's name, as typed
    label = board.get_attribute("aria-label") or ""
    assert HOME in label or AWAY in label, label
    assert page.locator('[data-role="board"] title').text_content() == label
    screenshot(page, "injection-match")
    assert page.evaluate(HANDLERS) == []
    assert sorted(page.evaluate(SCRIPTS)) == [
        "/static/nardy/board.js", "/static/nardy/site.js", "application/json"
    ]  # fmt: skip
    assert page.locator("svg").count() == 1  # the board: no <svg> of a name

    page.goto(f"/t/{match.tournament.slug}/bracket/")
    bracket = page.locator("svg .bracket-box").first
    bracket.wait_for()
    box_title = bracket.locator("title").text_content() or ""
    assert HOME[:10] in box_title and AWAY[:10] in box_title, box_title
    screenshot(page, "injection-bracket")
    assert page.evaluate(HANDLERS) == []

    page.goto(f"/p/{match.home.player.pk}/")
    page.locator("svg.rating-chart").wait_for()
    assert HOME in page.locator("h1").inner_text()
    assert page.evaluate(HANDLERS) == []
    assert page.locator("svg").count() == page.locator("svg.rating-chart").count()

    page.goto(f"/t/{match.tournament.slug}/")
    assert TOURNAMENT in page.title()
    assert page.evaluate(HANDLERS) == []
    assert dialogs == [], f"dialogs opened: {dialogs}"

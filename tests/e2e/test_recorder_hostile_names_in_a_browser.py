"""Hostile names on the recorder page (``/m/<id>/record/``), in a real browser at a phone's size.
static/nardy/recorder.js and board.js build the board, the status line, the score and the last
play from the live state (embedded by the page, then from the live API), and the page itself
shows the tournament above the board; the script names the players on the who-moves-first
buttons, the resignation's buttons and its confirmation. With the players and the tournament named
like attacks, a player chooses who moves first, rolls, plays, offers dave, takes it and resigns
the game: no dialog opens, no handler attribute or script comes from a name, and every name reads
as typed (``{name}`` or ``$&`` in a name is not filled again).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.e2e.test_injection_in_a_browser import HANDLERS, SCRIPTS
from tests.e2e.test_recorder_in_a_browser import PHONE, recorder, tap_play
from tournaments import services
from tournaments.models import Match, Player

pytestmark = pytest.mark.django_db(transaction=True)

HOME = '"><svg onload=alert(1)> {white} {name} $& </script><script>alert(2)</script>'
AWAY = "<img src=x onerror=alert(3)> {side} {winner} $1 $' \" ' onmouseover='alert(4)"
TOURNAMENT = '</title><script>alert("cup")</script> {name} {{ x }} %(x)s \' "'
#: The scripts of the recorder page: its own three, the site's and the embedded live state.
PAGE_SCRIPTS = [
    "/static/nardy/board.js",
    "/static/nardy/clocks.js",
    "/static/nardy/offline.js",
    "/static/nardy/recorder.js",
    "/static/nardy/site.js",
    "application/json",
]


@pytest.fixture
def hostile_match(db) -> Match:
    """A Short Nardy final to 3 points (with dave) of a tournament named like an attack, between
    two players named like attacks: Anna (home) and Boris (away) have accounts."""
    olga = User.objects.create_user("olga", password="pw-olga-123")
    cup = services.tournament_create(organizer=olga, name=TOURNAMENT, variant="short",
                                     format="single-elimination", match_length=3)  # fmt: skip
    cup = services.tournament_open_registration(tournament=cup, by=olga)
    for seed, (name, username) in enumerate([(HOME, "anna"), (AWAY, "boris")], start=1):
        user = User.objects.create_user(username, password=f"pw-{username}-123")
        player = Player.objects.create(display_name=name, user=user)
        services.entry_register(tournament=cup, player=player, by=olga, seed=seed)
    services.tournament_start(tournament=cup, by=olga)
    return Match.objects.get(tournament=cup)


def after(page, ply: int) -> int:
    """Wait until the page shows a state past ``ply`` and is idle; the new ply."""
    page.wait_for_selector(f'[data-role="recorder"]:not([data-ply="{ply}"]):not([aria-busy])')
    return int(recorder(page).get_attribute("data-ply"))


def status_line(page) -> str:
    return recorder(page).locator('[data-role="status"]').text_content()


def enter_a_legal_play(page, match) -> None:
    """With the dice rolled: the one-tap button, or the first legal play tapped on the board."""
    state = page.request.get(f"/api/v1/matches/{match.pk}/live").json()
    if not state["legal_plays"]:
        recorder(page).locator('[data-role="pass"]').click()
        return
    if len(state["legal_plays"]) == 1:
        recorder(page).locator('[data-role="only-play"]').click()
        return
    tap_play(page, state, 0)


def assert_nothing_injected(page, dialogs: list[str]) -> None:
    assert dialogs == [], f"dialogs opened: {dialogs}"
    assert page.evaluate(HANDLERS) == []
    assert sorted(page.evaluate(SCRIPTS)) == PAGE_SCRIPTS
    assert page.locator("svg").count() == 1  # the board: no <svg> of a name
    assert page.locator("img").count() == 0  # no <img> of a name


def test_hostile_names_are_text_on_the_recorder(new_page, log_in, screenshot, hostile_match):
    match = hostile_match
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")
    page.locator('[data-role="recorder"] circle.checker.white').first.wait_for()

    # What the server writes: the title, the line above the board.
    assert f"Record the match · {HOME} – {AWAY}" in page.title(), page.title()
    where = page.locator(".recorder__where").text_content()
    assert TOURNAMENT in where and HOME in where and AWAY in where, where
    # What the script writes from the embedded state: the who-moves-first buttons (home plays
    # White until told otherwise).
    assert recorder(page).locator('[data-first="1"]').text_content() == f"{HOME} moves first"
    assert recorder(page).locator('[data-first="2"]').text_content() == f"{AWAY} moves first"
    assert status_line(page) == "Game 1: who moves first? Tap the player.", status_line(page)
    play = recorder(page).locator('[data-role="play"]').text_content()
    assert play == f"Game 1: {HOME} plays White, {AWAY} plays Black", play
    score = recorder(page).locator('[data-role="score"]').text_content()
    assert score.startswith(f"Score: {HOME} (White) 0 – 0 {AWAY} (Black)"), score
    label = recorder(page).locator('[data-role="board"]').get_attribute("aria-label")
    assert HOME in label and AWAY in label, label
    assert recorder(page).locator('[data-role="board"] title').text_content() == label
    screenshot(page, "injection-recorder-start-phone")
    assert_nothing_injected(page, dialogs)

    # Boris moves first: he plays White now.
    ply = int(recorder(page).get_attribute("data-ply"))
    recorder(page).locator('[data-first="2"]').click()
    ply = after(page, ply)
    assert status_line(page) == f"{AWAY} (White) rolls: tap the two dice", status_line(page)
    assert recorder(page).locator('[data-panel="first"]').is_hidden()

    recorder(page).locator('[data-die="6"]').click()
    assert status_line(page) == "First die 6: tap the second", status_line(page)
    recorder(page).locator('[data-die="5"]').click()
    ply = after(page, ply)
    assert status_line(page) == (f"{AWAY} (White) plays 65: tap a lit checker, or choose below"), (
        status_line(page)
    )
    enter_a_legal_play(page, match)
    ply = after(page, ply)
    assert status_line(page) == f"{HOME} (Black) rolls: tap the two dice", status_line(page)
    played = recorder(page).locator('[data-role="play"]').text_content()
    assert played.startswith("White 65: "), played
    assert_nothing_injected(page, dialogs)

    # Anna offers dave; the status asks Boris.
    recorder(page).locator('[data-action="double"]').click()
    ply = after(page, ply)
    asked = status_line(page)
    assert asked == f"{AWAY} (White) answers dave at 2: take or drop?", asked
    screenshot(page, "injection-recorder-dave-phone")
    recorder(page).locator('[data-action="take"]').click()
    ply = after(page, ply)

    # Boris (White) resigns the game at stake 2: Anna wins 2 points, and game 2 starts.
    recorder(page).locator('[data-role="resign"] summary').click()
    resigners = recorder(page).locator('[data-role="resigner"]').all_text_contents()
    assert resigners == [f"{AWAY} (White) resigns", f"{HOME} (Black) resigns"], resigners
    oyn = recorder(page).locator('[data-resign="white"][data-value="1"]')
    assert oyn.text_content() == f"oyn: {HOME} wins 2", oyn.text_content()
    oyn.click()
    question = recorder(page).locator('[data-role="resign-question"]').text_content()
    assert question == f"{AWAY} (White) resigns game 1 as oyn: {HOME} wins 2.", question
    confirm = recorder(page).locator('[data-action="resign-confirm"]')
    assert confirm.text_content() == f"Yes, {AWAY} resigns"
    screenshot(page, "injection-recorder-resign-confirm-phone")
    assert_nothing_injected(page, dialogs)
    confirm.click()
    ply = after(page, ply)
    text = status_line(page)
    assert text.startswith(f"Game 1: {HOME} wins 2 (oyn). "), text
    score = recorder(page).locator('[data-role="score"]').text_content()
    assert f"{HOME} (" in score and f") 2 – 0 {AWAY} (" in score, score
    play = recorder(page).locator('[data-role="play"]').text_content()
    assert HOME in play and AWAY in play and play.startswith("Game 2 (Crawford game): "), play
    screenshot(page, "injection-recorder-game-two-phone")
    assert_nothing_injected(page, dialogs)

    # The same state embedded by the server on a reload.
    page.reload()
    page.locator('[data-role="recorder"] circle.checker.white').first.wait_for()
    assert recorder(page).get_attribute("data-ply") == str(ply)
    assert status_line(page) == text
    assert_nothing_injected(page, dialogs)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED  # the match goes on: 2 of 3 points

"""Recording a game at the table, in a real browser at a phone's size: a whole Long Nardy game and
a Short Nardy game entered by taps (dice, then checkers), with a reload in the middle, a stale
second tab, and a spectator whose page follows without a reload. Screenshots are saved."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

import pytest

from games.rules import ShortNardy, Turn, legal_plays
from games.rules.position import BAR, OFF
from games.rules.selfplay import random_turns
from tests.web.conftest import make_site

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def recorder(page):
    return page.locator('[data-role="recorder"]')


def wait_ply(page, ply: int) -> None:
    page.wait_for_selector(f'[data-role="recorder"][data-ply="{ply}"]:not([aria-busy])')


def state_of(page, match) -> dict:
    return page.request.get(f"/api/v1/matches/{match.pk}/live").json()


def display(own: int, on_roll: str, layout: dict) -> str:
    """The tap area of a point of the mover's own numbering."""
    if own == BAR:
        return "bar"
    if own == OFF:
        return "off"
    return str(own if on_roll == "white" else layout["black_numbers"].index(own) + 1)


def path_to(steps: list[dict], play: int) -> list[tuple[int, int]]:
    """The (source, target) steps from the start to the node completing ``play``."""
    queue = deque([(0, [])])
    while queue:
        node, path = queue.popleft()
        if steps[node]["play"] == play:
            return path
        for source, target, _hit, child in steps[node]["steps"]:
            queue.append((child, [*path, (source, target)]))
    raise AssertionError(f"no path to play {play}")


def tap(page, area: str) -> None:
    """A finger on the middle of a point (or of the bar, or of a tray) as drawn: its lit mark,
    else the point itself. (A tap zone may be wider than its point, and reach over others.)"""
    mark = recorder(page).locator(f'svg [data-mark="{area}"]')
    target = mark if mark.count() else recorder(page).locator(f'svg .point[data-point="{area}"]')
    box = target.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_play(page, state: dict, play: int, before_target: Callable[[], None] = lambda: None) -> int:
    """Tap the legal play number ``play`` of the roll on the board, step by step (``before_target``
    runs before each destination is tapped); the number of taps."""
    layout = state["board"]["layout"]
    taps = 0
    for source, target in path_to(state["steps"], play):
        # A checker that alone can go on stays selected after its step: no tap to pick it.
        source_area = display(source, state["on_roll"], layout)
        if not recorder(page).locator(f'svg [data-mark="{source_area}"].selected').count():
            tap(page, source_area)
            taps += 1
        before_target()
        tap(page, display(target, state["on_roll"], layout))
        taps += 1
    return taps


def choose_first(page, ply: int, player: int) -> int:
    """A game starts with who moves first: one tap on the player's name."""
    recorder(page).locator(f'[data-first="{player}"]').click()
    wait_ply(page, ply + 1)
    return ply + 1


def roll(page, dice: tuple[int, int], ply: int) -> int:
    page.click(f'[data-role="recorder"] [data-die="{dice[0]}"]')
    page.click(f'[data-role="recorder"] [data-die="{dice[1]}"]')
    wait_ply(page, ply + 1)
    return ply + 1


def play_turn(page, match, position, turn: Turn, ply: int, taps: list[int]) -> int:
    """Enter ``turn`` as a person would: the dice, then each checker step on the board (or the
    one-tap button when there is one play or none); counts the taps."""
    ply = roll(page, turn.dice, ply)
    count = 2
    state = state_of(page, match)
    plays = legal_plays(position, turn.dice)
    if not state["legal_plays"]:
        page.click('[data-role="recorder"] [data-role="pass"]')
        count += 1
    elif len(state["legal_plays"]) == 1:
        page.click('[data-role="recorder"] [data-role="only-play"]')
        count += 1
    else:
        wanted = next(i for i, legal in enumerate(plays) if legal.play == turn.play)
        count += tap_play(page, state, wanted)
    wait_ply(page, ply + 1)
    taps.append(count)
    return ply + 1


def test_a_whole_long_nardy_game_is_recorded_by_taps(new_page, log_in, screenshot):
    site = make_site(variant="long", match_length=1)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")
    screenshot(page, "recorder-long-start-phone")

    turns = list(random_turns(site.tournament.game_variant(), random.Random(21)))
    ply, taps = choose_first(page, 0, 1), []
    for number, (position, turn) in enumerate(turns):
        if number == 0:
            # The head rule: after one checker leaves the head, the head offers no more.
            ply = roll(page, turn.dice, ply)
            state = state_of(page, match)
            marked = recorder(page).locator('svg [data-mark="24"].source')
            assert marked.count() == 1
            first_step = state["steps"][0]["steps"][0]
            assert first_step[0] == 24
            tap(page, "24")
            tap(page, str(first_step[1]))
            if turn.dice[0] != turn.dice[1]:
                assert recorder(page).locator('svg [data-mark="24"].source').count() == 0
            screenshot(page, "recorder-long-head-rule-phone")
            page.click('[data-role="recorder"] [data-action="undo"]')  # undo the step
            page.click('[data-role="recorder"] [data-action="undo"]')  # undo the roll
            wait_ply(page, 1)
            ply = 1
        if number == 6:
            # A blocked point: tapping it as a destination enters nothing.
            ply = roll(page, turn.dice, ply)
            state = state_of(page, match)
            source = state["steps"][0]["steps"][0][0]
            tap(page, display(source, state["on_roll"], state["board"]["layout"]))
            targets = {t for s, t, _, _ in state["steps"][0]["steps"] if s == source}
            opponent_point = position.variant.opponent_point
            blocked = next(
                point
                for point in range(source - 1, 0, -1)
                if point not in targets and position.opponent[opponent_point(point)]
            )
            tap(page, display(blocked, state["on_roll"], state["board"]["layout"]))
            assert recorder(page).get_attribute("data-ply") == str(ply)
            assert state_of(page, match)["ply"] == ply
            page.click('[data-role="recorder"] [data-action="undo"]')
            wait_ply(page, ply - 1)
            ply -= 1
        if number == 30:
            page.reload()  # a reload resumes at the exact point
            wait_ply(page, ply)
        ply = play_turn(page, match, position, turn, ply, taps)
        if number == 40:
            screenshot(page, "recorder-long-middle-phone")
    state = state_of(page, match)
    assert state["finished"] is True and state["match_status"] == "reported"
    assert state["position"]["off"][state["board"]["frames"][0]["result"]["winner"]] == 15
    screenshot(page, "recorder-long-finished-phone")
    match.refresh_from_db()
    assert match.status == "reported" and match.games.count() == 1
    print(f"Long Nardy: {len(taps)} turns, {sum(taps)} taps, {sum(taps) / len(taps):.1f} a turn")


def short_game_with_a_hit(seed_from: int) -> tuple[int, list]:
    for seed in range(seed_from, seed_from + 200):
        turns = list(random_turns(ShortNardy(), random.Random(seed)))
        plays = [str(turn.play) for _, turn in turns]
        if any("bar/" in play for play in plays) and 30 < len(turns) < 70:
            return seed, turns
    raise AssertionError("no game with a hit")


def test_a_short_nardy_game_with_a_hit_a_taken_dave_and_a_bear_off(new_page, log_in, screenshot):
    site = make_site(variant="short", match_length=3)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")

    # A spectator follows on the public match page, on a wall screen.
    spectator = new_page(width=1920, height=1080)
    spectator.goto(f"/m/{match.pk}/")
    spectator.evaluate("window.stillTheSamePage = true")

    _, turns = short_game_with_a_hit(100)
    ply, taps = choose_first(page, 0, 1), []
    entered_from_bar = False
    for number, (position, turn) in enumerate(turns):
        if number == 4:  # White offers dave before rolling, Black takes
            page.click('[data-role="recorder"] [data-action="double"]')
            wait_ply(page, ply + 1)
            screenshot(page, "recorder-short-dave-offered-phone")
            page.click('[data-role="recorder"] [data-action="take"]')
            wait_ply(page, ply + 2)
            ply += 2
        if number == 5:
            # A second tab that is behind: its entry is refused and it is shown where things are.
            stale = new_page(width=PHONE["width"], height=PHONE["height"])
            log_in(stale, "anna", "pw-anna-123")
            stale.goto(f"/m/{match.pk}/record/")
            wait_ply(stale, ply)
            # This tab follows nothing more: it stays truly behind.
            stale.route("**/live/next", lambda route: route.abort())
            ply = play_turn(page, match, position, turn, ply, taps)
            stale.click('[data-role="recorder"] [data-die="6"]')
            stale.click('[data-role="recorder"] [data-die="5"]')
            message = stale.locator('[data-role="recorder"] [data-role="message"]')
            message.wait_for(state="visible")
            assert "another device" in message.inner_text()
            wait_ply(stale, ply)
            screenshot(stale, "recorder-stale-tab-phone")
            stale.close()
            continue
        if number == 10:
            # The spectator's page has followed within two seconds, without a reload.
            step = state_of(page, match)["board"]["frames"][0]["step"]
            spectator.wait_for_function(
                "step => document.querySelector('[data-role=live-follow] svg').dataset.step"
                " === String(step)",
                arg=step,
                timeout=2500,
            )
            assert spectator.evaluate("window.stillTheSamePage") is True
            screenshot(spectator, "live-match-spectator-1920")
        if "bar/" in str(turn.play) and not entered_from_bar:
            ply = roll(page, turn.dice, ply)  # the bar comes first: it alone is offered
            state = state_of(page, match)
            assert {step[0] for step in state["steps"][0]["steps"]} == {BAR}
            screenshot(page, "recorder-short-bar-entry-phone")
            page.click('[data-role="recorder"] [data-action="undo"]')
            wait_ply(page, ply - 1)
            ply -= 1
            entered_from_bar = True
        ply = play_turn(page, match, position, turn, ply, taps)
    state = state_of(page, match)
    assert state["ply"] == ply and state["games"][0]["stake"] == 2  # the game ended and scored
    assert state["score"]["home"] + state["score"]["away"] == state["games"][0]["value"] * 2
    assert state["game"] == (1 if state["finished"] else 2)
    screenshot(page, "recorder-short-game-over-phone")
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "recorder-short-game-over-1920")
    spectator.set_viewport_size(PHONE)
    screenshot(spectator, "live-match-spectator-phone")
    # The tournament's pages point to the match being recorded now.
    spectator.goto(f"/t/{site.tournament.slug}/")
    links = spectator.locator('[data-role="recorded-now"] a')
    assert links.count() == 1 and links.get_attribute("href") == f"/m/{match.pk}/"
    screenshot(spectator, "live-tournament-now-phone")
    spectator.goto(f"/t/{site.tournament.slug}/rounds/")
    assert spectator.locator('[data-role="live"]').get_attribute("href") == f"/m/{match.pk}/"
    print(f"Short Nardy: {len(taps)} turns, {sum(taps)} taps, {sum(taps) / len(taps):.1f} a turn")

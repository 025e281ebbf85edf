"""The recorder forgives a slip (issue 29), in a real browser on a phone (390×844): who moves first
is one tap on a player's name; a resignation names the player and what the opponent wins, and asks
before it is sent; the resignation that decided the match is taken back with Undo within the
window, and later only by an organizer; every tap target is at least 44 px wide, measured on the
phone upright and on its side; spectators see the points numbered from one side all game, and the
match's header says "Being played". Screenshots are saved."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.rules import Turn
from games.rules.selfplay import random_turns
from tests.e2e.test_recorder_in_a_browser import (
    PHONE,
    choose_first,
    recorder,
    roll,
    state_of,
    tap_play,
    wait_ply,
)
from tests.web.conftest import make_site
from tournaments.matches.live.models import Draft
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

LANDSCAPE = {"width": 844, "height": 390}
#: The smallest tap target allowed, in CSS pixels.
MIN_TAP = 44


def status_line(page) -> str:
    return recorder(page).locator('[data-role="status"]').text_content()


def widths(page, selector: str) -> list[float]:
    """The on-screen widths of the visible elements that match ``selector``."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)]
            .filter(e => e.getClientRects().length && !e.closest('[hidden]'))
            .map(e => e.getBoundingClientRect().width)""",
        selector,
    )


def tap_targets(page) -> dict[str, list[float]]:
    """Every tap target of the recorder now, by kind, with its width in CSS pixels."""
    return {
        "board zones": widths(page, '[data-role="recorder"] svg rect.tap'),
        "choices": widths(page, '[data-role="recorder"] [data-role="choices"] button'),
        "dice": widths(page, '[data-role="recorder"] [data-die]'),
        "first": widths(page, '[data-role="recorder"] [data-first]'),
        "buttons": widths(page, '[data-role="recorder"] .recorder__row button'),
    }


def assert_wide_enough(page, seen: dict[str, list[float]]) -> None:
    for kind, found in tap_targets(page).items():
        narrow = [width for width in found if width < MIN_TAP]
        assert not narrow, f"{kind}: tap targets narrower than {MIN_TAP} px: {narrow}"
        seen.setdefault(kind, []).extend(found)


def test_first_player_resignation_and_taking_it_back_on_a_phone(new_page, log_in, screenshot):
    site = make_site(variant="short", match_length=1)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")

    # Who moves first: one question, two equal buttons named after the players, no dice yet.
    assert status_line(page) == "Game 1: who moves first? Tap the player."
    first = recorder(page).locator("[data-first]")
    assert first.all_text_contents() == ["Anna moves first", "Boris moves first"]
    looks = [button.evaluate("e => getComputedStyle(e).backgroundColor") for button in first.all()]
    assert looks[0] == looks[1], looks  # neither looks chosen before a tap
    assert recorder(page).locator('[data-panel="dice"]').is_hidden()
    assert recorder(page).locator('[data-action="double"]').is_hidden()
    screenshot(page, "recorder-first-player-phone")
    recorder(page).locator('[data-first="2"]').click()
    wait_ply(page, 1)
    assert state_of(page, match)["white"] == 2  # Boris plays White
    assert recorder(page).locator('[data-panel="first"]').is_hidden()
    assert status_line(page) == "Boris (White) rolls: tap the two dice"

    ply = roll(page, (3, 1), 1)
    recorder(page).locator('[data-role="only-play"], [data-role="choices"] button').first.wait_for()
    tap_play(page, state_of(page, match), 0)
    wait_ply(page, ply + 1)
    ply += 1

    # Resigning names the player and the value, and asks first: nothing is sent before.
    recorder(page).locator('[data-role="resign"] summary').click()
    resigners = recorder(page).locator('[data-role="resigner"]').all_text_contents()
    assert resigners == ["Boris (White) resigns", "Anna (Black) resigns"], resigners
    values = recorder(page).locator('[data-resign="white"]').all_text_contents()
    assert values == ["oyn: Anna wins 1", "mars: Anna wins 2"], values
    recorder(page).locator('[data-resign="white"][data-value="2"]').click()
    question = recorder(page).locator('[data-role="resign-question"]')
    assert question.text_content() == (
        "Boris (White) resigns game 1 as mars: Anna wins 2. This ends the match: Anna wins it."
    )
    confirm = recorder(page).locator('[data-action="resign-confirm"]')
    assert confirm.text_content() == "Yes, Boris resigns"
    assert recorder(page).locator('[data-panel="dice"]').is_hidden()
    screenshot(page, "recorder-resign-confirm-phone")
    recorder(page).locator('[data-action="resign-cancel"]').click()
    assert recorder(page).locator('[data-panel="confirm-resign"]').is_hidden()
    assert state_of(page, match)["ply"] == ply  # cancelled: nothing was sent

    recorder(page).locator('[data-role="resign"] summary').click()
    recorder(page).locator('[data-resign="white"][data-value="2"]').click()
    confirm.click()
    wait_ply(page, ply + 1)
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    undo = recorder(page).locator('[data-action="undo"]')
    assert undo.is_visible() and undo.text_content().startswith("Undo the last entry (")
    assert "A slip? Undo takes the last entry back for 30 s." in status_line(page)
    screenshot(page, "recorder-resigned-undo-window-phone")

    # A slip: taken back within the window, the result goes and the game goes on.
    undo.click()
    wait_ply(page, ply)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not match.games.exists()
    assert status_line(page) == "Anna (Black) rolls: tap the two dice"
    screenshot(page, "recorder-resignation-taken-back-phone")

    # Resigned again, and the window passes: the players' Undo is gone, an organizer's is not.
    recorder(page).locator('[data-role="resign"] summary').click()
    recorder(page).locator('[data-resign="white"][data-value="1"]').click()
    confirm.click()
    wait_ply(page, ply + 1)
    Draft.objects.filter(match=match).update(updated_at=timezone.now() - timedelta(seconds=31))
    cache.clear()  # the state shared by every reader was computed with the entry's real time
    page.reload()
    wait_ply(page, ply + 1)
    assert undo.is_hidden()
    assert status_line(page) == "The match is over. Its record was sent as the result."
    refused = page.evaluate(
        """async ([url, ply]) => {
            const csrf = document.querySelector('input[name=csrfmiddlewaretoken]').value;
            const answer = await fetch(url, {method: 'POST', headers: {'Content-Type':
              'application/json', 'X-CSRFToken': csrf}, body: JSON.stringify({ply: ply})});
            return [answer.status, (await answer.json()).error.message];
        }""",
        [f"/api/v1/matches/{match.pk}/live/undo", ply + 1],
    )
    assert refused[0] == 403 and "only who decides for this tournament" in refused[1], refused

    organizer = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(organizer, "olga", "pw-olga-123")
    organizer.goto(f"/m/{match.pk}/record/")
    wait_ply(organizer, ply + 1)
    late = recorder(organizer).locator('[data-action="undo"]')
    assert late.text_content() == "Undo the last entry (organizer)"
    screenshot(organizer, "recorder-organizer-take-back-phone")
    late.click()
    wait_ply(organizer, ply)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def adjacent_lit(marks: list[str]) -> tuple[str, str] | None:
    """Two lit points next to each other in one row of the board, if any."""
    numbers = sorted(int(mark) for mark in marks if mark.isdigit())
    for one, two in zip(numbers, numbers[1:], strict=False):
        if two == one + 1 and one != 12 and (one - 1) // 6 == (two - 1) // 6:
            return str(one), str(two)
    return None


def test_every_tap_target_is_44_px_wide_upright_and_on_its_side(new_page, log_in, screenshot):
    site = make_site(variant="short", match_length=3)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")
    seen: dict[str, list[float]] = {}
    assert_wide_enough(page, seen)
    ply = choose_first(page, 0, 1)
    asked = False

    turns = list(random_turns(site.tournament.game_variant(), random.Random(7)))[:24]
    for number, (_, turn) in enumerate(turns):
        if number == 12:  # the phone turned on its side, then upright again
            page.set_viewport_size(LANDSCAPE)
        if number == 18:
            page.set_viewport_size(PHONE)
        assert_wide_enough(page, seen)
        ply = roll(page, turn.dice, ply)
        assert_wide_enough(page, seen)
        state = state_of(page, match)
        if len(state["legal_plays"]) <= 1:
            button = "pass" if not state["legal_plays"] else "only-play"
            recorder(page).locator(f'[data-role="{button}"]').click()
            wait_ply(page, ply + 1)
            ply += 1
            continue
        marks = (
            recorder(page)
            .locator("svg [data-mark]")
            .evaluate_all("marks => marks.map(m => m.dataset.mark)")
        )
        pair = adjacent_lit(marks) if page.viewport_size == PHONE else None
        if pair and not asked:
            # A tap between two lit points asks which one: nothing is guessed.
            boxes = [recorder(page).locator(f'svg [data-mark="{m}"]').bounding_box() for m in pair]
            x = (boxes[0]["x"] + boxes[0]["width"] / 2 + boxes[1]["x"] + boxes[1]["width"] / 2) / 2
            y = boxes[0]["y"] + boxes[0]["height"] / 2
            page.mouse.click(x, y)
            assert status_line(page) == "Which one? Choose below"
            asked_for = recorder(page).locator('[data-role="choices"] button').all_text_contents()
            on_roll = state["on_roll"]
            layout = state["board"]["layout"]
            own = sorted(
                (
                    int(m) if on_roll == "white" else layout["black_numbers"][int(m) - 1]
                    for m in pair
                ),
                reverse=True,
            )
            assert sorted(map(int, asked_for), reverse=True) == own, asked_for
            assert_wide_enough(page, seen)
            screenshot(page, "recorder-which-one-phone")
            page.mouse.click(x, y)  # a second tap there asks again; Undo lets it go
            recorder(page).locator('[data-action="undo"]').click()
            assert status_line(page).endswith("tap a lit checker, or choose below")
            asked = True
        wanted = next(
            i for i, legal in enumerate(state["legal_plays"]) if legal["play"] == str(turn.play)
        )

        def measure(landscape: bool = number == 14) -> None:
            assert_wide_enough(page, seen)
            if landscape:
                screenshot(page, "recorder-landscape-phone")

        tap_play(page, state, wanted, before_target=measure)
        wait_ply(page, ply + 1)
        ply += 1
    # The resignation's buttons and its confirmation, too.
    recorder(page).locator('[data-role="resign"] summary').click()
    assert_wide_enough(page, seen)
    widths_of_resign = widths(page, '[data-role="recorder"] [data-resign]')
    assert widths_of_resign and min(widths_of_resign) >= MIN_TAP
    recorder(page).locator('[data-resign="black"][data-value="1"]').click()
    assert_wide_enough(page, seen)
    assert asked, "no turn with two lit points side by side"
    assert seen["board zones"] and seen["choices"] and seen["dice"] and seen["first"]
    print("narrowest tap targets (px):", {kind: round(min(w), 1) for kind, w in seen.items()})


def test_spectators_see_the_points_numbered_from_one_side(new_page, log_in, screenshot):
    site = make_site(variant="short", match_length=3)
    match = site.match("Anna", "Boris")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "anna", "pw-anna-123")
    spectator = new_page(width=PHONE["width"], height=PHONE["height"])
    spectator.goto(f"/m/{match.pk}/")
    badge = spectator.locator('[data-role="match-status"]')
    assert badge.text_content().strip() == "Scheduled"
    page.goto(f"/m/{match.pk}/record/")
    ply = choose_first(page, 0, 1)

    labels = "() => [...document.querySelectorAll('[data-role=live-follow] svg text')]" \
        ".slice(0, 24).map(t => t.textContent).join(' ')"  # fmt: skip
    seen = set()
    turns: list[tuple[object, Turn]] = list(
        random_turns(site.tournament.game_variant(), random.Random(3))
    )[:6]
    for _, turn in turns:
        ply = roll(page, turn.dice, ply)
        state = state_of(page, match)
        spectator.wait_for_function(
            "step => document.querySelector('[data-role=live-follow] svg')?.dataset.step"
            " === String(step)",
            arg=state["board"]["frames"][0]["step"],
            timeout=4000,
        )
        seen.add(spectator.evaluate(labels))
        play = state["legal_plays"][0]["play"] if state["legal_plays"] else ""
        answer = page.request.post(
            f"/api/v1/matches/{match.pk}/live",
            data={"ply": ply, "action": {"dice": state["dice"], "play": play}},
            headers={"X-CSRFToken": csrf_of(page)},
        )
        assert answer.status == 200, answer.text()
        ply += 1
        spectator.wait_for_function(
            "step => document.querySelector('[data-role=live-follow] svg')?.dataset.step"
            " === String(step)",
            arg=answer.json()["board"]["frames"][0]["step"],
            timeout=4000,
        )
        seen.add(spectator.evaluate(labels))
    assert len(seen) == 1, seen  # the same numbers whoever moves
    assert badge.text_content().strip() == "Being played"
    assert "numbered from White" in spectator.locator(".live-follow__numbering").text_content()
    screenshot(spectator, "live-spectator-fixed-numbering-phone")
    spectator.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(spectator, "live-spectator-fixed-numbering-1920")
    # A spectator who comes now gets the header from the server.
    late = new_page(width=PHONE["width"], height=PHONE["height"])
    late.goto(f"/m/{match.pk}/")
    assert late.locator('[data-role="match-status"]').text_content().strip() == "Being played"
    # The recorder itself keeps the mover's numbering (its choices name the mover's points).
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "recorder-1920")


def csrf_of(page) -> str:
    return page.evaluate("document.querySelector('input[name=csrfmiddlewaretoken]').value")

"""The recorder with no network (issue 50), in a real browser at a phone's size with its service
worker: entries kept on the phone and applied by the rules engine running in the page (Pyodide),
a reload with no network, the catch-up when the network is back; a batch the server refuses
changes nothing; two phones that recorded apart, and the second sees the conflict and hands its
entries to the judge. Screenshots are saved."""

from __future__ import annotations

import json

import pytest

from games.rules import Position, legal_plays
from games.rules.steps import play_steps, steps_json
from games.viewer import board_layout
from tests.e2e.test_recorder_in_a_browser import PHONE, recorder, tap_play, wait_ply
from tests.web.conftest import make_site
from tournaments.matches.live.models import Draft, SetAside

pytestmark = pytest.mark.django_db(transaction=True)

#: Pyodide starts in a few seconds on a desktop; a slow CI machine gets more.
ENGINE_MS = 60_000
WIDE = {"width": 1920, "height": 1080}
CLOCK = {"kind": "delay", "base_seconds": 600, "per_move_seconds": 2}


def ready_offline(page) -> None:
    """The page's service worker keeps it and its kit is on the phone."""
    page.wait_for_selector('[data-role="recorder"][data-offline-ready]', timeout=ENGINE_MS)


def synced(page) -> None:
    """No entry waits on the phone any more."""
    page.wait_for_selector('[data-role="recorder"] [data-role="offline"][hidden]',
                           state="attached", timeout=20_000)  # fmt: skip


def waiting_text(page) -> str:
    return recorder(page).locator('[data-role="offline"]').text_content() or ""


def enter_turn(page, position: Position, dice: tuple[int, int], ply: int, pick: int = 0):
    """The dice and then the play (the ``pick``-th legal play) by taps, as the page offers them
    offline; the position after it and the new ply."""
    page.click(f'[data-role="recorder"] [data-die="{dice[0]}"]')
    page.click(f'[data-role="recorder"] [data-die="{dice[1]}"]')
    # The first entry offline starts the engine in the page.
    page.wait_for_selector(f'[data-role="recorder"][data-ply="{ply + 1}"]:not([aria-busy])',
                           timeout=ENGINE_MS)  # fmt: skip
    plays = legal_plays(position, dice)
    if not plays[0].play:
        page.click('[data-role="recorder"] [data-role="pass"]')
        chosen = plays[0]
    elif len(plays) == 1:
        page.click('[data-role="recorder"] [data-role="only-play"]')
        chosen = plays[0]
    else:
        chosen = plays[pick % len(plays)]
        state = {
            "board": {"layout": board_layout(position.variant)},
            "steps": steps_json(play_steps(position, dice)),
            "on_roll": position.turn.value,
        }
        tap_play(page, state, plays.index(chosen))
    wait_ply(page, ply + 2)
    return chosen.position, ply + 2


def entered(match) -> list[dict]:
    draft = Draft.objects.get(match=match)
    return list(draft.entry_rows.order_by("ply").values("data", "phone_at", "made_at", "clamped"))


def anna_records(new_page, log_in, match):
    """Anna's phone on the recorder of her match with Boris: she moves first (online), and the
    page is ready to go on with no network."""
    page = new_page(width=PHONE["width"], height=PHONE["height"], service_workers=True)
    log_in(page, "anna", "pw-anna-123")
    page.goto(f"/m/{match.pk}/record/")
    recorder(page).locator('[data-first="1"]').click()
    wait_ply(page, 1)
    ready_offline(page)
    return page


def test_six_entries_offline_a_reload_offline_and_back_online(new_page, log_in, screenshot):
    site = make_site(variant="long", match_length=3, time_control=CLOCK)
    match = site.match("Anna", "Boris")
    variant = site.tournament.game_variant()
    page = anna_records(new_page, log_in, match)

    page.context.set_offline(True)
    position = Position.initial(variant)
    ply = 1
    for dice, pick in (((6, 4), 0), ((5, 2), 1), ((3, 1), 0)):
        position, ply = enter_turn(page, position, dice, ply, pick)
    assert ply == 7
    assert waiting_text(page) == "Offline: 6 entries waiting"
    assert Draft.objects.get(match=match).ply == 1  # nothing reached the server
    screenshot(page, "recorder-offline-waiting-phone")
    page.set_viewport_size(WIDE)
    screenshot(page, "recorder-offline-waiting-wide")
    page.set_viewport_size(PHONE)

    # The phone's clocks ran: Boris's (White moved first, Black is on roll) is running.
    clocks = recorder(page).locator('[data-role="clocks"]')
    assert clocks.locator('[data-side="away"].is-running').count() == 1

    page.reload()  # the service worker brings the page back; the phone its entries
    page.wait_for_selector('[data-role="recorder"][data-ply="7"]:not([aria-busy])',
                           timeout=ENGINE_MS)  # fmt: skip
    assert waiting_text(page) == "Offline: 6 entries waiting"
    assert recorder(page).locator('[data-die="1"]').is_visible()  # Black rolls next

    page.context.set_offline(False)
    synced(page)
    assert "Back online" in recorder(page).locator('[data-role="message"]').text_content()
    rows = entered(match)
    assert len(rows) == 7
    actions = [row["data"] for row in rows]
    assert actions[0] == {"first": 1}
    assert [a.get("dice") for a in actions[1:]] == ["64", "64", "52", "52", "31", "31"]
    # Every entry kept the time it was made on the phone: within bounds, nothing clamped.
    for row in rows[1:]:
        assert not row["clamped"] and row["phone_at"] == row["made_at"]
    state = page.request.get(f"/api/v1/matches/{match.pk}/live").json()
    assert state["ply"] == 7 and state["position"] == position.to_json()
    assert state["clock"]["on_turn"] == "away"
    # Each side's clock was charged its time, by the phone's times.
    assert state["clock"]["left"]["home"] < 600 and state["clock"]["left"]["away"] < 600


def test_a_batch_with_an_illegal_entry_changes_nothing(new_page, log_in, screenshot):
    site = make_site(variant="long", match_length=3)
    match = site.match("Anna", "Boris")
    page = anna_records(new_page, log_in, match)
    # A phone whose store holds a batch the server will refuse (its second entry is no roll:
    # the page never offers one, but a stale kit or an old page could hold one).
    pending = [
        {"action": {"dice": "64"}, "at": "2026-11-29T10:00:00+00:00"},
        {"action": {"dice": "77"}, "at": "2026-11-29T10:00:01+00:00"},
    ]
    page.evaluate(
        """([match, pending]) => new Promise((resolve, reject) => {
          const open = indexedDB.open("nardy-recorder", 1);
          open.onsuccess = () => {
            const store = open.result.transaction("matches", "readwrite").objectStore("matches");
            const get = store.get(match);
            get.onsuccess = () => {
              const record = get.result;
              record.pending = pending;
              record.view = null;
              store.put(record).onsuccess = resolve;
            };
          };
          open.onerror = reject;
        })""",
        [match.pk, pending],
    )
    page.reload()
    conflict = recorder(page).locator('[data-panel="conflict"]')
    conflict.wait_for(timeout=ENGINE_MS)
    assert "Entry 2:" in conflict.locator('[data-role="conflict-message"]').text_content()
    assert conflict.locator('[data-role="mine"] li.is-refused').count() == 1
    assert Draft.objects.get(match=match).ply == 1  # the batch changed nothing
    screenshot(page, "recorder-offline-refused-phone")
    page.set_viewport_size(WIDE)
    screenshot(page, "recorder-offline-refused-wide")
    conflict.locator('[data-action="conflict-discard"]').click()
    conflict.wait_for(state="hidden")
    assert recorder(page).get_attribute("data-ply") == "1"
    assert Draft.objects.get(match=match).ply == 1


def test_two_phones_recorded_apart_and_the_second_sees_the_conflict(new_page, log_in, screenshot):
    site = make_site(variant="long", match_length=3)
    match = site.match("Anna", "Boris")
    first = new_page(width=PHONE["width"], height=PHONE["height"], service_workers=True)
    second = new_page(width=PHONE["width"], height=PHONE["height"], service_workers=True)
    log_in(first, "anna", "pw-anna-123")
    log_in(second, "boris", "pw-boris-123")
    first.goto(f"/m/{match.pk}/record/")
    recorder(first).locator('[data-first="1"]').click()
    wait_ply(first, 1)
    second.goto(f"/m/{match.pk}/record/")
    wait_ply(second, 1)
    ready_offline(first)
    ready_offline(second)

    first.context.set_offline(True)
    second.context.set_offline(True)
    for page, dice in ((first, "64"), (second, "53")):
        page.click(f'[data-role="recorder"] [data-die="{dice[0]}"]')
        page.click(f'[data-role="recorder"] [data-die="{dice[1]}"]')
        page.wait_for_selector('[data-role="recorder"][data-ply="2"]:not([aria-busy])',
                               timeout=ENGINE_MS)  # fmt: skip
    first.context.set_offline(False)  # the first sync wins
    synced(first)
    second.context.set_offline(False)
    conflict = recorder(second).locator('[data-panel="conflict"]')
    conflict.wait_for(timeout=20_000)
    assert conflict.locator('[data-role="theirs"] li').all_text_contents() == ["Entry 2: rolled 64"]
    assert conflict.locator('[data-role="mine"] li').all_text_contents() == ["Entry 2: rolled 53"]
    screenshot(second, "recorder-offline-conflict-phone")
    second.set_viewport_size(WIDE)
    screenshot(second, "recorder-offline-conflict-wide")
    conflict.locator('[data-action="conflict-judge"]').click()
    conflict.wait_for(state="hidden")
    assert (
        "Handed to the judge: 1 entry"
        in recorder(second).locator('[data-role="message"]').text_content()
    )
    assert recorder(second).get_attribute("data-ply") == "2"  # the server's record, untouched
    aside = SetAside.objects.get(match=match)
    assert aside.ply == 1 and [e["action"] for e in aside.entries] == [{"dice": "53"}]
    assert json.loads(json.dumps(Draft.objects.get(match=match).entry_rows.last().data)) == {
        "dice": "64"
    }

    judge = new_page(width=WIDE["width"], height=WIDE["height"])
    log_in(judge, "olga", "pw-olga-123")
    judge.goto(f"/m/{match.pk}/")
    section = judge.locator('[data-role="set-aside"]')
    assert "rolled 53" in section.text_content()
    section.scroll_into_view_if_needed()
    screenshot(judge, "match-set-aside-wide")

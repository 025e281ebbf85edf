"""The recorder's board: the state a phone draws a recording with, its clocks, and the state
after entries a phone holds while it is offline. Pure: no Django.

The server answers every live read and write with ``board_state``. The recorder page runs this
same module in the browser (Pyodide, ``static/nardy/offline-worker.js``) when the network is
gone: ``after_entries`` takes the kit the server last gave (``kit_json``: the match rules, the
finished games and the game on the board, the clocks) and the entries waiting on the phone, so
the page offers exactly the entries the server will take when they are synced, and its clocks
run as the server's will. The rules are declared once, here and in the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from games.rules import RulesError
from games.rules.steps import play_steps, steps_json
from games.viewer import board_layout, live_frame
from tournaments.matches.live.recording import (
    SIDE_NAMES,
    GameDone,
    Recording,
    entry_from_json,
    state_json,
)
from tournaments.scoring import MatchRules
from tournaments.scoring.clock import Clock, ClockEvent, TimeControl

#: The version of the kit's shape: a phone that holds an older kit fetches a new one.
KIT_VERSION = 1


def board_state(recording: Recording, names: tuple[str, str]) -> dict[str, Any]:
    """The contract's state (``recording.state_json``), the step graph of the roll waiting for
    its play, and the board the pages draw."""
    state = state_json(recording)
    dice = recording.dice
    score = [state["score"]["home"], state["score"]["away"]]
    state["steps"] = None if dice is None else steps_json(play_steps(recording.game.position, dice))
    state["board"] = {
        "variant": recording.variant.name,
        "layout": board_layout(recording.variant),
        "names": list(names),
        "length": recording.rules.length,
        "crawford": recording.rules.crawford_applies,
        "dave": recording.variant.dave.enabled,
        "frames": [
            live_frame(
                recording.game,
                step=recording.game_actions,
                last=recording.last_action,
                number=recording.number,
                white_player=recording.white,
                names=names,
                score=score,
                dice=dice,
            )
        ],
    }
    return state


# --- Clocks -----------------------------------------------------------------------------------


def turn_clock(clock: Clock, recording: Recording, at: float) -> None:
    """After an entry (or an undo) at ``at`` (seconds): the clock of who acts next runs; none
    between games and once the match is over. Time never runs backwards."""
    at = max(at, clock.last)
    player = recording.to_act
    if player is None:
        clock.apply(ClockEvent(at, "stop"))
    else:
        kind = "start" if clock.on_turn is None else "switch"
        clock.apply(ClockEvent(at, kind, SIDE_NAMES[player]))  # type: ignore[arg-type]


def clock_basis(clock: Clock) -> dict[str, Any]:
    """What a state keeps of a timed match's clocks: its control and the clocks' last event."""
    return {"control": clock.control.as_json(), "clock": clock.to_json()}


def clock_of_basis(basis: Mapping[str, Any]) -> Clock:
    control = TimeControl.from_json(basis["control"])
    assert control is not None
    return Clock.from_json(control, basis["clock"])


def clock_fields(basis: Mapping[str, Any] | None, now: float) -> dict[str, Any]:
    """The live state's ``clocks`` (the contract: each side's whole seconds left and the
    running side) at ``now``, and ``clock``: the time control, whose turn it is, the delay the
    running side still waits, whether a judge paused them, whose flag fell and when, the time
    left to the millisecond and the moment read (seconds), for a page to tick on from."""
    if basis is None:
        return {"clocks": None, "clock": None}
    return clock_fields_of(clock_of_basis(basis), now)


def clock_fields_of(clock: Clock, now: float) -> dict[str, Any]:
    """``clock_fields`` of clocks at hand."""
    reading = clock.reading_at(now)
    return {
        "clocks": reading.as_json(),
        "clock": {
            "control": clock.control.as_json(),
            "on_turn": clock.on_turn,
            "delay_left": round(reading.delay_left, 3),
            "paused": reading.paused,
            "flagged": reading.flagged,
            "flagged_at": reading.flagged_at,
            "left": {"home": round(reading.home, 3), "away": round(reading.away, 3)},
            "read_at": round(now, 3),
        },
    }


# --- Offline ----------------------------------------------------------------------------------


def kit_json(
    *,
    match: int,
    draft: int | None,
    rules: MatchRules,
    done: Sequence[Mapping[str, Any]],
    current: Mapping[str, Any] | None,
    clock: Clock | None,
    ply: int,
    revision: int,
) -> dict[str, Any]:
    """What a phone needs to go on recording without the network, from match ``match``'s draft
    as it stands (``draft`` its id; ``done`` and ``current`` its checkpoints, None before its
    first entry)."""
    return {
        "version": KIT_VERSION,
        "match": match,
        "draft": draft,
        "ply": ply,
        "revision": revision,
        "rules": dataclasses.asdict(rules),
        "done": list(done),
        "current": current,
        "clock": None if clock is None else clock_basis(clock),
    }


def after_entries(
    kit: Mapping[str, Any],
    names: Sequence[str],
    entries: Sequence[Mapping[str, Any]],
    now: float,
) -> dict[str, Any]:
    """The board state after the phone's waiting ``entries`` (each ``{"action", "at"}``, ``at``
    an ISO 8601 time on the server's clock as the phone reckons it), taken from ``kit``; with
    the clocks read at ``now`` (seconds, never before the last entry). An entry the rules
    refuse gives ``{"refused": {"index", "reason"}}`` instead: the page offers none, so that is
    a stale kit or a bug, and the server will refuse it too."""
    rules = MatchRules(**kit["rules"])
    done = [GameDone.from_json(data) for data in kit["done"]]
    current = kit["current"]
    recording = (
        Recording(rules, done)
        if current is None
        else Recording.from_checkpoint(rules, done, dict(current))
    )
    basis = kit["clock"]
    clock = None if basis is None else clock_of_basis(basis)
    at = clock.last if clock is not None else 0.0
    for index, entry in enumerate(entries):
        at = max(at, datetime.fromisoformat(entry["at"]).timestamp())
        try:
            recording.add(entry_from_json(entry["action"]))
        except RulesError as error:
            return {"refused": {"index": index, "reason": str(error)}}
        if clock is not None:
            turn_clock(clock, recording, at)
    pair = (names[0], names[1])
    state = board_state(recording, pair)
    if clock is None:
        state.update(clock_fields(None, now))
    else:
        state.update(clock_fields_of(clock, max(at, now)))
    return state

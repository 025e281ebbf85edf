"""The match clock's arithmetic (tournaments.scoring.clock): delay and increment, pauses,
a judge's adjustments and the flag fall, by examples worked by hand and by properties that hold
for any sequence of events."""

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.scoring.clock import (
    PRESETS,
    Clock,
    ClockEvent,
    Clocks,
    TimeControl,
    clocks_at,
)

DELAY = TimeControl("delay", 60, 8)
INCREMENT = TimeControl("increment", 60, 8)


def switch(at: float, side: str) -> ClockEvent:
    return ClockEvent(at, "switch", side)


START = ClockEvent(0, "start", "home")


# --- Worked by hand ------------------------------------------------------------------------------


def test_before_the_start_no_clock_runs():
    assert clocks_at(DELAY, [], 500) == Clocks(60, 60, None)


def test_a_delay_turn_costs_only_what_passes_the_delay():
    # home thinks 5 s (inside the 8 s delay), away 20 s (12 s charged), home 30 s so far (22).
    events = [START, switch(5, "away"), switch(25, "home")]
    assert clocks_at(DELAY, events, 55) == Clocks(60 - 22, 60 - 12, "home")


def test_an_increment_is_added_when_the_turn_ends():
    events = [START, switch(5, "away"), switch(25, "home")]
    assert clocks_at(INCREMENT, events, 55) == Clocks(60 - 5 + 8 - 30, 60 - 20 + 8, "home")


def test_a_pause_stops_the_running_clock_and_a_resume_goes_on_with_the_same_turn():
    events = [START, ClockEvent(10, "pause"), ClockEvent(100, "resume")]
    paused = clocks_at(DELAY, events[:2], 99)
    assert paused == Clocks(58, 60, None, paused=True)
    # The delay was used up before the pause: after it, every second counts.
    assert clocks_at(DELAY, events, 105) == Clocks(53, 60, "home")


def test_a_judge_gives_and_takes_time_never_below_zero():
    events = [START, ClockEvent(1, "adjust", "away", 30), ClockEvent(2, "adjust", "home", -500)]
    assert clocks_at(DELAY, events, 2) == Clocks(0, 90, "home")


def test_a_player_at_zero_may_still_move_within_the_delay():
    events = [START, ClockEvent(0, "adjust", "home", -60), switch(7.5, "away")]
    assert clocks_at(DELAY, events, 10) == Clocks(0, 60, "away")


def test_the_flag_falls_at_the_exact_moment_and_the_clocks_then_stand_still():
    # home has 60 s and a delay of 8 s: the flag falls 68 s into the turn.
    fallen = clocks_at(DELAY, [START], 1000)
    assert fallen == Clocks(0, 60, None, flagged="home", flagged_at=68)
    later = clocks_at(DELAY, [START, switch(900, "away")], 1000)
    assert later == fallen  # a play entered after the flag fell changes nothing
    assert clocks_at(INCREMENT, [START, switch(10, "away")], 500).flagged_at == 10 + 60


def test_a_stop_ends_the_clocks_where_they_stood():
    events = [START, switch(10, "away"), ClockEvent(20, "stop")]
    assert clocks_at(INCREMENT, events, 3000) == Clocks(58, 50, None)


def test_after_a_stop_the_next_start_runs_the_clocks_again():
    # Game 1 ends at 20 s (the clocks stand between games); game 2 starts at 300 s, away first.
    events = [START, switch(10, "away"), ClockEvent(20, "stop"), ClockEvent(300, "start", "away")]
    assert clocks_at(INCREMENT, events, 310) == Clocks(58, 40, "away")


def test_a_judge_gives_a_fallen_side_time_and_its_clock_runs_on():
    events = [START, ClockEvent(100, "adjust", "home", 30)]  # the flag fell at 68 s
    assert clocks_at(DELAY, events, 110) == Clocks(20, 60, "home")
    taken = [START, ClockEvent(100, "adjust", "home", -30), ClockEvent(101, "switch", "away")]
    assert clocks_at(DELAY, taken, 110).flagged == "home"  # taking time or a play: still fallen


def test_a_clock_kept_as_json_goes_on_as_the_whole_timeline_would():
    events = [START, switch(5, "away"), ClockEvent(9, "pause"), ClockEvent(30, "resume")]
    clock = Clock.new(DELAY)
    for event in events:
        clock = Clock.from_json(DELAY, json.loads(json.dumps(clock.to_json())))
        clock.apply(event)
    assert clock.reading_at(45) == clocks_at(DELAY, events, 45)
    with pytest.raises(ValueError, match="time order"):
        clock.apply(switch(29, "home"))


def test_the_delay_left_is_what_the_running_side_still_waits():
    clock = Clock.new(DELAY)
    clock.apply(START)
    assert clock.reading_at(3).delay_left == 5
    assert clock.reading_at(20).delay_left == 0
    assert Clock.new(INCREMENT).reading_at(3).delay_left == 0


def test_a_switch_to_the_side_on_turn_changes_nothing():
    events = [START, switch(5, "home")]
    assert clocks_at(INCREMENT, events, 20) == clocks_at(INCREMENT, [START], 20)


def test_the_live_states_clocks_are_whole_seconds_left():
    clocks = clocks_at(DELAY, [START], 30.7)
    assert clocks.as_json() == {"home": 37, "away": 60, "running": "home"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "bronstein", "base_seconds": 60, "per_move_seconds": 8}, "increment or delay"),
        ({"kind": "delay", "base_seconds": 0, "per_move_seconds": 8}, "at least 1"),
        ({"kind": "delay", "base_seconds": 60.5, "per_move_seconds": 8}, "whole number"),
        ({"kind": "delay", "base_seconds": 60, "per_move_seconds": -1}, "whole number"),
        ({"kind": "delay", "base_seconds": True, "per_move_seconds": 8}, "whole number"),
        ({"kind": "delay", "base_seconds": 60}, "exactly"),
        ({"kind": "delay", "base_seconds": 60, "per_move_seconds": 8, "x": 1}, "exactly"),
        ([60, 8], "null or an object"),
    ],
)
def test_a_time_control_says_what_is_wrong(data, message):
    with pytest.raises(ValueError, match=message):
        TimeControl.from_json(data)


def test_a_time_control_goes_through_json_and_the_presets_are_the_federations():
    assert TimeControl.from_json(None) is None
    assert TimeControl.from_json(DELAY.as_json()) == DELAY
    assert {preset.name: preset.control.as_json() for preset in PRESETS} == {
        "long": {"kind": "delay", "base_seconds": 840, "per_move_seconds": 8},
        "short": {"kind": "delay", "base_seconds": 1080, "per_move_seconds": 8},
        "long-regional": {"kind": "delay", "base_seconds": 1140, "per_move_seconds": 8},
        "long-blitz": {"kind": "delay", "base_seconds": 60, "per_move_seconds": 10},
        "short-blitz": {"kind": "delay", "base_seconds": 120, "per_move_seconds": 10},
    }


# --- Properties ----------------------------------------------------------------------------------

controls = st.builds(
    TimeControl,
    st.sampled_from(["increment", "delay"]),
    st.integers(1, 600),
    st.integers(0, 30),
)
gaps = st.floats(0, 200, allow_nan=False, allow_infinity=False)
steps = st.lists(
    st.tuples(
        gaps,
        st.sampled_from(["switch", "switch", "switch", "pause", "resume", "adjust", "stop"]),
        st.sampled_from(["home", "away"]),
        st.integers(-120, 120),
    ),
    max_size=25,
)


def timeline(steps_: list, start_side: str = "home") -> list[ClockEvent]:
    events, at = [ClockEvent(0, "start", start_side)], 0.0
    for gap, kind, side, seconds in steps_:
        at += gap
        if kind in ("switch", "adjust"):
            events.append(ClockEvent(at, kind, side, seconds if kind == "adjust" else 0))
        else:
            events.append(ClockEvent(at, kind))
    return events


def alternating(turns: list[float]) -> list[ClockEvent]:
    """A match of turns of these lengths, home first, with no pause and no judge."""
    events, at, side = [ClockEvent(0, "start", "home")], 0.0, "home"
    for gap in turns:
        at += gap
        side = "away" if side == "home" else "home"
        events.append(ClockEvent(at, "switch", side))
    return events


@settings(max_examples=300, deadline=None)
@given(controls, steps, gaps)
def test_time_is_never_negative_and_a_flag_falls_only_at_zero(control, steps_, extra):
    events = timeline(steps_)
    clocks = clocks_at(control, events, events[-1].at + extra)
    assert clocks.home >= 0 and clocks.away >= 0
    if clocks.flagged is not None:
        assert clocks.left(clocks.flagged) == 0 and clocks.running is None
        assert 0 <= clocks.flagged_at <= events[-1].at + extra


@settings(max_examples=300, deadline=None)
@given(controls, steps, st.floats(0, 5000, allow_nan=False))
# A flag that fell at 1 s, revived by a judge at 2 s and fallen again at once (found by Hypothesis).
@example(
    TimeControl("increment", 1, 0), [(2.0, "adjust", "home", 1), (0.0, "adjust", "home", -1)], 1.0
)
def test_the_flag_falls_at_the_moment_it_gives(control, steps_, extra):
    """Read just before the moment a flag fell, with the events up to then, nobody's flag has
    fallen, or only a flag that a judge then revived by giving that side time; just after the
    moment, that side's has: the moment is exact, whenever it is read."""
    events = timeline(steps_)
    clocks = clocks_at(control, events, events[-1].at + extra)
    if clocks.flagged is None:
        return
    moment = clocks.flagged_at
    before = [event for event in events if event.at < moment - 1e-6]
    earlier = clocks_at(control, before, moment - 1e-6)
    if earlier.flagged is not None:
        assert any(
            event.kind == "adjust" and event.side == earlier.flagged and event.seconds > 0
            and earlier.flagged_at <= event.at <= moment
            for event in events
        )  # fmt: skip
    upto = [event for event in events if event.at <= moment + 1e-6]
    again = clocks_at(control, upto, moment + 1e-6)
    assert (again.flagged, again.flagged_at) == (clocks.flagged, pytest.approx(moment))


@settings(max_examples=300, deadline=None)
@given(controls, steps, gaps, gaps)
def test_only_the_running_clock_moves_and_only_down(control, steps_, first, second):
    events = timeline(steps_)
    earlier = clocks_at(control, events, events[-1].at + first)
    later = clocks_at(control, events, events[-1].at + first + second)
    for side in ("home", "away"):
        if side != earlier.running:
            assert later.left(side) == earlier.left(side)
        assert later.left(side) <= earlier.left(side)
    if earlier.running is None:
        assert later == earlier  # paused, stopped or fallen: time stands still


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 600), st.integers(0, 30), st.lists(gaps, max_size=30), gaps)
def test_with_an_increment_the_time_used_is_the_time_that_ran(base, allowance, turns, extra):
    """No pause, no judge, no flag: the two clocks' time used is the time since the start less
    the increments earned, to rounding."""
    control = TimeControl("increment", base, allowance)
    events = alternating(turns)
    at = events[-1].at
    clocks = clocks_at(control, events, at + extra)
    if clocks.flagged is None:
        used = 2 * base + allowance * len(turns) - clocks.home - clocks.away
        assert used == pytest.approx(at + extra, abs=1e-6)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 600), st.integers(0, 30), st.lists(gaps, max_size=30))
def test_with_a_delay_no_turn_costs_more_than_its_time_past_the_delay(base, delay, turns):
    control = TimeControl("delay", base, delay)
    events = alternating(turns)
    at = events[-1].at
    clocks = clocks_at(control, events, at)
    if clocks.flagged is None:
        used = 2 * base - clocks.home - clocks.away
        assert used == pytest.approx(sum(max(0.0, gap - delay) for gap in turns), abs=1e-6)


def test_events_out_of_order_or_after_the_moment_are_refused():
    with pytest.raises(ValueError, match="time order"):
        clocks_at(DELAY, [ClockEvent(5, "start", "home"), switch(4, "away")], 10)
    with pytest.raises(ValueError, match="time order"):
        clocks_at(DELAY, [ClockEvent(5, "start", "home")], 4)
    with pytest.raises(ValueError, match="names"):
        ClockEvent(5, "switch")

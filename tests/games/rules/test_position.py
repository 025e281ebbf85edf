import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import Colour, LongNardy, NotationError, Position, ShortNardy


def test_the_backgammon_opening_has_gnubgs_position_id():
    assert Position.initial(ShortNardy()).position_id() == "4HPwATDgc/ABMA"


def test_the_long_nardy_opening_has_fifteen_checkers_on_each_head():
    position = Position.initial(LongNardy())
    assert position.mover[24] == position.opponent[24] == 15
    assert Position.from_position_id(position.position_id(), LongNardy()) == position


def test_the_position_id_encodes_the_opponent_first_then_the_side_on_roll():
    # The mover has one checker left on its 2 point (checked with gnubg): on roll, written second.
    position = Position.from_points(ShortNardy(), {2: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert position.position_id() == "4HPwATACAAAAAA"
    assert Position.from_position_id("4HPwATACAAAAAA", ShortNardy()) == position


def test_json_form_round_trips_with_colours():
    position = Position.from_points(
        LongNardy(), {24: 13, 18: 1, 10: 1}, {24: 14, 3: 1}, turn=Colour.BLACK
    )
    data = position.to_json()
    assert data["turn"] == "black"
    assert data["black"][23] == 13 and data["black"][17] == 1
    assert data["white"][2] == 1
    assert data["off"] == {"white": 0, "black": 0}
    assert Position.from_json(data) == position


def finished_game(**changes):
    """The JSON of a Long Nardy position with every checker borne off, then ``changes``."""
    data = {
        "variant": "long",
        "turn": "white",
        "white": [0] * 24,
        "black": [0] * 24,
        "bar": {"white": 0, "black": 0},
        "off": {"white": 15, "black": 15},
    }
    return {**data, **changes}


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"variant": "long"},
        finished_game(variant="chess"),
        finished_game(turn="red"),
        finished_game(white=[0] * 23),
        finished_game(white=[1] * 24, off={"white": 0, "black": 15}),
        finished_game(white=[0] * 23 + [15], off={"white": 0, "black": 14}),
        finished_game(white=[0] * 23 + [-1], off={"white": 16, "black": 15}),
    ],
)
def test_malformed_json_positions_are_notation_errors(data):
    with pytest.raises(NotationError):
        Position.from_json(data)


def test_a_point_cannot_hold_both_sides():
    # Long Nardy: the opponent's 24 is the mover's 12.
    with pytest.raises(NotationError, match="point 12 holds checkers of both sides"):
        Position.from_points(LongNardy(), {24: 14, 12: 1}, {24: 15})


def test_long_nardy_has_no_bar():
    with pytest.raises(NotationError, match="no bar"):
        Position.from_points(LongNardy(), {24: 14, 25: 1}, {24: 15})


@pytest.mark.parametrize(
    "text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA=", "!!!!!!!!!!!!!!", "//////////////"]
)
def test_garbage_position_ids_are_notation_errors(text):
    with pytest.raises(NotationError):
        Position.from_position_id(text, ShortNardy())


@given(st.text(max_size=20))
def test_any_text_as_a_position_id_is_read_or_refused_cleanly(text):
    try:
        position = Position.from_position_id(text, ShortNardy())
    except NotationError:
        return
    assert position.position_id() == text


@given(st.binary(min_size=10, max_size=10))
def test_any_key_is_read_or_refused_cleanly(key):
    text = base64.b64encode(key).decode()[:14]
    for variant in (LongNardy(), ShortNardy()):
        try:
            position = Position.from_position_id(text, variant)
        except NotationError:
            continue
        assert sum(position.mover) == sum(position.opponent) == 15

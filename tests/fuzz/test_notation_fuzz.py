"""Bad plays, dice, Position IDs, positions in JSON and game actions: only the engine's clean
errors (``RulesError``; ``ValueError`` where ``variant_named`` documents it), never a crash or
a hang.

Hypothesis builds inputs from the pieces of the notation (points, ``bar``, ``off``, ``/``, ``*``,
``(n)``, dice, digits of other scripts) and from random JSON, nested deep too; what parses is then
played: a Position ID that reads is asked for its legal plays and a parsed play is checked against
it, each call under a deadline of ``CALL_SECONDS``. Hypothesis is derandomized, so a failure
reproduces; it prints the falsifying input.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    Colour,
    LongNardy,
    NotationError,
    Play,
    Position,
    RulesError,
    ShortNardy,
    action_from_json,
    check_play,
    legal_plays,
    parse_dice,
)
from tests.support.fuzzing import deadline, shown

PROJECT_ROOT = Path(__file__).resolve().parents[2]
VARIANTS = [LongNardy(), ShortNardy(), LongNardy(block_check="turn"), ShortNardy(koks=True),
            ShortNardy(no_hit_and_hide=True)]  # fmt: skip
FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def clean_call(
    function: Callable[..., Any],
    *args: Any,
    allowed: tuple[type[BaseException], ...] = (RulesError,),
) -> Any:
    """``function(*args)``'s value or the allowed error it raised; another exception, or no
    answer in time, fails the test with the input."""
    started = time.perf_counter()
    try:
        with deadline():
            return function(*args)
    except allowed as error:
        assert str(error), f"{function.__name__}: an error with no message"
        return error
    except Exception as error:  # noqa: BLE001 - every other exception is the finding
        elapsed = time.perf_counter() - started
        pytest.fail(
            f"{function.__name__} raised {type(error).__name__} after {elapsed:.2f} s:\n"
            f"{traceback.format_exc()}\ninput: {shown(args)}",
            pytrace=False,
        )


# --- Strategies --------------------------------------------------------------------------------

OTHER_DIGITS = "٠١٢٣٤٥٦٧٨٩०१२३४५६७८९０１２３４５６７８９⁰¹²³⁴⁵⁶⁷⁸⁹①②③"
point = st.one_of(
    st.sampled_from(["bar", "BAR", "off", "Off", "25", "0", "00", "26", "99", "100", "-1"]),
    st.integers(0, 30).map(str),
    st.text(st.sampled_from("0123456789" + OTHER_DIGITS), min_size=1, max_size=3),
)
step = st.tuples(st.just("/"), point, st.sampled_from(["", "*", "**"])).map("".join)
move = st.tuples(
    point,
    st.lists(step, min_size=0, max_size=4).map("".join),
    st.sampled_from(["", "(1)", "(2)", "(4)", "(5)", "(0)", "(9)", "(²)", "(", ")", "(22)"]),
).map("".join)
junk = st.text(max_size=12)
play_text = st.lists(move | junk, max_size=6).flatmap(
    lambda parts: st.sampled_from([" ", "  ", "\t", "\u00a0", ",", "\u200b"]).map(
        lambda gap: gap.join(parts)
    )
) | st.sampled_from(["", "-", "Cannot Move", "cannot move", "????", "24/18" * 400, "24/18 " * 400])
dice_text = st.one_of(
    st.text(st.sampled_from("0123456789-, \t" + OTHER_DIGITS), max_size=6),
    st.sampled_from(["64", "6-4", "6 4", "6,4", "66", "07", "61", "6" * 5000]),
    junk,
)
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=10),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
dice_value = st.one_of(
    dice_text,
    st.lists(json_leaf, max_size=3),
    st.tuples(st.integers(-3, 9), st.integers(-3, 9)),
    st.lists(st.integers(1, 6), min_size=2, max_size=2),
    json_value,
)
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
position_id = st.one_of(
    st.text(st.sampled_from(BASE64), min_size=14, max_size=14),
    st.text(min_size=14, max_size=14),
    st.text(st.sampled_from(BASE64 + "=-_ \x00"), max_size=20),
    st.sampled_from(["4HPwATDgc/ABMA", "//////////////", "AAAAAAAAAAAAAA", "4HPwATDgc/AB==", ""]),
    json_value,
)
variant = st.sampled_from(VARIANTS)
dice_pair = st.tuples(st.integers(1, 6), st.integers(1, 6))


def action_json() -> st.SearchStrategy[Any]:
    known = st.fixed_dictionaries(
        {},
        optional={
            "dice": dice_value,
            "play": play_text | json_value,
            "double": json_value | st.just(True),
            "take": json_value | st.just(True),
            "drop": json_value | st.just(True),
            "resign": st.sampled_from(["white", "black", "White", ""]) | json_value,
            "value": st.integers(-5, 10**20) | json_value,
        },
    )
    return known | json_value


def position_json() -> st.SearchStrategy[Any]:
    """The JSON of a real position with one part replaced, a key dropped, or anything at all."""

    def spoil(data: dict[str, Any], how: int, key: str, value: Any) -> Any:
        data = json.loads(json.dumps(data))
        if how == 0:
            data.pop(key, None)
        elif how == 1:
            data[key] = value
        elif how == 2 and key in ("white", "black"):
            data[key][len(str(value)) % 24] = value
        elif how == 3:
            data["bar" if key == "white" else "off"] = {"white": value, "black": value}
        return data

    base = st.builds(
        lambda v, turn: Position(
            v, Position.initial(v).mover, Position.initial(v).opponent, turn
        ).to_json(),
        variant,
        st.sampled_from(list(Colour)),
    )
    spoiled = st.builds(
        spoil,
        base,
        st.integers(0, 4),
        st.sampled_from(["variant", "turn", "white", "black", "bar", "off", "extra"]),
        json_value | st.integers(-2, 20),
    )
    return spoiled | json_value


# --- The tests ---------------------------------------------------------------------------------


@FUZZ
@given(text=play_text)
def test_plays_parse_or_give_a_notation_error(text):
    play = clean_call(Play.parse, text)
    if isinstance(play, Play):
        # What the engine writes it reads back, to the same moves.
        again = clean_call(Play.parse, str(play), allowed=())
        assert balance(again) == balance(play), text


def balance(play: Play) -> Counter[int]:
    """Checkers gained (lost) per point: what a play does, hits aside."""
    gained: Counter[int] = Counter()
    for move in play.moves:
        gained[move.source] -= 1
        gained[move.target] += 1
    return Counter({point: count for point, count in gained.items() if count})


@FUZZ
@given(dice=dice_value)
def test_dice_parse_or_give_a_notation_error(dice):
    parsed = clean_call(parse_dice, dice)
    if not isinstance(parsed, Exception):
        assert all(type(die) is int and 1 <= die <= 6 for die in parsed) and len(parsed) == 2


@FUZZ
@given(position_id=position_id, variant=variant, dice=dice_pair, text=play_text)
def test_position_ids_read_or_give_a_notation_error_and_what_reads_plays(
    position_id, variant, dice, text
):
    position = clean_call(Position.from_position_id, position_id, variant)
    if isinstance(position, Exception):
        return
    assert clean_call(Position.from_position_id, position.position_id(), variant) == position
    plays = clean_call(legal_plays, position, dice, allowed=())
    assert plays, "there is always a play, the empty one at least"
    clean_call(check_play, position, dice, text)
    if plays[0].play:
        assert not isinstance(clean_call(check_play, position, dice, plays[0].play), Exception)


@FUZZ
@given(data=position_json(), given_variant=st.none() | variant)
def test_positions_in_json_read_or_give_a_notation_error(data, given_variant):
    position = clean_call(Position.from_json, data, given_variant)
    if not isinstance(position, Exception):
        assert Position.from_json(position.to_json(), position.variant) == position


@FUZZ
@given(data=action_json())
def test_game_actions_in_json_read_or_give_a_notation_error(data):
    clean_call(action_from_json, data)


# --- Regressions: the exact inputs that crashed before the fixes --------------------------------


def nested(depth: int) -> list[Any]:
    outer: list[Any] = []
    inner = outer
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return outer


DEEP = nested(100_000)
#: (function, arguments): each raised something else than a RulesError before.
REGRESSIONS: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
    # "²" is a digit to str.isdigit, and int() does not read it: ValueError.
    "superscript die": (parse_dice, ("²3",)),
    "superscript die in an action": (action_from_json, ({"dice": "²3", "play": ""},)),
    # A list where a mapping goes, with the variant given: AttributeError.
    "position JSON that is a list": (Position.from_json, ([], LongNardy())),
    # Error messages that repr() the input hit RecursionError on deep JSON.
    "deep dice in an action": (action_from_json, ({"dice": DEEP},)),
    "deep action": (action_from_json, (DEEP,)),
    "deep resignation": (action_from_json, ({"resign": DEEP},)),
    "deep dice": (parse_dice, (DEEP,)),
    "deep Position ID": (Position.from_position_id, (DEEP, ShortNardy())),
    "deep variant name": (Position.from_json, ({"variant": DEEP},)),
    "deep variant name, variant given": (Position.from_json, ({"variant": DEEP}, LongNardy())),
    "deep turn": (
        Position.from_json,
        ({**Position.initial(LongNardy()).to_json(), "turn": DEEP},),
    ),
}


@pytest.mark.parametrize("call", REGRESSIONS.values(), ids=REGRESSIONS.keys())
def test_regression_inputs_give_a_notation_error(call):
    function, arguments = call
    error = clean_call(function, *arguments)
    assert isinstance(error, NotationError), error


def test_deep_values_are_named_by_type_in_the_message():
    with pytest.raises(NotationError, match=r"not <list nested too deeply to show>"):
        action_from_json(DEEP)
    # Shallow values are shown as before: the messages are a contract of the command line.
    with pytest.raises(NotationError, match=r"^dice are two numbers 1\.\.6: \[7, 1\]$"):
        parse_dice([7, 1])
    with pytest.raises(NotationError, match=r"^dice are two numbers 1\.\.6: '²3'$"):
        parse_dice("²3")
    assert parse_dice("٦٤") == (6, 4)  # Arabic-Indic digits are digits to int(), as before


def test_the_plays_command_answers_every_batch_line_even_a_deep_one():
    deep = json.dumps({"position_id": nested(900), "dice": [3, 1]})
    lines = ["[" * 100_000, deep, '{"position_id": "4HPwATDgc/ABMA", "dice": "²1"}',
             '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}']  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "games.rules", "plays", "--variant", "short"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [sorted(answer) for answer in answers] == [["error"], ["error"], ["error"], ["plays"]]
    assert "recursion" in answers[0]["error"]
    assert answers[2]["error"] == "dice are two numbers 1..6: '²1'"

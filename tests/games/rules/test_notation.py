import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import Move, NotationError, Play, parse_dice


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("24/18 24/20", [(24, 18, False), (24, 20, False)]),
        ("24/16", [(24, 16, False)]),
        ("13/9(2)", [(13, 9, False), (13, 9, False)]),
        ("6/1*(2)", [(6, 1, True), (6, 1, False)]),
        ("6/off", [(6, 0, False)]),
        ("bar/22*", [(25, 22, True)]),
        ("8/3*/1*", [(8, 3, True), (3, 1, True)]),
        ("25/22 6/0", [(25, 22, False), (6, 0, False)]),
        ("BAR/20 6/OFF", [(25, 20, False), (6, 0, False)]),
        ("", []),
        ("Cannot Move", []),
    ],
)
def test_plays_are_read_into_single_moves(text, moves):
    assert Play.parse(text).moves == tuple(Move(*move) for move in moves)


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("24/18 18/13", "24/13"),
        ("13/9 13/9", "13/9(2)"),
        ("6/2 8/2 24/20 24/20", "24/20(2) 8/2 6/2"),
        ("24/18*/13", "24/18*/13"),
        ("25/22* 6/0", "bar/22* 6/off"),
        ("6/1*(2)", "6/1* 6/1"),
        ("", ""),
    ],
)
def test_plays_are_written_as_gnubg_does(text, written):
    assert str(Play.parse(text)) == written


def test_plays_are_equal_when_their_effect_is():
    assert Play.parse("24/18 18/13") == Play.parse("24/13")
    assert Play.parse("13/9 13/9") == Play.parse("13/9(2)")
    assert Play.parse("8/5 6/5") == Play.parse("6/5 8/5")
    assert Play.parse("24/18 24/20") != Play.parse("24/14")
    assert Play.parse("24/18*") != Play.parse("24/18")
    assert len({Play.parse("24/13"), Play.parse("24/18 18/13")}) == 1


def test_repr_is_code_to_paste():
    assert repr(Play.parse("24/18 13/9")) == "Play.parse('24/18 13/9')"


@pytest.mark.parametrize(
    "text",
    [
        "24-18",
        "24/",
        "/18",
        "18/24",
        "24/18(5)",
        "24/18(0)",
        "26/20",
        "24/18 x",
        "13/9(3) 6/2(2)",
        "off/6",
    ],
)
def test_malformed_plays_are_notation_errors(text):
    with pytest.raises(NotationError):
        Play.parse(text)


@given(st.text(max_size=30))
def test_any_text_is_read_or_refused_with_a_notation_error(text):
    try:
        play = Play.parse(text)
    except NotationError:
        return
    assert Play.parse(str(play)) == play


@given(st.text(alphabet="0123456789/*() baroff", max_size=30))
def test_near_miss_notation_is_read_or_refused_with_a_notation_error(text):
    try:
        play = Play.parse(text)
    except NotationError:
        return
    assert all(move.source > move.target for move in play.moves)


@pytest.mark.parametrize(("text", "dice"), [("64", (6, 4)), ("6-4", (6, 4)), ("1 1", (1, 1))])
def test_dice_are_read(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("dice", ["67", "6", "", "a4", (0, 3), (1, 2, 3), (True, 2)])
def test_bad_dice_are_notation_errors(dice):
    with pytest.raises(NotationError):
        parse_dice(dice)

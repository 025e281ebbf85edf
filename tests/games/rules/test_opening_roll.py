"""The opening roll of the sport rules (art. 26.3) in the engine: one die each, the higher moves
first with both numbers, so the first roll is never a double and the first mover may be Black.
Long Nardy plays it with its switch ``opening_roll``; without it White moves first, as before."""

import json
import shutil
import subprocess

import pytest

from games.rules import (
    Colour,
    Double,
    GameError,
    LongNardy,
    MatchGame,
    NotationError,
    Opens,
    Position,
    Resign,
    ShortNardy,
    Turn,
    action_from_json,
    action_to_json,
    replay_game,
    replay_match,
)
from games.rules.game import GameState
from games.rules.matfile import check_match, match_record, read_match, write_match

OPENING = LongNardy(opening_roll=True)
#: Black won the opening throw 5 against 3, and plays both numbers with one head checker.
BLACK_OPENS = (
    Opens(Colour.BLACK),
    Turn.of("53", "24/16"),
    Turn.of("64", "24/14"),
    Resign(Colour.WHITE),
)


def test_without_the_switch_long_nardy_is_as_it_was():
    assert not LongNardy().opens_with_throw and OPENING.opens_with_throw
    assert ShortNardy().opens_with_throw
    replay = replay_game(LongNardy(), [Turn.of("55", "24/4")])  # a double may open
    assert replay.positions[-1].turn is Colour.BLACK
    with pytest.raises(GameError, match="this game has no opening throw: White moves first"):
        replay_game(LongNardy(), [Opens(Colour.BLACK)])


def test_with_the_opening_roll_a_double_first_roll_is_refused_with_the_rules_reason():
    with pytest.raises(GameError) as refused:
        replay_game(OPENING, [Turn.of("55", "24/4")])
    assert str(refused.value.said) == (
        "turn 1, white '24/4': the first roll of a game is never a double"
    )
    with pytest.raises(GameError, match="never a double"):
        replay_game(OPENING, [Opens(Colour.BLACK), Turn.of("66", "24/18(2)")])
    # After the opening roll, doubles are played as always.
    replay_game(OPENING, [Turn.of("65", "24/13"), Turn.of("66", "24/18(2)")])


def test_black_may_move_first_and_the_game_goes_on_from_there():
    replay = replay_game(OPENING, BLACK_OPENS)
    start, after_black, after_white = replay.positions
    assert start.turn is Colour.BLACK and start == Position.initial(OPENING).__class__(
        OPENING, start.mover, start.opponent, Colour.BLACK
    )
    assert after_black.turn is Colour.WHITE and after_black.opponent[16] == 1
    assert after_white.turn is Colour.BLACK and after_white.opponent[14] == 1
    assert replay.outcome.winner is Colour.BLACK
    # White moves first as before when the record says nothing, or says White.
    assert replay_game(OPENING, [Opens(Colour.WHITE), Turn.of("53", "24/16")]).positions[0].turn
    assert replay_game(OPENING, [Turn.of("53", "24/16")]).positions[-1].turn is Colour.BLACK


@pytest.mark.parametrize(
    "actions",
    [
        [Opens(Colour.BLACK), Opens(Colour.WHITE)],
        [Turn.of("53", "24/16"), Opens(Colour.BLACK)],
    ],
)
def test_who_moves_first_is_said_once_before_the_first_roll(actions):
    with pytest.raises(GameError, match="who moves first is thrown for before the game's first"):
        replay_game(OPENING, actions)


def test_no_dave_before_the_opening_throw_in_long_nardy_either():
    with pytest.raises(GameError, match="no dave before the opening throw"):
        replay_game(OPENING, [Double()])
    with pytest.raises(GameError, match="no dave before the opening throw"):
        replay_game(OPENING, [Opens(Colour.BLACK), Double()])


def test_the_federation_draw_gives_the_last_turn_to_whoever_moved_second():
    variant = LongNardy(federation_draw=True, opening_roll=True)
    game = GameState.new(variant)
    game.apply(Opens(Colour.BLACK), 0)
    # Black (first mover) bears off its last checker: White, second, gets a last turn.
    game.position = Position.from_points(variant, {1: 1}, {1: 2}, turn=Colour.BLACK)
    game.apply(Turn.of("21", "1/off"), 1)
    assert game.last_turn and game.outcome is None
    game.apply(Turn.of("11", "1/off(2)"), 2)
    assert game.outcome is not None and game.outcome.winner is None  # drawn


def test_the_game_checkpoint_keeps_who_moved_first():
    game = GameState.new(OPENING)
    game.apply(Opens(Colour.BLACK), 0)
    data = json.loads(json.dumps(game.checkpoint()))
    again = GameState.resumed(OPENING, data)
    assert again.first is Colour.BLACK and again.position.turn is Colour.BLACK
    with pytest.raises(GameError, match="who moves first"):
        again.apply(Opens(Colour.WHITE), 1)


def test_the_action_reads_and_writes_as_json():
    assert action_to_json(Opens(Colour.BLACK)) == {"opens": "black"}
    assert action_from_json({"opens": "black"}) == Opens(Colour.BLACK)
    for bad in ({"opens": "red"}, {"opens": "black", "dice": 3}):
        with pytest.raises(NotationError):
            action_from_json(bad)


def test_a_match_counts_black_s_wins_for_the_player_playing_black():
    result = replay_match(OPENING, [MatchGame(1, BLACK_OPENS)], length=3)
    assert result.score == (0, 1)  # player 1 played White; Black (player 2) won


# --- .mat files ---------------------------------------------------------------------------------


def test_a_match_where_black_opens_round_trips_through_a_mat_file():
    games = [MatchGame(1, BLACK_OPENS), MatchGame(2, (Opens(Colour.WHITE), *BLACK_OPENS[1:]))]
    record = match_record(OPENING, ("Ашот", "Bob"), games, length=5)
    text = write_match(record)
    assert '; [OpeningRoll "On"]' in text and '; [Opens "1.black 2.white"]' in text
    lines = text.splitlines()
    # Game 1: Black (player 2, Bob) rolled first, so the first line's left column is empty.
    game_1 = lines.index(" Game 1")
    assert lines[game_1 + 2] == "  1)                             53: 24/16"
    # Game 2: player 2 plays White and moved first: the same column.
    game_2 = lines.index(" Game 2")
    assert lines[game_2 + 2] == "  1)                             53: 24/16"
    again = read_match(text)
    assert again == record and again.variant == OPENING
    assert [game.first for game in again.games] == [2, 2]
    assert [game.colour(2) for game in again.games] == [Colour.BLACK, Colour.WHITE]
    checked = check_match(again)
    assert checked.valid and not checked.warnings
    assert [game.winner for game in checked.games] == [2, 1]  # White resigned each game
    assert write_match(again) == text


def test_a_mat_file_opening_with_a_double_is_refused_where_it_stands():
    text = write_match(match_record(OPENING, ("Ann", "Bob"), [MatchGame(1, BLACK_OPENS)], length=3))
    doubled = text.replace("53: 24/16", "55: 24/4")
    error = check_match(read_match(doubled)).error
    assert error is not None
    assert str(error.said) == (
        "game 1, move 1, player 2: '24/4': the first roll of a game is never a double"
    )
    # The same file without the opening roll: Long Nardy accepts a double first roll.
    plain = doubled.replace('; [OpeningRoll "On"]\n', "").replace('; [Opens "1.black"]\n', "")
    assert check_match(read_match(plain)).valid


GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
READ_BY_GNUBG = """
import gnubg, json
gnubg.command('import mat "{path}"')
found = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
moves = [[(a["player"], a.get("dice"), a["action"]) for a in g["game"]] for g in found["games"]]
print("@@" + json.dumps(moves) + "@@")
"""


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_gnubg_reads_a_short_nardy_match_where_the_second_player_and_black_opens(tmp_path):
    games = [
        MatchGame(
            1,
            (
                Opens(Colour.BLACK),
                Turn.of("31", "8/5 6/5"),
                Turn.of("64", "24/18 13/9"),
                Turn.of("52", "13/11 13/8"),
                Resign(Colour.WHITE),
            ),
        )
    ]
    path = tmp_path / "black-opens.mat"
    path.write_text(write_match(match_record(ShortNardy(), ("Ann", "Bob"), games, length=3)))
    script = tmp_path / "read.py"
    script.write_text(READ_BY_GNUBG.format(path=path))
    done = subprocess.run(
        [GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=120
    )
    moves = json.loads(done.stdout.split("@@")[1])
    # gnubg's O is the file's player 2: it rolled first, 3-1, as the file's column says.
    assert moves == [
        [
            ["O", [3, 1], "move"],
            ["X", [6, 4], "move"],
            ["O", [5, 2], "move"],
            ["X", None, "resign"],
        ]
    ]

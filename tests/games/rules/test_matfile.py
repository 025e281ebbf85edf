"""Jellyfish/gnubg .mat match files: both dialects, checking, writing, the `check` command."""

import contextlib
import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import Colour, Ending, LongNardy, Resign, RulesError, ShortNardy, Turn
from games.rules.matfile import (
    Claim,
    MatchFormatError,
    RecordError,
    check_match,
    match_record,
    read_match,
    write_match,
)

GALAXY = textwrap.dedent(
    """\
    ; [Site "BackgammonGalaxy"]
    ; [Player 1 "lasse"]
    ; [Player 2 "mglough"]
    ; [Variation "Backgammon"]
    ; [Crawford "On"]
    ; [CubeLimit "1024"]

    5 point match

     Game 1
     lasse : 0                       mglough : 0
      1)                             51: 24/23 13/8
      2) 21: 13/11 24/23             22: 6/4 6/4 13/11 13/11
      3) 55: 6/1 6/1 23/18 18/13     44: 25/21 11/7 11/7 8/4
      4) 42: 8/4 6/4                 21: 25/23 8/7
      5) 61: 13/7 7/6                54: 23/18 18/14
      6) 52: 25/20 13/11             43: 25/22 22/18
      7) 11: 8/7 7/6 6/5 6/5         44:
      8)  Doubles => 2                Drops
          Wins 1 point

     Game 2
     lasse : 1                       mglough : 0
      1) 31: 8/5 6/5                 42: 8/4 6/4
      2) 63: 24/18 13/10             62: 24/18 13/11
      3) 54: 18/13 13/9              44: 18/14 14/10 13/9 13/9
      4)  Doubles => 2                Takes
      5) 66: 24/18 13/7 13/7 9/3      Losses 2 point
          Wins 4 point and the match
    """
)

STUDIO = textwrap.dedent(
    """\
    ; [Site "Backgammon Studio"]
    ; [Player 1 "Board Lord"]
    ; [Player 2 ""]
    ; [Variation "Short Nardy"]

    3 point match


     Game 1
     Board Lord : 0                         : 0
      1) 51: 24/23 13/8                     42: 8/4 6/4
      2) 65: 24/18 23/18                    64: 24/14
      3) 62: 13/11* 13/7                    64: bar/15
      4) 66: 13/1*(2)                       11: Cannot Move
      5) 43: ????                            Wins 1 point
    """
)


def test_galaxy_dialect_unmarked_hits_each_step_written_empty_move_and_losses():
    record = read_match(GALAXY)
    assert record.players == ("lasse", "mglough")
    assert record.length == 5 and record.crawford
    assert record.variant == ShortNardy(koks=True, dave=record.variant.dave)
    assert record.variant.dave.max_stake == 1024
    assert ("Site", "BackgammonGalaxy") in record.headers
    first, second = record.games
    assert first.first == 2 and second.first == 1 and second.score == (1, 0)
    assert first.actions[0] == Turn.of("51", "24/23 13/8")
    assert first.actions[12] == Turn.of("44", "")  # an empty move: no legal play
    assert first.claim == Claim(1, 1)
    # "Losses 2 point" at stake 2: player 2 resigns a single game.
    assert second.actions[-1] == Resign(Colour.BLACK, 1)
    assert second.claim == Claim(1, 4, match=True)
    result = check_match(record)
    assert result.valid, result.error
    assert [(g.winner, g.points, g.ending) for g in result.games] == [
        (1, 1, Ending.DROP),
        (1, 2, Ending.RESIGN),
    ]
    # The match ends at 3-0 < 5: the claim of 4 points and the match is contradicted.
    assert result.warnings == (
        "game 2: the record says player 1 wins 4 points, the replay gives player 1 wins 2 points",
    )


def test_studio_dialect_marked_hits_combined_moves_repeats_cannot_move_and_unrecorded_turn():
    record = read_match(STUDIO)
    assert record.players == ("Board Lord", "")
    assert record.variant == ShortNardy()  # "Short Nardy": koks off unless the header says On
    (game,) = record.games
    assert game.actions[6] == Turn.of("66", "13/1*(2)")
    assert game.actions[7] == Turn.of("11", "")
    # "43: ????" then "Wins 1 point": player 1 resigned after an unrecorded roll.
    assert game.actions[-1] == Resign(Colour.WHITE, 1)
    result = check_match(record)
    assert result.valid, result.error
    assert result.games[0].winner == 2 and result.games[0].ending is Ending.RESIGN


def test_a_left_entry_running_into_the_right_column_still_splits():
    text = GALAXY.replace(
        "  3) 55: 6/1 6/1 23/18 18/13     44:", "  3) 55: 6/1 6/1 23/18 18/13 44:"
    )
    assert read_match(text) == read_match(GALAXY)


def test_a_numbered_line_started_inside_the_right_column_is_a_line_of_its_own():
    text = GALAXY.replace(
        "  5) 66: 24/18 13/7 13/7 9/3      Losses 2 point\n      Wins 4 point and the match",
        "  5) 66: 24/18 13/7 13/7 9/3  6)  Losses 2 point       Wins 4 point and the match",
    )
    game = read_match(text).games[1]
    assert game.actions[-1] == Resign(Colour.WHITE, 1)  # player 1 concedes, player 2 wins
    assert game.claim == Claim(2, 4, match=True)


@pytest.mark.parametrize(
    ("variation", "expected"),
    [
        ("Backgammon", ShortNardy(koks=True)),
        ("Short Nardy", ShortNardy()),
        ("Long Nardy", LongNardy()),
    ],
)
def test_the_variation_header_selects_the_variant(variation, expected):
    text = f'; [Variation "{variation}"]\n\n1 point match\n\n Game 1\n a : 0     b : 0\n'
    assert read_match(text).variant == expected


def test_rule_switch_headers():
    text = textwrap.dedent(
        """\
        ; [Variation "Long Nardy"]
        ; [FederationDraw "On"]
        ; [BlockCheck "Turn"]
        ; [DaveProgression "Arithmetic"]

        0 point match

         Game 1
         a : 0     b : 0
        """
    )
    record = read_match(text)
    assert record.length is None
    variant = record.variant
    assert isinstance(variant, LongNardy)
    assert variant.federation_draw and variant.block_check == "turn"
    assert variant.dave.progression == "arithmetic"
    assert read_match(write_match(record)) == record


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no game found"),
        ("hello\n", "no game found"),
        (" Game 1\n a : 0   b : 0\n", "no 'N point match' line"),
        ('; [Variation "Hypergammon"]\n1 point match\n Game 1\n a : 0  b : 0\n', "unsupported"),
        ("1 point match\n Game 1\n not a score line\n", "score line"),
        ("1 point match\n Game 1\n a : 0  b : 0\n  1) hello world\n", "cannot read 'hello world'"),
    ],
)
def test_a_text_that_is_not_a_match_file(text, reason):
    with pytest.raises(MatchFormatError, match=reason):
        read_match(text)


@pytest.mark.parametrize(
    ("old", "new", "move", "player", "reason"),
    [
        ("  2) 21: 13/11 24/23", "  2) 27: 13/11 24/23", 2, 1, "dice are two numbers"),
        ("  2) 21: 13/11 24/23", "  2) 21: 13/11 24/x", 2, 1, "cannot read"),
        ("  4)  Doubles => 2", "  4)  Doubles => 4", 4, 1, "the next stake is 2, not 4"),
        ("  4)  Doubles => 2                Takes", "  4)  Takes", 4, 1, "answers no dave"),
    ],
)
def test_an_unreadable_entry_is_a_record_error_with_its_place(old, new, move, player, reason):
    assert old in GALAXY
    with pytest.raises(RecordError) as raised:
        read_match(GALAXY.replace(old, new))
    error = raised.value
    assert (error.game, error.move, error.player) == (2 if move == 4 else 1, move, player)
    assert reason in error.reason


def test_moving_out_of_turn_is_an_error():
    text = GALAXY.replace(
        "  2) 21: 13/11 24/23             22:", "  2)                             22:"
    )
    with pytest.raises(RecordError, match="player 1 is on roll, not player 2"):
        read_match(text)


def test_an_illegal_play_is_located_by_game_line_and_column():
    text = GALAXY.replace("  6) 52: 25/20 13/11", "  6) 52: 25/20 13/10")
    error = check_match(read_match(text)).error
    assert error is not None
    assert (error.game, error.move, error.player, error.play) == (1, 6, 1, "25/20 13/10")
    assert "cannot play" in error.reason


def test_writer_layout_matches_gnubg_and_reads_back():
    record = read_match(GALAXY)
    text = write_match(record)
    lines = text.splitlines()
    assert " 5 point match" in lines
    assert " lasse : 0                      mglough : 0" in lines
    assert "  1)                             51: 24/23 13/8" in lines
    assert "  8)  Doubles => 2                Drops" in lines
    assert "      Wins 1 point" in lines
    # Hits that the Galaxy record left unmarked are written marked: the replay found them.
    assert "  3) 55: 23/13 6/1* 6/1          44: bar/21 11/7(2) 8/4" in lines
    assert "  5) 66: 24/18 13/7(2) 9/3        Losses 2 points" in lines
    assert "      Wins 4 points and the match" in lines
    again = read_match(text)
    assert check_match(again) == check_match(record)
    assert write_match(again) == text  # the written form is a fixed point


def test_match_record_fills_score_lines_and_results(short_games):
    record = match_record(ShortNardy(), ("Ann", "Bob"), short_games, length=None)
    result = check_match(read_match(write_match(record)))
    assert result.valid and not result.warnings
    assert [game.score for game in record.games][0] == (0, 0)
    assert len(result.games) == len(short_games)


def test_long_nardy_matches_round_trip(long_games):
    record = match_record(
        LongNardy(federation_draw=True), ("Ашот", "Bob Lee"), long_games, length=None
    )
    text = write_match(record)
    assert '; [Variation "Long Nardy"]' in text
    again = read_match(text)
    assert again.variant == LongNardy(federation_draw=True)
    assert again.players == ("Ашот", "Bob Lee")
    result = check_match(again)
    assert result.valid and not result.warnings
    assert [g.ending for g in result.games] == [g.ending for g in check_match(record).games]


# --- The command line ---------------------------------------------------------------------


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "games.rules", "check", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_command_valid_invalid_and_unreadable_files(tmp_path):
    valid = tmp_path / "valid.mat"
    valid.write_text(GALAXY)
    invalid = tmp_path / "invalid.mat"
    invalid.write_text(GALAXY.replace("  6) 52: 25/20 13/11", "  6) 52: 25/20 13/10"))
    broken = tmp_path / "broken.mat"
    broken.write_text("not a match\n")

    done = run(str(valid))
    assert done.returncode == 0 and done.stdout == ""
    assert "warning: game 2: the record says player 1 wins 4 points" in done.stderr

    done = run(str(valid), str(invalid))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{invalid}: game 1, move 6, player 1: '25/20 13/10': the dice 5-2 cannot play bar/20 13/10"
    ]

    done = run(str(valid), str(broken), str(tmp_path / "missing.mat"))
    assert done.returncode == 2


def test_check_command_json(tmp_path):
    valid = tmp_path / "valid.mat"
    valid.write_text(GALAXY)
    invalid = tmp_path / "invalid.mat"
    invalid.write_text(GALAXY.replace("  6) 52: 25/20 13/11", "  6) 52: 25/20 13/10"))
    done = run("--json", str(valid), str(invalid))
    assert done.returncode == 1
    first, second = json.loads(done.stdout)
    assert first == {
        "file": str(valid),
        "valid": True,
        "games": [
            {"number": 1, "winner": 1, "points": 1, "ending": "drop"},
            {"number": 2, "winner": 1, "points": 2, "ending": "resign"},
        ],
        "warnings": [
            "game 2: the record says player 1 wins 4 points, "
            "the replay gives player 1 wins 2 points"
        ],
        "error": None,
    }
    assert second["valid"] is False and second["games"] == []
    assert second["error"] == {
        "game": 1,
        "move": 6,
        "player": 1,
        "play": "25/20 13/10",
        "reason": "the dice 5-2 cannot play bar/20 13/10",
    }


@settings(max_examples=300, deadline=None)
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(GALAXY) - 1), st.sampled_from(list("0123456789/:*() \n;?W"))),
        min_size=1,
        max_size=6,
    )
)
def test_a_damaged_file_is_refused_with_a_rules_error_never_a_crash(edits):
    text = list(GALAXY)
    for index, char in edits:
        text[min(index, len(text) - 1)] = char
    # MatchFormatError or RecordError, each a message for the user; anything else fails the test.
    with contextlib.suppress(RulesError):
        check_match(read_match("".join(text)))

"""Moves the opponent accepts (seed 001: "If ... the move is found to be incomplete or against the
rules, the opponent has the opportunity to accept the move as it was made, or require the player
to make the correct move"). An accepted turn is made as the checkers physically move; a play
that is not even that is still refused; the record keeps the flag, through JSON, .mat and the
replay's frames."""

from __future__ import annotations

import pytest

from games.rules import (
    GameError,
    IllegalPlayError,
    Turn,
    action_from_json,
    action_to_json,
    check_play,
    replay_game,
)
from games.rules.game import MatchGame
from games.rules.matfile import check_match, match_record, read_match, write_match
from games.rules.moves import physical_play
from games.rules.position import Position
from games.rules.variants import LongNardy, ShortNardy
from games.viewer import match_frames

LONG = LongNardy(accepted_moves=True)
SHORT = ShortNardy(accepted_moves=True)
#: Seed 001's own case: a 6-1 played as 24/18 alone (the 1 left unplayed).
INCOMPLETE = {"dice": "61", "play": "24/18", "accepted": True}


def test_seed_001s_example_accepted_stands_as_made():
    turn = action_from_json(INCOMPLETE)
    assert turn == Turn.of("61", "24/18", accepted=True)
    replay = replay_game(LONG, [turn])
    white = replay.positions[-1].to_json()["white"]
    assert white[23] == 14 and white[17] == 1  # one checker moved from the head to 18
    assert sum(white) == 15
    assert replay.positions[-1].turn.value == "black"


def test_seed_001s_example_refused_says_the_rule_it_breaks():
    with pytest.raises(IllegalPlayError, match="2 of 2 dice can be played, this play uses 1"):
        check_play(Position.initial(LONG), "61", "24/18")
    refused = {**INCOMPLETE}
    del refused["accepted"]
    with pytest.raises(GameError, match="this play uses 1"):
        replay_game(LONG, [action_from_json(refused)])


def test_rules_without_accepted_moves_refuse_the_flag():
    with pytest.raises(GameError, match="may not accept an illegal play"):
        replay_game(LongNardy(), [action_from_json(INCOMPLETE)])


def test_a_legal_play_marked_accepted_is_made_as_the_rules_make_it():
    replay = replay_game(LONG, [Turn.of("61", "24/18 18/17", accepted=True)])
    assert replay.positions[-1] == check_play(Position.initial(LONG), "61", "24/18 18/17").position


@pytest.mark.parametrize(
    ("variant", "dice", "play", "reason"),
    [
        (LONG, "61", "13/7", "no checker of the player to move on point 13"),
        (LONG, "61", "24/16", "no dice of the roll left take a checker from point 24 to point 16"),
        (LONG, "61", "24/18 24/18", "no dice of the roll left"),  # the 6 was used
        (LONG, "61", "bar/18", "Long Nardy has no bar"),
        # Short Nardy: Black's two checkers on White's 1 (Black's 24) hold the point.
        (SHORT, "51", "6/1", "where a checker can stand"),
    ],
)
def test_a_play_that_is_not_a_physical_move_is_refused(variant, dice, play, reason):
    with pytest.raises(IllegalPlayError, match=reason):
        physical_play(Position.initial(variant), dice, play)


def test_short_nardy_accepted_play_hits_a_lone_checker_on_the_way():
    # White leaves a blot on its 22 (24/22 with a 2-1 played 24/22 only, accepted); Black's
    # accepted 6-5 from its 13 lands on White's 3 ... a lone checker is hit where it lands.
    start = Position.initial(SHORT)
    first = physical_play(start, "21", "24/22")  # incomplete: the 1 is not played
    after = first.position  # Black on roll; White's blot stands on White's 22 = Black's 3
    hit = physical_play(after, "21", "6/4 4/3")
    assert hit.position.mover[25] == 1  # White, on roll now, has the blot on the bar
    assert hit.play.moves[-1].hit


def test_the_flag_goes_through_json_mat_and_the_frames():
    turn = action_from_json(INCOMPLETE)
    assert action_to_json(turn) == INCOMPLETE
    assert "accepted" not in action_to_json(Turn.of("61", "24/18 18/17"))
    answer = Turn.of("53", "24/16")
    game = MatchGame(1, (turn, answer, action_from_json({"resign": "white", "value": 1})))
    record = match_record(LONG, ("Anna", "Boris"), [game], length=1)
    text = write_match(record)
    assert '; [Accepted "1.1"]' in text
    assert "; Game 1, action 1: 61: 24/18 was accepted by the opponent as made" in text
    assert "gnubg may refuse it" in text
    assert "  1) 61: 24/18" in text  # the play as it was made
    back = read_match(text)
    assert back.games[0].actions[:2] == (turn, answer)
    assert back.variant.accepted_moves
    assert [game.to_json() for game in check_match(back).games] == [
        {"number": 1, "winner": 2, "points": 1, "ending": "resign", "accepted": [1]}
    ]
    frames = match_frames(LONG, [(1, game.actions)], names=("Anna", "Boris"), length=1,
                          crawford=True)["frames"]  # fmt: skip
    assert [frame.get("accepted", False) for frame in frames if frame["kind"] == "turn"] == [
        True,
        False,
    ]


def test_without_the_header_an_accepted_looking_play_is_refused_by_the_file_reader():
    text = write_match(
        match_record(
            LONG, ("Anna", "Boris"),
            [MatchGame(1, (action_from_json(INCOMPLETE), Turn.of("53", "24/16")))], length=1,
        )
    )  # fmt: skip
    stripped = "\n".join(line for line in text.splitlines() if "Accepted" not in line)
    check = check_match(read_match(stripped))
    assert check.error is not None and "this play uses 1" in check.error.reason

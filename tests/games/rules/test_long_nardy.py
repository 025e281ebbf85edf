"""Long Nardy, rule by rule, as ../shared/RULES.md states it."""

import pytest

from games.rules import (
    IllegalPlayError,
    LongNardy,
    Play,
    Position,
    check_play,
    legal_plays,
    most_dice_playable,
)

LONG = LongNardy()
OPENING = Position.initial(LONG)


def plays(position, dice):
    return sorted(str(legal.play) for legal in legal_plays(position, dice))


def legal(position, dice, text):
    return Play.parse(text) in [legal.play for legal in legal_plays(position, dice)]


def refusal(position, dice, play):
    with pytest.raises(IllegalPlayError) as caught:
        check_play(position, dice, play)
    return caught.value.reason


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((1, 1), ["24/20"]),
        ((2, 2), ["24/16"]),
        ((3, 3), ["24/18(2)", "24/21 24/15"]),
        ((4, 4), ["24/16(2)"]),
        ((5, 5), ["24/4"]),
        ((6, 6), ["24/18(2)"]),
    ]
    + [((high, low), [f"24/{24 - high - low}"]) for high in range(2, 7) for low in range(1, high)],
)
def test_the_opening_roll(dice, expected):
    assert plays(OPENING, dice) == expected


def test_seed_example_black_4_4_is_stopped_by_whites_checker_not_the_head():
    # White opens 5-5 with one checker 24/19/14/9/4: it stands on Black's point 16.
    after_white = check_play(OPENING, (5, 5), "24/19/14/9/4").position
    assert plays(after_white, (4, 4)) == ["24/20"]
    assert refusal(after_white, (4, 4), "24/20 24/20") == (
        "a second checker may not leave the head on this turn"
    )
    assert refusal(after_white, (4, 4), "24/16") == "point 16 is held by the opponent"


def test_seed_example_black_5_5_plays_three_fives_with_one_checker():
    after_white = check_play(OPENING, (2, 2), "24/22/20/18/16").position
    assert plays(after_white, (5, 5)) == ["24/9"]
    assert most_dice_playable(after_white, (5, 5)) == 3


def test_the_opening_6_6_loses_two_sixes_and_4_4_uses_two_head_checkers():
    assert refusal(OPENING, (6, 6), "24/18") == "2 of 4 dice can be played, this play uses 1"
    assert refusal(OPENING, (4, 4), "24/20 24/20") == "4 of 4 dice can be played, this play uses 2"
    assert refusal(OPENING, (4, 4), "24/12") == "point 12 is held by the opponent"
    check_play(OPENING, (3, 3), "24/21 24/15")


def test_the_first_turn_exception_does_not_apply_to_other_doubles():
    assert plays(OPENING, (2, 2)) == ["24/16"]
    assert refusal(OPENING, (2, 2), "24/20 24/20") == (
        "a second checker may not leave the head on this turn"
    )


def test_black_gets_the_exception_when_whites_head_stops_it():
    after_white = check_play(OPENING, (6, 5), "24/13").position
    # Black's 24/18/12: White's head is Black's 12, so two checkers may leave.
    assert plays(after_white, (6, 6)) == ["24/18(2)"]


def test_only_one_checker_leaves_the_head_after_the_first_turn():
    position = Position.from_points(LONG, {24: 14, 20: 1}, {24: 14, 20: 1})
    assert refusal(position, (6, 5), "24/18 24/19") == (
        "a second checker may not leave the head on this turn"
    )
    check_play(position, (6, 5), "24/18 20/15")


def test_no_checker_may_stop_on_an_opponent_checker():
    # Black's checker on its 6 stands on White's 18.
    position = Position.from_points(LONG, {24: 14, 10: 1}, {24: 14, 6: 1})
    assert refusal(position, (6, 1), "24/18 10/9") == "point 18 is held by the opponent"
    head_only = Position.from_points(LONG, {24: 15}, {24: 14, 6: 1})
    assert plays(head_only, (6, 1)) == ["24/17"]  # by the 1 first, jumping over nothing


def test_a_path_written_through_a_held_point_is_the_same_play_by_another_route():
    # Plays are equal by their effect: "24/18 18/17" cannot be made through 18, but one checker
    # from 24 to 17 is legal through 23 (gnubg exports such paths, e.g. "5/1 1/off").
    position = Position.from_points(LONG, {24: 15}, {24: 14, 6: 1})
    via_23 = check_play(position, (6, 1), "24/23 23/17")
    assert check_play(position, (6, 1), "24/18 18/17").position == via_23.position


def test_all_dice_must_be_used_when_possible():
    # White can play 24/20/16 (the head at 12 stops it) and 13/9 (Black's 17 holds White's 5).
    position = Position.from_points(LONG, {24: 14, 13: 1}, {24: 14, 17: 1})
    assert most_dice_playable(position, (4, 4)) == 3
    assert refusal(position, (4, 4), "24/16") == "3 of 4 dice can be played, this play uses 2"
    assert plays(position, (4, 4)) == ["24/16 13/9"]


def test_when_only_one_die_can_be_used_it_must_be_the_higher():
    # One head checker may move; Black on White's 17 stops the second die either way.
    position = Position.from_points(LONG, {24: 14, 1: 1}, {24: 14, 5: 1})
    assert plays(position, (6, 1)) == ["24/18"]
    assert refusal(position, (6, 1), "24/23") == "only one die can be played: it must be the 6"


def test_the_lower_die_is_played_when_the_higher_cannot_be():
    position = Position.from_points(LONG, {24: 14, 1: 1}, {24: 13, 6: 1, 5: 1})
    assert plays(position, (6, 1)) == ["24/23"]


def test_nothing_to_play_is_the_empty_play():
    position = Position.from_points(LONG, {24: 14, 1: 1}, {24: 13, 6: 1, 5: 1})
    (only,) = legal_plays(position, (6, 6))
    assert not only.play
    assert only.position == position.swapped()
    assert check_play(position, (6, 6), "").position == position.swapped()


def test_a_six_block_with_no_opponent_ahead_is_forbidden():
    # Points 18..13 are the last six of Black's path: nothing can ever be ahead of them.
    position = Position.from_points(
        LONG, {24: 9, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1}, {24: 15}
    )
    assert refusal(position, (6, 1), "19/13 24/23") == (
        "six-block on points 18\u201313 with no opponent checker ahead"
    )
    assert not legal(position, (6, 1), "19/13 24/23")


def test_a_six_block_is_allowed_with_an_opponent_checker_ahead():
    # White's 6..1 are Black's 18..13; Black's checker on its 10 has passed them.
    white = {24: 9, 7: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}
    check_play(Position.from_points(LONG, white, {24: 14, 10: 1}), (1, 4), "7/6 24/20")
    blocked = Position.from_points(LONG, white, {24: 14, 20: 1})
    # White's head on 24 continues the run past 1: it is seven points long.
    assert refusal(blocked, (1, 4), "7/6 24/20") == (
        "six-block on points 6\u201324 with no opponent checker ahead"
    )


def test_a_block_wraps_from_point_1_to_point_24():
    # Along Black's path White's 1 and 24 are neighbours: 3, 2, 1, 24, 23, 22.
    position = Position.from_points(LONG, {24: 10, 23: 1, 22: 1, 4: 1, 2: 1, 1: 1}, {24: 15})
    assert refusal(position, (1, 2), "4/3 24/22") == (
        "six-block on points 3\u201322 with no opponent checker ahead"
    )


def test_points_13_and_12_are_not_neighbours_for_a_block():
    # 19/18/12 would stop on 18 and make 18..13; 19/13/12 ends beside 13 without a block.
    position = Position.from_points(
        LONG, {24: 9, 19: 1, 17: 1, 16: 1, 15: 1, 14: 1, 13: 1}, {20: 15}
    )
    check_play(position, (6, 1), "19/12")
    assert legal(position, (6, 1), "19/13/12")


def test_step_mode_lets_the_player_choose_an_order_that_never_blocks():
    # 20/15 fills the gap of 18-16, 14-13; 13/7 then breaks the run. 13/7 first never blocks.
    position = Position.from_points(
        LONG, {24: 8, 20: 1, 18: 1, 17: 1, 16: 1, 14: 1, 13: 1}, {24: 15}
    )
    check_play(position, (5, 6), "20/15 13/7")
    assert legal(position, (5, 6), "20/15 13/7")


STEPPING = Position.from_points(LONG, {24: 9, 22: 1, 17: 1, 16: 1, 15: 1, 14: 1, 13: 1}, {24: 15})


def test_step_mode_refuses_a_checker_passing_through_a_block():
    # 22/20/18/16: the stop on 18 makes 18..13, whatever the order.
    assert refusal(STEPPING, (2, 2), "22/16 24/22") == (
        "six-block on points 18\u201313 with no opponent checker ahead"
    )
    assert not legal(STEPPING, (2, 2), "22/16 24/22")


def test_turn_mode_checks_only_the_end_of_the_turn():
    position = Position.from_points(LongNardy(block_check="turn"), *_points(STEPPING))
    check_play(position, (2, 2), "22/16 24/22")
    assert legal(position, (2, 2), "22/16 24/22")
    with pytest.raises(IllegalPlayError, match="six-block on points 18\u201313"):
        check_play(position, (2, 2), "22/18 24/20")


def _points(position):
    return (
        {p: n for p, n in enumerate(position.mover) if n and 0 < p < 25},
        {p: n for p, n in enumerate(position.opponent) if n and 0 < p < 25},
    )


def test_bearing_off_needs_every_checker_home():
    position = Position.from_points(LONG, {6: 13, 8: 1, 9: 1}, {1: 15})
    assert refusal(position, (6, 5), "6/off 6/1") == (
        "cannot bear off: 2 checkers are outside the home"
    )


def test_a_higher_die_bears_off_from_the_highest_point_only():
    position = Position.from_points(LONG, {5: 1, 3: 1}, {19: 2})
    assert refusal(position, (6, 1), "3/off 5/4") == (
        "cannot bear off from 3 with a 6: a checker stands on a higher point"
    )
    assert legal(position, (6, 1), "5/off 3/2")
    assert legal(position, (6, 1), "5/4/off")
    assert len(legal_plays(position, (6, 1))) == 2


def test_a_die_may_move_inside_the_home_instead_of_bearing_off():
    position = Position.from_points(LONG, {5: 1, 4: 1}, {19: 2})
    check_play(position, (4, 1), "5/1 4/3")
    assert legal(position, (4, 1), "5/1 4/3")
    assert legal(position, (4, 1), "4/off 5/4")
    assert plays(Position.from_points(LONG, {6: 2}, {19: 2}), (5, 4)) == ["6/2 6/1"]


def test_recorded_plays_may_join_steps_and_list_moves_in_any_order():
    position = Position.from_points(LONG, {24: 14, 20: 1}, {24: 14, 20: 1})
    expected = check_play(position, (6, 5), "24/18 20/15").position
    assert check_play(position, (6, 5), "20/15 24/18").position == expected
    assert (
        check_play(position, (5, 6), "24/19/13").position
        == check_play(position, (6, 5), "24/13").position
    )


def test_a_move_that_the_dice_cannot_make_is_named():
    assert refusal(OPENING, (6, 5), "24/17") == "the dice 6-5 cannot play 24/17"
    assert refusal(OPENING, (6, 5), "24/18 24/18") == "the dice 6-5 cannot play 24/18(2)"
    assert refusal(OPENING, (6, 5), "20/14") == "no checker on point 20"

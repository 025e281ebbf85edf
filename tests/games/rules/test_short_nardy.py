"""Short Nardy (backgammon) rule by rule, as RULES.md states them.

Positions are built in each side's own numbering (``Position.from_points``; unnamed checkers are
borne off): the opponent's point p is the mover's 25 - p, so a blot on the mover's 9 is ``{16: 1}``
in ``opponent``. The move generator is also compared with gnubg's in test_gnubg_oracle.py and
test_short_counts.py; no-hit-and-hide has its own file.
"""

import pytest

from games.rules import (
    Colour,
    DaveRules,
    Double,
    Drop,
    Ending,
    GameError,
    IllegalPlayError,
    Play,
    Position,
    Resign,
    ShortNardy,
    Take,
    Turn,
    check_play,
    legal_plays,
    most_dice_playable,
    replay_game,
)

SHORT = ShortNardy()
WHITE, BLACK = Colour.WHITE, Colour.BLACK


def at(mover, opponent, variant=SHORT):
    return Position.from_points(variant, mover, opponent)


def plays(position, dice):
    """The legal plays, each by its effect (``Play`` equality: same checkers from and to)."""
    return {legal.play for legal in legal_plays(position, dice)}


def played(*texts):
    return {Play.parse(text) for text in texts}


def refused(position, dice, play):
    with pytest.raises(IllegalPlayError) as caught:
        check_play(position, dice, play)
    return caught.value.reason


def test_the_starting_position():
    start = Position.initial(SHORT)
    expected = at({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert (start.mover, start.opponent, start.turn) == (expected.mover, expected.opponent, WHITE)


# --- Landing and hitting -----------------------------------------------------------------------


def test_a_checker_may_stop_on_a_blot_and_hits_it():
    # A blot on the mover's 9, two opponent checkers on the mover's 10.
    position = at({13: 2, 6: 13}, {16: 1, 15: 2})
    after = check_play(position, "43", "13/9* 6/3").position
    assert after.mover[25] == 1 and after.mover[16] == 0  # the opponent, now on roll, is on the bar
    assert refused(position, "43", "13/10 13/9*") == "point 10 is held by the opponent"
    # An unmarked hit is read as a hit only when the record marks no hit at all.
    assert check_play(position, "43", "13/9 6/3").position == after


def test_a_repeated_hitting_move_hits_once():
    # The blot on the opponent's 24 stands on the mover's 1: "6/1*(2)" hits it once.
    position = Position.from_points(ShortNardy(), {8: 2, 6: 2, 24: 11}, {24: 1, 13: 14})
    after = check_play(position, (5, 5), "8/3(2) 6/1*(2)").position
    assert after.opponent[1] == 2 and after.opponent[3] == 2
    assert after.mover[25] == 1  # the hit checker is on the bar, and it is the opponent's turn


# --- The bar -----------------------------------------------------------------------------------


def test_a_checker_on_the_bar_enters_first_on_the_point_25_minus_the_die():
    # The opponent holds the mover's 19: the 6 cannot enter, the 5 enters on 20.
    position = at({25: 1, 13: 2, 6: 12}, {6: 2})
    assert all(any(move.source == 25 for move in play.moves) for play in plays(position, "65"))
    check_play(position, "65", "13/7 bar/20")
    assert refused(position, "65", "13/7 13/8") == "a checker on the bar must enter first"
    assert "point 19 is held by the opponent" in refused(position, "65", "bar/19 13/8")


def test_entering_may_hit():
    position = at({25: 1, 6: 14}, {3: 1})  # a blot on the mover's 22
    after = check_play(position, "31", "bar/22* 6/5").position
    assert after.mover[25] == 1


def test_when_a_bar_checker_cannot_enter_the_rest_of_the_roll_is_lost():
    # Two on the bar, only the 5 enters: the 6 is lost though 13/7 could be played.
    two_on_bar = at({25: 2, 13: 13}, {6: 2})
    assert plays(two_on_bar, "65") == played("bar/20")
    assert most_dice_playable(two_on_bar, "65") == 1
    assert refused(two_on_bar, "65", "bar/20 13/7") == "a checker on the bar must enter first"
    # Nothing enters: the whole roll is lost.
    shut_out = at({25: 1, 13: 14}, {6: 2, 5: 2})
    assert plays(shut_out, "65") == {Play()}
    check_play(shut_out, "65", "")
    assert refused(shut_out, "65", "13/7 13/8") == "a checker on the bar must enter first"


def test_a_double_enters_every_bar_checker_before_the_rest_is_played():
    position = at({25: 2, 13: 13}, {})
    assert most_dice_playable(position, "44") == 4
    check_play(position, "44", "bar/21(2) 13/9(2)")
    assert all(sum(move.source == 25 for move in play.moves) == 2 for play in plays(position, "44"))
    # Three on the bar and a blocked entry point: nothing moves.
    assert plays(at({25: 3, 13: 12}, {4: 2}), "44") == {Play()}


# --- Bearing off -------------------------------------------------------------------------------


def test_bearing_off_needs_every_checker_home_and_none_on_the_bar():
    outside = at({9: 1, 3: 14}, {})
    assert refused(outside, "32", "9/7 3/off") == "cannot bear off: 1 checker is outside the home"
    check_play(outside, "32", "9/6 3/1")
    on_bar = at({25: 1, 3: 14}, {})
    assert not any(move.target == 0 for play in plays(on_bar, "63") for move in play.moves)


def test_a_higher_die_bears_off_from_the_highest_point_only():
    position = at({5: 1, 3: 2}, {})
    check_play(position, "64", "5/off 3/off")  # the 6 from 5, then the 4 from the highest, 3
    assert "a checker stands on a higher point" in refused(position, "41", "3/off 5/4")
    check_play(position, "41", "5/1 3/2")


def test_a_die_may_move_inside_the_home_instead_of_bearing_off():
    position = at({6: 2, 4: 2}, {})
    assert played("4/off 6/3", "6/2 6/3", "6/2 4/1") <= plays(position, "43")


def test_a_checker_hit_during_bear_off_enters_and_comes_home_before_bearing_off_continues():
    # Eight checkers already off, one hit: it must enter, and no checker bears off while it is
    # outside the home, though every other checker is home.
    position = at({25: 1, 5: 3, 3: 3}, {})
    assert plays(position, "65") == played("bar/14")
    assert "cannot bear off" in refused(position, "65", "bar/19 5/off")
    assert not any(move.target == 0 for play in plays(position, "66") for move in play.moves)
    # Home again, it bears off as before.
    check_play(at({4: 1, 5: 3, 3: 3}, {}), "54", "5/off 4/off")


# --- Using the dice ----------------------------------------------------------------------------


def test_as_many_dice_as_possible_must_be_used():
    position = at({24: 1, 2: 7, 1: 7}, {12: 2, 7: 2})  # the opponent holds the mover's 13 and 18
    # With 6-5: 24/18 is held, and so is 13, where the 6 would go on from 19: only the 5 plays.
    assert plays(position, "65") == played("24/19")
    check_play(at({24: 1, 13: 2, 6: 12}, {}), "65", "24/13")
    assert refused(at({24: 1, 13: 2, 6: 12}, {}), "65", "24/18") == (
        "2 of 2 dice can be played, this play uses 1"
    )


def test_when_only_one_die_can_be_used_it_must_be_the_higher():
    # 24/18 and 24/19 are both open, but the 13 is held: either die alone, never both.
    position = at({24: 1, 2: 7, 1: 7}, {12: 2})
    assert plays(position, "65") == played("24/18")
    assert refused(position, "65", "24/19") == "only one die can be played: it must be the 6"


def test_a_double_plays_as_many_of_its_four_moves_as_it_can():
    # One checker, the opponent holding the mover's 12: 24/20/16 and the rest are lost.
    position = at({24: 1, 2: 7, 1: 7}, {13: 2})
    assert plays(position, "44") == played("24/16")
    assert most_dice_playable(position, "44") == 2


def test_no_legal_move_is_the_empty_play_and_passes_the_turn():
    position = at({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    (only,) = legal_plays(position, "64")
    assert only.play == Play() and only.position == position.swapped()


# --- Games: the opening roll, results, dave, resignation ---------------------------------------


def test_the_first_roll_is_never_a_double_but_later_rolls_may_be():
    with pytest.raises(GameError, match="never a double"):
        replay_game(SHORT, [Turn.of("66", "24/18(2) 13/7(2)")])
    replay = replay_game(SHORT, [Turn.of("31", "8/5 6/5"), Turn.of("66", "24/18(2) 13/7(2)")])
    assert replay.outcome.ending is Ending.UNFINISHED
    # A game picked up in the middle has no opening roll.
    start = at({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    replay_game(SHORT, [Turn.of("66", "24/18(2) 13/7(2)")], start=start)


def test_no_dave_before_the_opening_throw():
    # The opening roll is the two single dice thrown to decide who starts: nobody is on roll yet.
    with pytest.raises(GameError, match="no dave before the opening throw"):
        replay_game(SHORT, [Double()])
    replay = replay_game(SHORT, [Turn.of("31", "8/5 6/5"), Double(), Take()])
    assert replay.outcome.stake == 2


@pytest.mark.parametrize(
    ("black", "koks", "value"),
    [
        ({6: 14}, False, 1),  # Black bore off one: oyn
        ({6: 15}, False, 2),  # none: mars
        ({6: 15}, True, 2),  # none, but nothing on the bar or in White's home: still mars
        ({25: 1, 6: 14}, False, 2),  # on the bar: mars without koks
        ({25: 1, 6: 14}, True, 3),  # koks
        ({20: 1, 6: 14}, True, 3),  # Black's 20 is White's 5, in White's home: koks
    ],
)
def test_the_result_of_a_game_is_oyn_mars_or_koks(black, koks, value):
    variant = ShortNardy(koks=koks)
    start = at({1: 1}, black, variant)
    outcome = replay_game(variant, [Turn.of("21", "1/off")], start=start).outcome
    assert (outcome.winner, outcome.ending, outcome.value) == (WHITE, Ending.BEAR_OFF, value)


def test_dave_multiplies_the_game_value():
    variant = ShortNardy(koks=True)
    start = at({1: 1}, {25: 1, 6: 14}, variant)
    actions = [Double(), Take(), Turn.of("21", "1/off")]
    outcome = replay_game(variant, actions, start=start).outcome
    assert (outcome.value, outcome.stake, outcome.points) == (3, 2, 6)
    # Black redoubles (only the accepter holds the right) and White declines: White loses one
    # oyn at the stake before the offer.
    start = at({6: 2}, {6: 15}, variant)
    actions = [Double(), Take(), Turn.of("21", "6/4 6/5"), Double(), Drop()]
    outcome = replay_game(variant, actions, start=start).outcome
    assert (outcome.winner, outcome.ending, outcome.points) == (BLACK, Ending.DROP, 2)
    with pytest.raises(GameError, match="white does not hold the right"):
        replay_game(variant, [Double(), Take(), Double()], start=start)
    arithmetic = ShortNardy(dave=DaveRules(progression="arithmetic"))
    start = at({6: 2}, {6: 15}, arithmetic)
    actions = [Double(), Take(), Turn.of("21", "6/4 6/5"), Double(), Take(), Resign(BLACK, 2)]
    outcome = replay_game(arithmetic, actions, start=start).outcome
    assert (outcome.winner, outcome.stake, outcome.points) == (WHITE, 3, 6)


def test_resignation_concedes_oyn_mars_or_koks_where_koks_is_played():
    outcome = replay_game(SHORT, [Resign(WHITE, 2)]).outcome
    assert (outcome.winner, outcome.ending, outcome.points) == (BLACK, Ending.RESIGN, 2)
    with pytest.raises(GameError, match="concedes 1 to 2 game values, not 3"):
        replay_game(SHORT, [Resign(WHITE, 3)])
    outcome = replay_game(ShortNardy(koks=True), [Resign(BLACK, 3)]).outcome
    assert (outcome.winner, outcome.points) == (WHITE, 3)


def test_the_last_checker_borne_off_by_both_dice_uses_both():
    # 4/off with the 6 alone and 4/3/off with both reach the same position: the play kept is the
    # one that uses both dice, as the dice rule asks (and check_play accepts it either way).
    position = at({4: 1}, {})
    (only,) = legal_plays(position, "61")
    assert [tuple(move) for move in only.play.moves] == [(4, 3, False), (3, 0, False)]
    assert check_play(position, "61", "4/off").position == only.position
    assert most_dice_playable(position, "61") == 2

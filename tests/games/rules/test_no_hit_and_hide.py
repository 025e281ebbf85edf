"""Short Nardy's house rule no-hit-and-hide (RULES.md): a checker that has hit may not, later in
the same turn, stop on a point holding another checker of its own.

Positions are built in each side's own numbering: the opponent's point p is the mover's 25 - p,
so a blot on the mover's 18 is ``{7: 1}`` in ``opponent``.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    GameError,
    IllegalPlayError,
    Position,
    ShortNardy,
    Turn,
    check_play,
    legal_plays,
    most_dice_playable,
    replay_game,
)
from games.rules.selfplay import random_turns

HIDE = ShortNardy(no_hit_and_hide=True)
STANDARD = ShortNardy()
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def position(variant, mover, opponent):
    return Position.from_points(variant, mover, opponent)


def results(variant, mover, opponent, dice):
    """The resulting positions of every legal play, as (mover's, opponent's) checkers after it."""
    start = position(variant, mover, opponent)
    return {(legal.position.opponent, legal.position.mover) for legal in legal_plays(start, dice)}


def result_of(variant, mover, opponent, dice, play):
    after = check_play(position(variant, mover, opponent), dice, play).position
    return after.opponent, after.mover


def refusal(variant, mover, opponent, dice, play):
    with pytest.raises(IllegalPlayError) as caught:
        check_play(position(variant, mover, opponent), dice, play)
    return caught.value.reason


def legal_under_both(mover, opponent, dice, play):
    """``play`` is legal with and without the rule, and the generators of both find it."""
    for variant in (HIDE, STANDARD):
        assert result_of(variant, mover, opponent, dice, play) in results(
            variant, mover, opponent, dice
        )


# A blot on the mover's 18; the opponent's other checkers are borne off, out of the way.
BLOT_18 = {7: 1}


def test_the_default_is_off():
    assert STANDARD.no_hit_and_hide is False
    assert ShortNardy(koks=True, no_hit_and_hide=True).no_hit_and_hide


def test_a_checker_that_hit_may_not_go_on_to_its_own_checkers():
    mover = {24: 1, 13: 2, 6: 12}
    reason = refusal(HIDE, mover, BLOT_18, "65", "24/18*/13")
    assert reason == (
        "the checker on 18 has hit and may not stop on 13 beside its own checkers (no hit-and-hide)"
    )
    assert "no hit-and-hide" in refusal(HIDE, mover, BLOT_18, "65", "18/13 24/18*")
    hidden = result_of(STANDARD, mover, BLOT_18, "65", "24/18*/13")
    assert hidden in results(STANDARD, mover, BLOT_18, "65")
    assert hidden not in results(HIDE, mover, BLOT_18, "65")
    # Passing the blot by the other order, without hitting, stays legal.
    legal_under_both(mover, BLOT_18, "65", "24/19/13")


def test_hitting_and_moving_on_to_an_empty_point_is_legal():
    legal_under_both({24: 1, 13: 2, 6: 12}, BLOT_18, "64", "24/18*/14")


def test_hitting_and_covering_with_a_different_checker_is_legal():
    mover = {24: 1, 22: 1, 13: 2, 6: 11}
    legal_under_both(mover, BLOT_18, "64", "24/18* 22/18")
    legal_under_both(mover, BLOT_18, "64", "22/18* 24/18")


def test_hitting_and_bearing_off_is_legal():
    # A blot on the mover's 4 (the opponent's 21): 6/4* then the hitter bears off with the 4.
    mover, opponent = {6: 1, 5: 2, 3: 2}, {21: 1, 12: 14}
    legal_under_both(mover, opponent, "24", "6/4*/off")
    # Going on to its own checkers on 3 with the 1 is not.
    assert "no hit-and-hide" in refusal(HIDE, mover, opponent, "21", "6/4*/3")


def test_a_covered_hitter_point_may_bear_both_off():
    # A blot on the mover's 2: 4/2* hits, 4/2 covers, and both bear off from 2.
    legal_under_both({6: 1, 4: 2, 3: 2}, {23: 1, 12: 14}, "22", "4/2* 4/2 2/off 2/off")


def test_a_checker_entering_from_the_bar_with_a_hit_is_a_hitter():
    # A blot on the mover's 22 (the opponent's 3); own checkers on 17.
    mover, opponent = {25: 1, 17: 2, 13: 3, 6: 9}, {3: 1, 10: 14}
    assert "no hit-and-hide" in refusal(HIDE, mover, opponent, "35", "bar/22*/17")
    assert result_of(STANDARD, mover, opponent, "35", "bar/22*/17") in results(
        STANDARD, mover, opponent, "35"
    )
    legal_under_both(mover, opponent, "35", "bar/22* 13/8")
    legal_under_both(mover, opponent, "35", "bar/20/17")  # entering without a hit


def test_a_hitter_may_hit_again_and_is_still_a_hitter():
    # Blots on the mover's 20 and 16; own checkers on 8.
    mover, opponent = {24: 1, 13: 2, 8: 2, 6: 10}, {5: 1, 9: 1, 2: 13}
    legal_under_both(mover, opponent, "44", "24/20*/16*/12 13/9")
    assert "no hit-and-hide" in refusal(HIDE, mover, opponent, "44", "24/20*/16*/12/8")
    assert "no hit-and-hide" in refusal(HIDE, mover, opponent, "44", "24/20*/16* 16/12/8")


def test_two_hitters_may_not_join_each_other():
    # Blots on the mover's 22 and 18: only the 24 checker can hit on 22, and the one that hits on
    # 18 (from 20, or the 24 checker passing 20) may not end beside the other.
    mover, opponent = {24: 1, 20: 1, 6: 13}, {3: 1, 7: 1, 2: 13}
    play = "24/22*/20/18 20/18*"
    joined = result_of(STANDARD, mover, opponent, "22", play)
    assert joined in results(STANDARD, mover, opponent, "22")
    assert joined not in results(HIDE, mover, opponent, "22")
    assert "no hit-and-hide" in refusal(HIDE, mover, opponent, "22", play)
    legal_under_both(mover, opponent, "22", "24/22*/20/18*/16")  # moving on past it is legal


def test_a_covered_hitter_point_may_send_either_checker_on():
    # 23/18* hits, 23/18 covers. From 18 one checker goes on to the empty 13 and then to its own
    # checkers on 8: legal, for that checker may be the one that covered.
    mover, opponent = {23: 2, 8: 2, 6: 11}, BLOT_18
    through = result_of(HIDE, mover, opponent, "55", "23/18* 23/18/13/8")
    assert through in results(HIDE, mover, opponent, "55")
    # Written with the hitter going on, it is the same play: checkers are indistinguishable.
    assert result_of(HIDE, mover, opponent, "55", "23/18*/13/8 23/18") == through
    # The other choice matters too: the hitter goes on to 13 and the coverer joins it there.
    joined = result_of(HIDE, mover, opponent, "55", "23/18*/13 23/18/13")
    assert joined in results(HIDE, mover, opponent, "55")
    # But no single checker may hit and then stop on 8, even after passing an empty point.
    assert "no hit-and-hide" in refusal(HIDE, {23: 1, 8: 2, 6: 12}, opponent, "55", "23/18*/13/8")


def test_the_hitter_left_on_a_point_after_the_coverer_went_on_is_still_the_hitter():
    # 23/18* hits, 23/18 covers, one goes on to the own checkers on 13: that is the coverer, so
    # the checker left on 18 is the hitter and may not follow it to 13.
    mover, opponent = {23: 2, 13: 2, 6: 11}, BLOT_18
    play = "23/18*/13 23/18/13"
    both = result_of(STANDARD, mover, opponent, "55", play)
    assert both in results(STANDARD, mover, opponent, "55")
    assert both not in results(HIDE, mover, opponent, "55")
    assert "no hit-and-hide" in refusal(HIDE, mover, opponent, "55", play)
    legal_under_both(mover, opponent, "55", "23/18* 23/18/13 6/1")


def test_the_rule_can_leave_a_die_unplayable():
    # 24/18* is the only six; the only five after it is the hitter's 18/13 onto its own checker.
    mover = {24: 1, 13: 1, 5: 13}
    opponent = {7: 1, 6: 2, 18: 2, 17: 2, 2: 8}
    start_hide, start_standard = (
        position(HIDE, mover, opponent),
        position(STANDARD, mover, opponent),
    )
    assert most_dice_playable(start_standard, "65") == 2
    assert most_dice_playable(start_hide, "65") == 1
    assert [str(legal.play) for legal in legal_plays(start_hide, "65")] == ["24/18*"]
    check_play(start_hide, "65", "24/18*")
    with pytest.raises(IllegalPlayError, match="2 of 2 dice can be played, this play uses 1"):
        check_play(start_standard, "65", "24/18*")


def test_a_game_record_is_checked_with_the_rule():
    start = position(HIDE, {24: 1, 13: 2, 6: 12}, BLOT_18)
    with pytest.raises(GameError, match="no hit-and-hide"):
        replay_game(HIDE, [Turn.of("65", "24/18*/13")], start=start)
    standard_start = position(STANDARD, {24: 1, 13: 2, 6: 12}, BLOT_18)
    replay_game(STANDARD, [Turn.of("65", "24/18*/13")], start=standard_start)


def test_switched_off_it_is_standard_backgammon():
    rng = random.Random(5)
    positions = [p for p, _ in itertools.islice(random_turns(STANDARD, rng), 60)]
    for start in positions[::6]:
        explicit = Position(
            ShortNardy(no_hit_and_hide=False), start.mover, start.opponent, start.turn
        )
        for roll in ROLLS:
            assert [str(p.play) for p in legal_plays(explicit, roll)] == [
                str(p.play) for p in legal_plays(start, roll)
            ]


# --- An independent brute force: every order of the dice, every choice of checker -------------


def brute_force(start: Position, dice: tuple[int, int]) -> set[tuple[tuple[int, ...], ...]]:
    """The resulting positions of the legal plays, found by moving named checkers.

    Written from RULES.md alone: each step either moves a checker that has hit this turn or one
    that has not, when the point holds both kinds; under the rule a checker that has hit may not
    stop on a point with its own checkers.
    """
    hide = start.variant.no_hit_and_hide
    all_dice = (dice[0],) * 4 if dice[0] == dice[1] else tuple(dice)
    ends: dict[tuple[tuple[int, ...], ...], int] = {}  # result -> the die it used, when one die
    seen = set()
    deepest = [0]

    def target_of(me, source, die):
        if me[25] and source != 25:
            return None
        target = source - die
        if target <= 0:
            if any(me[7:26]) or (target < 0 and any(me[source + 1 : 7])):
                return None
            return 0
        return target

    def walk(me, opp, hitters, left, first):
        state = (tuple(me), tuple(opp), tuple(hitters), left)
        if state in seen:
            return
        seen.add(state)
        depth = len(all_dice) - len(left)
        if depth > deepest[0]:
            deepest[0] = depth
            ends.clear()
        if depth == deepest[0]:
            ends.setdefault((tuple(me), tuple(opp)), first)
        for i, die in enumerate(left):
            for source in range(1, 26):
                if not me[source]:
                    continue
                target = target_of(me, source, die)
                if target is None or (target and opp[25 - target] > 1):
                    continue
                for is_hitter in (False, True):
                    if (hitters[source] if is_hitter else me[source] - hitters[source]) == 0:
                        continue
                    if is_hitter and hide and target and me[target]:
                        continue
                    me2, opp2, hitters2 = list(me), list(opp), list(hitters)
                    me2[source] -= 1
                    me2[target] += 1
                    hitter_now = is_hitter
                    if is_hitter:
                        hitters2[source] -= 1
                    if target and opp2[25 - target] == 1:
                        opp2[25 - target], opp2[25] = 0, opp2[25] + 1
                        hitter_now = True
                    if hitter_now and target:
                        hitters2[target] += 1
                    walk(me2, opp2, hitters2, left[:i] + left[i + 1 :], first or die)

    walk(list(start.mover), list(start.opponent), [0] * 26, all_dice, 0)
    if deepest[0] == 1 and dice[0] != dice[1] and max(dice) in ends.values():
        return {end for end, die in ends.items() if die == max(dice)}
    return set(ends)


@st.composite
def scattered_positions(draw):
    """Random positions with many blots and mixed stacks, so that hits and covers are common;
    half of them with the mover bearing off (or hit while bearing off)."""
    bearing_off = draw(st.booleans())
    mover = [0] * 26
    for _ in range(15):
        mover[draw(st.sampled_from([*range(7), 25] if bearing_off else range(26)))] += 1
    opponent = [0] * 26
    free = [p for p in range(1, 25) if not mover[25 - p]]
    for _ in range(15):
        opponent[draw(st.sampled_from([*free, 0, 25]))] += 1
    variant = draw(st.sampled_from([HIDE, STANDARD]))
    return Position(variant, tuple(mover), tuple(opponent)), draw(st.sampled_from(ROLLS))


@settings(max_examples=250, deadline=None)
@given(scattered_positions())
def test_legal_plays_agree_with_a_brute_force_over_checker_identities(case):
    start, dice = case
    found = {(legal.position.opponent, legal.position.mover) for legal in legal_plays(start, dice)}
    assert found == brute_force(start, dice)


# --- Consistency over random self-play under the rule ------------------------------------------


@st.composite
def self_played(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    stop = draw(st.integers(0, 100))
    visited = [p for p, _ in itertools.islice(random_turns(HIDE, rng), stop + 1)]
    return visited[-1], draw(st.sampled_from(ROLLS))


@settings(max_examples=150, deadline=None)
@given(self_played())
def test_self_play_under_the_rule_is_consistent(case):
    start, dice = case
    plays = legal_plays(start, dice)
    standard = Position(STANDARD, start.mover, start.opponent, start.turn)
    standard_results = {
        (p.position.mover, p.position.opponent) for p in legal_plays(standard, dice)
    }
    used = {len(legal.play.moves) for legal in plays}
    assert used == {most_dice_playable(start, dice)}
    for legal in plays:
        assert check_play(start, dice, legal.play).position == legal.position
        assert check_play(start, dice, str(legal.play)).position == legal.position
        # Fewer plays than standard backgammon, never new ones, unless the rule cost a die.
        if used == {most_dice_playable(standard, dice)}:
            assert (legal.position.mover, legal.position.opponent) in standard_results
    assert {(p.position.opponent, p.position.mover) for p in plays} == brute_force(start, dice)


@settings(max_examples=150, deadline=None)
@given(scattered_positions())
def test_check_play_accepts_a_backgammon_play_exactly_when_the_rule_allows_its_result(case):
    """Every standard play, as legal_plays writes it and as gnubg joins it, is accepted under the
    rule exactly when its result is among the rule's plays (a written checker's path may be made
    by several checkers: "21/16*/6" with 5-5 is also 21/16*, 11/6, 16/11)."""
    start, dice = case
    hide = Position(HIDE, start.mover, start.opponent, start.turn)
    standard = Position(STANDARD, start.mover, start.opponent, start.turn)
    allowed = {(p.position.opponent, p.position.mover) for p in legal_plays(hide, dice)}
    for legal in legal_plays(standard, dice):
        result = (legal.position.opponent, legal.position.mover)
        for written in (legal.play, str(legal.play)):
            try:
                after = check_play(hide, dice, written).position
            except IllegalPlayError:
                assert result not in allowed
            else:
                assert (after.opponent, after.mover) == result and result in allowed


def test_one_written_path_may_be_made_by_two_checkers():
    # 5-5: bar/20* and 21/16* hit; the checker on 11 goes on to 6 and the hitter from 16 takes
    # its place: the play reads "21/16*/6" as gnubg writes it, though no single checker went so.
    mover = {25: 1, 21: 1, 11: 1, 6: 1, 1: 11}
    opponent = {5: 1, 9: 1, 18: 2}
    play = "bar/20* 21/16*/6"
    after = result_of(HIDE, mover, opponent, "55", play)
    assert after == result_of(HIDE, mover, opponent, "55", "bar/20* 21/16*/11 11/6")
    assert after in results(HIDE, mover, opponent, "55")

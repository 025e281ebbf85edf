"""The FIBS rating formula, against the FIBS help text and published tables (pure).

Sources of the published numbers:

* FIBS ``help formula`` (quoted in ``tournaments.ratings.fibs``): the formula itself.
* Kevin Bastian, "The FIBS Rating System" (bkgm.com/articles/McCool/ratings.html): a 1-point
  match between experienced players of equal rating moves them "exactly 2.00 points".
* rec.games.backgammon, bkgm.com/rgb/rgb.cgi?view+45: the experience multiplier "starts at 5(!)
  and declines to 4 at an experience of 100; 3 at 200", and the table "BATTING AVERAGE FOR
  FAVORITE TO MAINTAIN HIS RATING" by rating difference and match length.
* GoldToken, "Ratings in Practice" (FIBS system, players with 400 or more experience): the
  change for a win and for a loss against an opponent rated +1000 ... −500, 1- to 9-point matches.
* MacFIBS help, "Ratings" (fibs.com/macfibs/help/glossary): Kp = max(1, 5 − (Ep + N)/100).
"""

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ratings import fibs
from tournaments.ratings.fibs import change, experience_factor, upset_probability, win_probability

EXPERIENCED = 400  # K is 1 from here on


# --- Published examples -------------------------------------------------------------------------


def test_equal_experienced_players_move_exactly_two_points_in_a_one_point_match():
    # Bastian: "the winner's rating will go up exactly 2.00 points, while the loser's rating
    # will go down exactly 2.00 points".
    assert change(1500, EXPERIENCED, 1500, EXPERIENCED, 1) == (2.0, -2.0)


def test_a_longer_match_scales_the_change_by_the_square_root_of_its_length():
    gain, loss = change(1500, EXPERIENCED, 1500, EXPERIENCED, 5)
    assert gain == pytest.approx(2 * math.sqrt(5)) and round(gain, 3) == 4.472
    assert loss == -gain


def test_the_experience_multiplier_starts_at_five_and_falls_by_one_per_hundred():
    # rgb view+45: "starts at 5(!) and declines to 4 at an experience of 100; 3 at 200, etc."
    assert [experience_factor(e, 1) for e in (0, 100, 200, 300, 400, 1000)] == [5, 4, 3, 2, 1, 1]
    assert experience_factor(150, 1) == 3.5


def test_a_newcomers_change_is_five_times_an_experienced_players():
    assert change(1500, 0, 1500, EXPERIENCED, 1) == (10.0, -2.0)
    assert change(1500, EXPERIENCED, 1500, 0, 1) == (2.0, -10.0)
    newcomer = change(1620, 0, 1480, 0, 7)
    veteran = change(1620, EXPERIENCED, 1480, EXPERIENCED, 7)
    assert newcomer == pytest.approx((5 * veteran[0], 5 * veteran[1]))


# GoldToken's table for players with 400 or more experience. Row: the opponent's rating minus
# the player's; then (win, loss) for 1-, 3-, 5-, 7- and 9-point matches, as printed.
GOLDTOKEN = """
    +1000  +3.0 -1.0  +6.1 -0.8  +8.3 -0.6  +10.1 -0.5  +11.6 -0.4
    +500   +2.6 -1.4  +5.1 -1.9  +7   -2    +8.7  -1.9  +10.2 -1.8
    +250   +2.3 -1.7  +4.3 -2.6  +5.9 -3.1  +7.2  -3.4  +8.4  -3.6
    0      +2.0 -2.0  +3.5 -3.5  +4.5 -4.5  +5.3  -5.3  +6.0  -6.0
    -250   +1.7 -2.3  +2.6 -4.3  +3.1 -5.9  +3.4  -7.2  +3.6  -8.4
    -500   +1.4 -2.6  +1.9 -5.1  +2   -7    +1.9  -8.7  +1.8  -10.2
"""


def printed_tolerance(printed: str) -> float:
    """Half a unit in the last printed place: "-1.9" → 0.05, "+7" → 0.5."""
    decimals = len(printed.partition(".")[2])
    return 0.5 * 10**-decimals


@pytest.mark.parametrize(
    "gap, length, win, loss",
    [
        (int(gap), length, win, loss)
        for gap, *cells in (line.split() for line in GOLDTOKEN.strip().splitlines())
        for length, win, loss in zip((1, 3, 5, 7, 9), cells[::2], cells[1::2], strict=True)
    ],
)
def test_the_published_table_of_changes_for_experienced_players(gap, length, win, loss):
    me, opponent = 1500, 1500 + gap
    gain, _ = change(me, EXPERIENCED, opponent, EXPERIENCED, length)
    _, lost = change(opponent, EXPERIENCED, me, EXPERIENCED, length)
    # A tolerance from the printed precision (plus a hair for the float), never a fixed one:
    # the two cells printed as whole numbers (+7, −2) are rounded to whole points.
    assert gain == pytest.approx(float(win), abs=printed_tolerance(win) + 1e-9)
    assert lost == pytest.approx(float(loss), abs=printed_tolerance(loss) + 1e-9)


# rgb view+45: the share of matches a favourite must win to keep its rating (equal K).
BATTING_AVERAGE = """
    0   .500 .500 .500 .500 .500 .500
    100 .529 .550 .564 .576 .585 .594
    200 .557 .598 .626 .648 .666 .682
    300 .585 .645 .684 .714 .738 .759
    400 .613 .689 .737 .772 .799 .822
    500 .640 .730 .784 .821 .849 .871
    600 .666 .768 .824 .861 .888 .908
    700 .691 .802 .858 .894 .918 .935
"""


@pytest.mark.parametrize(
    "gap, length, average",
    [
        (int(gap), length, float(average))
        for gap, *averages in (line.split() for line in BATTING_AVERAGE.strip().splitlines())
        for length, average in zip((1, 3, 5, 7, 9, 11), averages, strict=True)
    ],
)
def test_the_favourites_break_even_share_is_the_published_batting_average(gap, length, average):
    favourite, underdog = 1500 + gap, 1500
    share = win_probability(favourite, underdog, length)
    assert share == pytest.approx(average, abs=0.0005)
    # Winning that share keeps the rating: expected change zero.
    gain, _ = change(favourite, EXPERIENCED, underdog, EXPERIENCED, length)
    _, loss = change(underdog, EXPERIENCED, favourite, EXPERIENCED, length)
    assert share * gain + (1 - share) * loss == pytest.approx(0, abs=1e-12)


# --- The formula, case by case ------------------------------------------------------------------


def test_a_favourite_who_wins_gets_p_upset_and_an_underdog_who_wins_gets_the_rest():
    p_upset = 1 / (10 ** (100 * math.sqrt(3) / 2000) + 1)
    assert upset_probability(100, 3) == upset_probability(-100, 3) == p_upset
    favourite_wins = change(1600, EXPERIENCED, 1500, EXPERIENCED, 3)
    underdog_wins = change(1500, EXPERIENCED, 1600, EXPERIENCED, 3)
    assert favourite_wins == (4 * math.sqrt(3) * p_upset, -4 * math.sqrt(3) * p_upset)
    assert underdog_wins == (4 * math.sqrt(3) * (1 - p_upset), -4 * math.sqrt(3) * (1 - p_upset))
    assert underdog_wins[0] > 2 * math.sqrt(3) > favourite_wins[0]  # the upset pays more


def test_each_player_uses_its_own_experience():
    p = upset_probability(140, 7)
    gain, loss = change(1620, 150, 1480, 30, 7)
    assert gain == pytest.approx(4 * 3.5 * math.sqrt(7) * p, rel=1e-15)
    assert loss == pytest.approx(-4 * 4.7 * math.sqrt(7) * p, rel=1e-15)


def test_macfibs_counts_the_match_being_rated_in_the_experience():
    assert experience_factor(0, 1, "macfibs") == pytest.approx(4.99)
    assert experience_factor(0, 7, "macfibs") == pytest.approx(4.93)
    assert experience_factor(393, 7, "macfibs") == 1.0
    assert experience_factor(393, 7, "fibs") == pytest.approx(1.07)
    gain, loss = change(1500, 0, 1500, EXPERIENCED, 1, k_rule="macfibs")
    assert (gain, loss) == (pytest.approx(9.98), -2.0)


def test_the_rule_defaults_to_the_servers():
    assert change(1500, 50, 1500, 50, 5) == change(1500, 50, 1500, 50, 5, k_rule="fibs")


def test_an_absurd_rating_gap_neither_overflows_nor_pays_the_favourite():
    assert change(1e7, EXPERIENCED, 0, EXPERIENCED, 25) == (0.0, -0.0)
    assert change(0, EXPERIENCED, 1e7, EXPERIENCED, 25) == (20.0, -20.0)
    assert win_probability(1e7, 0, 1) == 1.0


def test_full_precision_is_kept():
    gain, _ = change(1723.4, EXPERIENCED, 1688.9, EXPERIENCED, 11)
    p_upset = 1 / (10 ** ((1723.4 - 1688.9) * math.sqrt(11) / 2000) + 1)
    assert gain == 4 * math.sqrt(11) * p_upset  # the same operations: the same float
    assert round(gain, 1) != gain != round(gain, 6)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"match_length": 0}, "at least 1 point, got 0"),
        ({"match_length": -3}, "at least 1 point, got -3"),
        ({"match_length": 2.5}, "whole number of points, got 2.5"),
        ({"match_length": True}, "whole number of points, got True"),
        ({"match_length": math.nan}, "whole number of points"),
        ({"winner_experience": -1}, "experience must be a finite number of at least 0, got -1"),
        ({"loser_experience": math.nan}, "experience must be a finite number of at least 0"),
        ({"k_rule": "elo"}, "unknown k_rule 'elo': expected one of fibs, macfibs"),
        ({"winner_rating": math.inf}, "winner rating must be a finite number, got inf"),
        ({"loser_rating": math.nan}, "loser rating must be a finite number"),
    ],
)
def test_it_rejects_bad_input_with_a_clear_message(kwargs, message):
    arguments = {
        "winner_rating": 1500.0,
        "winner_experience": 10,
        "loser_rating": 1500.0,
        "loser_experience": 10,
        "match_length": 5,
    } | kwargs
    with pytest.raises(ValueError, match=message):
        change(**arguments)


def test_a_whole_valued_float_is_the_same_match_length():
    assert change(1550, 20, 1500, 20, 5.0) == change(1550, 20, 1500, 20, 5)


def test_the_docstring_examples_hold():
    assert doctest.testmod(fibs).failed == 0


# --- Properties -----------------------------------------------------------------------------------

ratings = st.floats(min_value=800, max_value=2400, allow_nan=False)
experiences = st.integers(min_value=0, max_value=3000)
lengths = st.integers(min_value=1, max_value=25)
rules = st.sampled_from(fibs.K_RULES)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, experiences, lengths, rules)
def test_a_match_between_players_of_equal_k_is_zero_sum(winner, loser, experience, length, rule):
    gain, loss = change(winner, experience, loser, experience, length, rule)
    assert gain + loss == 0
    # Experienced players have equal K whatever their experience.
    gain, loss = change(winner, 400 + experience, loser, 400, length, rule)
    assert gain + loss == 0


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, experiences, experiences, lengths, rules)
def test_the_gain_is_positive_and_at_most_the_stake(winner, loser, exp_w, exp_l, length, rule):
    gain, loss = change(winner, exp_w, loser, exp_l, length, rule)
    stake = 4 * math.sqrt(length)
    assert 0 < gain < stake * experience_factor(exp_w, length, rule)
    assert -stake * experience_factor(exp_l, length, rule) < loss < 0
    # The loser's change is the winner's scaled by the ratio of their K.
    k_w, k_l = (experience_factor(e, length, rule) for e in (exp_w, exp_l))
    assert -loss == pytest.approx(gain * k_l / k_w)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, experiences, lengths)
def test_winning_one_way_and_the_other_adds_up_to_the_stake(a, b, experience, length):
    """P for a win by a plus P for a win by b is P_upset + (1 − P_upset) = 1."""
    k = experience_factor(experience, length)
    a_wins, _ = change(a, experience, b, experience, length)
    b_wins, _ = change(b, experience, a, experience, length)
    assert a_wins + b_wins == pytest.approx(4 * k * math.sqrt(length))
    assert win_probability(a, b, length) + win_probability(b, a, length) == pytest.approx(1)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, st.floats(min_value=0, max_value=500), experiences, lengths)
def test_beating_a_stronger_opponent_pays_more(winner, loser, extra, experience, length):
    weaker = change(winner, experience, loser, experience, length)
    stronger = change(winner, experience, loser + extra, experience, length)
    assert stronger[0] >= weaker[0]
    assert stronger[1] <= weaker[1]
    assert win_probability(winner + extra, loser, length) >= win_probability(winner, loser, length)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, experiences, st.integers(min_value=0, max_value=500), lengths, rules)
def test_more_experience_never_moves_a_rating_more(winner, loser, experience, extra, length, rule):
    less = change(winner, experience, loser, experience, length, rule)
    more = change(winner, experience + extra, loser, experience + extra, length, rule)
    assert more[0] <= less[0] and more[1] >= less[1]


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, st.floats(min_value=-500, max_value=500), experiences, lengths)
def test_only_the_rating_difference_counts(winner, loser, shift, experience, length):
    moved = change(winner + shift, experience, loser + shift, experience, length)
    assert moved == pytest.approx(change(winner, experience, loser, experience, length))


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, lengths)
def test_a_player_at_its_true_strength_expects_no_change(a, b, length):
    p = win_probability(a, b, length)
    gain, _ = change(a, EXPERIENCED, b, EXPERIENCED, length)
    _, loss = change(b, EXPERIENCED, a, EXPERIENCED, length)
    assert p * gain + (1 - p) * loss == pytest.approx(0, abs=1e-9)

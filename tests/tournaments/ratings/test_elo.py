"""Elo: expected score and change, against the textbook examples (pure).

The tournament example is Wikipedia's ("Elo rating system"): a player rated 1613 loses to 1609,
draws with 1477, beats 1388 and 1586 and loses to 1720, scoring 2.5. Expected scores, printed to
two places: 0.51 + 0.69 + 0.79 + 0.54 + 0.35 = 2.88; with K = 32 the new rating is
1613 + 32 × (2.5 − 2.88) ≈ 1601. Unrounded, the expected total is 2.867 and the new rating
1601.27: 1601 either way. (One revision of the article printed 0.76 ... = 2.99 and 1597, which the
formula does not give; stats.stackexchange.com/q/287256 asks why.)
"""

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ratings import elo
from tournaments.ratings.elo import change, expected


def test_a_player_400_points_stronger_is_expected_to_score_ten_elevenths():
    assert expected(1400, 1000) == pytest.approx(10 / 11)
    assert round(expected(1400, 1000), 3) == 0.909
    assert expected(1000, 1400) == pytest.approx(1 / 11)


def test_equal_players_are_expected_to_score_half():
    assert expected(1500, 1500) == 0.5
    assert change(1500, 1500, 1, 32) == 16.0
    assert change(1500, 1500, 0, 32) == -16.0
    assert change(1500, 1500, 0.5, 32) == 0.0


def test_the_five_game_tournament_example():
    player = 1613
    games = [(1609, 0), (1477, 0.5), (1388, 1), (1586, 1), (1720, 0)]

    expectations = [expected(player, opponent) for opponent, _ in games]
    assert [round(e, 2) for e in expectations] == [0.51, 0.69, 0.79, 0.54, 0.35]
    assert round(sum(expectations), 3) == 2.867
    assert round(sum(round(e, 2) for e in expectations), 2) == 2.88

    new_rating = player + sum(change(player, opponent, score, 32) for opponent, score in games)
    assert round(new_rating) == 1601 == round(1613 + 32 * (2.5 - 2.88))
    assert round(new_rating, 2) == 1601.27
    assert new_rating == pytest.approx(1613 + 32 * (2.5 - sum(expectations)))


def test_the_change_is_k_times_the_surprise():
    assert change(1400, 1600, 1, 32) == pytest.approx(32 * (1 - 1 / (1 + 10**0.5)))
    assert change(2400, 2000, 1, 10) == pytest.approx(10 / 11)


def test_an_absurd_rating_gap_does_not_overflow():
    assert expected(0, 1e6) == 0.0
    assert expected(1e6, 0) == 1.0
    assert change(0, 1e6, 1, 32) == 32.0


@pytest.mark.parametrize(
    "arguments, message",
    [
        ((1500, 1500, -0.1, 32), "score must be between 0 and 1, got -0.1"),
        ((1500, 1500, 1.5, 32), "score must be between 0 and 1, got 1.5"),
        ((1500, 1500, math.nan, 32), "score must be between 0 and 1, got nan"),
        ((1500, 1500, 1, 0), "k must be a positive number, got 0"),
        ((1500, 1500, 1, -16), "k must be a positive number, got -16"),
        ((1500, 1500, 1, math.inf), "k must be a positive number, got inf"),
        ((math.nan, 1500, 1, 32), "rating must be a finite number, got nan"),
        ((1500, math.inf, 1, 32), "opponent rating must be a finite number, got inf"),
    ],
)
def test_it_rejects_bad_input_with_a_clear_message(arguments, message):
    with pytest.raises(ValueError, match=message):
        change(*arguments)


def test_the_docstring_examples_hold():
    assert doctest.testmod(elo).failed == 0


# --- Properties -----------------------------------------------------------------------------------

ratings = st.floats(min_value=0, max_value=3500, allow_nan=False)
scores = st.floats(min_value=0, max_value=1)
ks = st.floats(min_value=1, max_value=64)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings)
def test_the_two_expectations_add_up_to_one(a, b):
    assert expected(a, b) + expected(b, a) == pytest.approx(1)
    assert 0 <= expected(a, b) <= 1


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, scores, ks)
def test_a_game_is_zero_sum_when_both_use_the_same_k(a, b, score, k):
    assert change(a, b, score, k) + change(b, a, 1 - score, k) == pytest.approx(0, abs=1e-9)
    assert -k <= change(a, b, score, k) <= k


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, st.floats(min_value=0, max_value=500), scores, ks)
def test_a_stronger_player_expects_more_and_gains_less(a, b, extra, score, k):
    assert expected(a + extra, b) >= expected(a, b)
    assert change(a + extra, b, score, k) <= change(a, b, score, k)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, scores, scores, ks)
def test_a_better_score_never_gains_less(a, b, first, second, k):
    low, high = sorted((first, second))
    assert change(a, b, low, k) <= change(a, b, high, k)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, st.floats(min_value=-1000, max_value=1000), scores, ks)
def test_only_the_rating_difference_counts(a, b, shift, score, k):
    assert change(a + shift, b + shift, score, k) == pytest.approx(change(a, b, score, k), abs=1e-9)

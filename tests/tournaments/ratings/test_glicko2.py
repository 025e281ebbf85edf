"""Glicko-2 against Glickman's "Example of the Glicko-2 system" (2013), and its properties (pure).

The paper's example: a player rated 1500, RD 200, volatility 0.06 (τ = 0.5) beats a 1400 (RD 30)
and loses to a 1550 (RD 100) and a 1700 (RD 300). Printed results: μ' = −0.2069, φ' = 0.8722 on the
Glicko-2 scale; r' = 1464.06, RD' = 151.52, σ' = 0.05999.

The paper rounds each step to about four figures before the next; carried through exactly, the
same steps give r' = 1464.0507, RD' = 151.5165, σ' = 0.0599960. So the published numbers are
checked to one unit in their last printed place, and the exact ones are pinned separately.
"""

import doctest
import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ratings import glicko2
from tournaments.ratings.glicko2 import SCALE, rate

PAPER_RESULTS = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]


def test_the_papers_example_to_the_precision_published():
    rating, rd, volatility = rate(1500, 200, 0.06, PAPER_RESULTS, tau=0.5)
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert rd == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=0.00001)
    # Step 8 undone: the Glicko-2 scale values, printed to four places.
    assert round((rating - 1500) / SCALE, 4) == -0.2069
    assert round(rd / SCALE, 4) == 0.8722


def test_the_papers_last_place_comes_from_its_rounded_steps():
    # Its Step 8 applied to its own rounded μ' and φ' gives what it prints ...
    assert round(SCALE * -0.2069 + 1500, 2) == 1464.06
    assert round(SCALE * 0.8722, 2) == 151.52
    # ... while the unrounded computation lands a hair lower.
    rating, rd, volatility = rate(1500, 200, 0.06, PAPER_RESULTS)
    assert round(rating, 4) == 1464.0507
    assert round(rd, 4) == 151.5165
    assert round(volatility, 7) == 0.0599960


def test_tau_defaults_to_the_papers_value():
    assert rate(1500, 200, 0.06, PAPER_RESULTS) == rate(1500, 200, 0.06, PAPER_RESULTS, tau=0.5)


def test_a_period_without_games_only_widens_the_rd():
    rating, rd, volatility = rate(1500, 200, 0.06, [])
    assert (rating, volatility) == (1500.0, 0.06)
    assert rd == pytest.approx(math.sqrt(200**2 + (0.06 * SCALE) ** 2))  # φ' = √(φ² + σ²)
    assert round(rd, 2) == 200.27
    assert rate(1850, 50, 0.06, [])[1] == pytest.approx(math.hypot(50, 0.06 * SCALE))


def test_a_draw_between_equals_keeps_the_rating_and_narrows_the_rd():
    rating, rd, _ = rate(1500, 200, 0.06, [(1500, 200, 0.5)])
    assert rating == 1500.0
    assert rd < 200


def test_a_surprising_run_raises_the_volatility_and_an_expected_one_lowers_it():
    # Δ² > φ² + v here: Step 5's bracket starts at B = ln(Δ² − φ² − v).
    rating, rd, volatility = rate(1500, 50, 0.06, [(1900, 30, 1)] * 10)
    assert volatility > 0.06 and rating > 1600 and rd < 50
    # As expected (the paper's example takes the other branch, the search for k).
    rating, rd, volatility = rate(1500, 50, 0.06, [(1500, 30, 0.5)] * 10)
    assert volatility < 0.06 and rating == 1500.0 and rd < 50


@pytest.mark.parametrize(
    "arguments, message",
    [
        ((math.nan, 200, 0.06, []), "rating must be a finite number, got nan"),
        ((1500, 0, 0.06, []), "rd must be a positive number, got 0"),
        ((1500, -1, 0.06, []), "rd must be a positive number, got -1"),
        ((1500, 200, 0, []), "volatility must be a positive number, got 0"),
        ((1500, 200, 0.06, [], 0), "tau must be a positive number, got 0"),
        ((1500, 200, 0.06, [(1400, 30, 1.5)]), r"results\[0\] score must be between 0 and 1"),
        ((1500, 200, 0.06, [(1400, 30, 1), (1400, -5, 0)]), r"results\[1\] opponent rd"),
        (
            (1500, 200, 0.06, [(math.inf, 30, 1)]),
            r"results\[0\] opponent rating must be a finite number",
        ),
    ],
)
def test_it_rejects_bad_input_with_a_clear_message(arguments, message):
    with pytest.raises(ValueError, match=message):
        rate(*arguments)


def test_results_that_carry_no_information_are_refused_not_divided_by_zero():
    with pytest.raises(ValueError, match="carry no information"):
        rate(1500, 200, 0.06, [(1e6, 30, 0)])


def test_an_opponent_with_rd_zero_is_a_fully_known_opponent():
    assert rate(1500, 200, 0.06, [(1400, 0, 1)])[0] > rate(1500, 200, 0.06, [(1400, 30, 1)])[0]


def test_the_docstring_examples_hold():
    assert doctest.testmod(glicko2).failed == 0


# --- Properties -----------------------------------------------------------------------------------

ratings = st.floats(min_value=800, max_value=2200, allow_nan=False)
rds = st.floats(min_value=30, max_value=350)
volatilities = st.floats(min_value=0.03, max_value=0.1)
scores = st.sampled_from([0.0, 0.5, 1.0])
results_lists = st.lists(st.tuples(ratings, rds, scores), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(ratings, rds, volatilities, results_lists)
def test_mirroring_every_rating_and_score_around_1500_mirrors_the_result(r, rd, vol, results):
    rating, new_rd, new_vol = rate(r, rd, vol, results)
    mirrored = [(3000 - rj, rdj, 1 - sj) for rj, rdj, sj in results]
    m_rating, m_rd, m_vol = rate(3000 - r, rd, vol, mirrored)
    assert m_rating == pytest.approx(3000 - rating, abs=1e-6)
    assert (m_rd, m_vol) == (pytest.approx(new_rd), pytest.approx(new_vol))


@settings(max_examples=150, deadline=None)
@given(ratings, rds, volatilities, results_lists)
def test_wins_never_lower_a_rating_and_losses_never_raise_it(r, rd, vol, results):
    wins = [(rj, rdj, 1.0) for rj, rdj, _ in results]
    losses = [(rj, rdj, 0.0) for rj, rdj, _ in results]
    assert rate(r, rd, vol, wins)[0] >= r
    assert rate(r, rd, vol, losses)[0] <= r


@settings(max_examples=150, deadline=None)
@given(ratings, rds, volatilities, results_lists, st.data())
def test_a_better_score_never_gives_a_lower_rating(r, rd, vol, results, data):
    index = data.draw(st.integers(min_value=0, max_value=len(results) - 1))
    worse = [
        (rj, rdj, 0.0) if i == index else (rj, rdj, sj) for i, (rj, rdj, sj) in enumerate(results)
    ]
    better = [
        (rj, rdj, 1.0) if i == index else (rj, rdj, sj) for i, (rj, rdj, sj) in enumerate(results)
    ]
    assert rate(r, rd, vol, better)[0] >= rate(r, rd, vol, worse)[0]


@settings(max_examples=150, deadline=None)
@given(ratings, rds, volatilities, results_lists)
def test_games_narrow_the_rd_below_the_widened_one(r, rd, vol, results):
    rating, new_rd, new_vol = rate(r, rd, vol, results)
    assert math.isfinite(rating) and new_vol > 0
    assert new_rd < math.hypot(rd, new_vol * SCALE)  # φ' < φ* = √(φ² + σ'²)


@settings(max_examples=100, deadline=None)
@given(
    ratings, rds, volatilities, st.lists(st.tuples(ratings, rds, scores), min_size=2, max_size=4)
)
def test_the_order_of_the_games_in_a_period_does_not_matter(r, rd, vol, results):
    first = rate(r, rd, vol, results)
    for order in itertools.permutations(results):
        assert rate(r, rd, vol, list(order)) == pytest.approx(first, rel=1e-9)

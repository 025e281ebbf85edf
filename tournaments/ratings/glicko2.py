"""Glicko-2: a rating, its deviation (RD) and a volatility, updated once per rating period.

Pure: no Django. Written step by step after Mark E. Glickman, "Example of the Glicko-2 system"
(Boston University, 30 November 2013, glicko.net/glicko/glicko2.pdf); the comments carry the
paper's step numbers and symbols. The games of one rating period count as played at once, all
against the opponents' pre-period ratings; the caller computes every player's new values from the
old ones before writing any of them.

Ratings and RDs are on the familiar Glicko scale (1500-centred); the maths runs on the Glicko-2
scale (μ, φ), 173.7178 times smaller, and converts back at the end. Values are full-precision
floats: the paper rounds every intermediate step to about four figures, so its printed results
can differ from exact ones in the last place (its example prints r' = 1464.06; carried through
exactly, the same inputs give 1464.0507).

The volatility (Step 5) is found with the Illinois algorithm, as the paper's 2013 version does,
stopping when the bracket is narrower than ε = 0.000001.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The paper's suggested starting values for an unrated player.
INITIAL_RATING = 1500.0
INITIAL_RD = 350.0
INITIAL_VOLATILITY = 0.06
#: The system constant τ: how fast volatility may change (the paper suggests 0.3 to 1.2).
DEFAULT_TAU = 0.5
#: Glicko scale ÷ Glicko-2 scale (the paper's constant, ≈ 400 / ln 10).
SCALE = 173.7178
#: Convergence tolerance of the volatility iteration (Step 5).
EPSILON = 0.000001
# The Illinois iteration converges in a handful of steps; the cap only stops a worker from
# spinning forever should floating point ever keep the bracket from closing.
_MAX_ITERATIONS = 10_000

#: One game: (opponent's rating, opponent's RD, score: 1 win, ½ draw, 0 loss).
Result = tuple[float, float, float]


def rate(
    rating: float,
    rd: float,
    volatility: float,
    results: Sequence[Result],
    tau: float = DEFAULT_TAU,
) -> tuple[float, float, float]:
    """The player's (rating, RD, volatility) at the end of a rating period with these results.

    With no results the player only becomes less certain: the RD widens, nothing else moves.

    >>> r, rd, vol = rate(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(r, 2), round(rd, 2), round(vol, 6)
    (1464.05, 151.52, 0.059996)
    """
    _check_finite("rating", rating)
    _check_positive("rd", rd)
    _check_positive("volatility", volatility)
    _check_positive("tau", tau)
    for index, (opponent_rating, opponent_rd, score) in enumerate(results):
        _check_finite(f"results[{index}] opponent rating", opponent_rating)
        if not (math.isfinite(opponent_rd) and opponent_rd >= 0):
            raise ValueError(
                f"results[{index}] opponent rd must be a finite number of at least 0,"
                f" got {opponent_rd!r}"
            )
        if not (0 <= score <= 1):
            raise ValueError(f"results[{index}] score must be between 0 and 1, got {score!r}")

    # Step 1 (the caller's part): the ratings, RDs and volatilities at the start of the period,
    # and the system constant τ.
    # Step 2: convert to the Glicko-2 scale. μ = (r − 1500) / 173.7178, φ = RD / 173.7178.
    mu = (rating - INITIAL_RATING) / SCALE
    phi = rd / SCALE
    sigma = volatility

    if not results:
        # A player who did not compete: only Step 6 applies. φ' = φ* = √(φ² + σ²); the rating
        # and the volatility stay as they were.
        return float(rating), SCALE * math.sqrt(phi**2 + sigma**2), float(volatility)

    # Per opponent j: μ_j, φ_j, g(φ_j) and E(μ, μ_j, φ_j), computed once for Steps 3, 4 and 7.
    games = []
    for opponent_rating, opponent_rd, score in results:
        mu_j = (opponent_rating - INITIAL_RATING) / SCALE
        g_j = _g(opponent_rd / SCALE)
        games.append((g_j, _expected(mu, mu_j, g_j), score))

    # Step 3: the estimated variance of the rating from the game outcomes alone:
    # v = [Σ g(φ_j)² · E · (1 − E)]⁻¹.
    information = sum(g_j**2 * e_j * (1 - e_j) for g_j, e_j, _ in games)
    if information == 0:
        raise ValueError(
            "these results carry no information: every opponent is so far away in rating that"
            " the outcome was certain (to floating-point precision)"
        )
    v = 1 / information

    # Step 4: Δ, the estimated improvement: the pre-period rating against the performance
    # rating from the outcomes alone. Δ = v · Σ g(φ_j) · (s_j − E).
    score_sum = sum(g_j * (s_j - e_j) for g_j, e_j, s_j in games)
    delta = v * score_sum

    # Step 5: the new volatility σ'.
    sigma_new = _new_volatility(delta, phi, v, sigma, tau)

    # Step 6: the pre-period RD widened by the new volatility: φ* = √(φ² + σ'²).
    phi_star = math.sqrt(phi**2 + sigma_new**2)

    # Step 7: the new RD and rating. φ' = 1 / √(1/φ*² + 1/v), μ' = μ + φ'² · Σ g(φ_j)(s_j − E).
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * score_sum

    # Step 8: back to the Glicko scale. r' = 173.7178 μ' + 1500, RD' = 173.7178 φ'.
    return SCALE * mu_new + INITIAL_RATING, SCALE * phi_new, sigma_new


def _g(phi: float) -> float:
    """g(φ) = 1 / √(1 + 3φ²/π²): an uncertain opponent's result counts for less."""
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    """E(μ, μ_j, φ_j) = 1 / (1 + exp(−g(φ_j)(μ − μ_j))): the expected score against j."""
    try:
        return 1 / (1 + math.exp(-g_j * (mu - mu_j)))
    except OverflowError:  # j is beyond reach: no score expected at all
        return 0.0


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: σ' = e^(A/2), A the root of f found by the Illinois (regula falsi) algorithm."""
    # 5.1: a = ln(σ²) and
    #      f(x) = e^x (Δ² − φ² − v − e^x) / (2 (φ² + v + e^x)²) − (x − a) / τ².
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    # 5.2: the initial bracket [A, B]. A = a. If Δ² > φ² + v, B = ln(Δ² − φ² − v); otherwise
    # the first k = 1, 2, ... with f(a − kτ) ≥ 0 gives B = a − kτ.
    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau

    # 5.3: f_A = f(A), f_B = f(B).
    f_a, f_b = f(big_a), f(big_b)

    # 5.4: while |B − A| > ε:
    #   (a) C = A + (A − B) f_A / (f_B − f_A), f_C = f(C);
    #   (b) if f_C · f_B ≤ 0: A ← B, f_A ← f_B; otherwise f_A ← f_A / 2 (the Illinois step);
    #   (c) B ← C, f_B ← f_C.
    # "≤" rather than "<": should C land exactly on the root (f_C = 0), "<" would halve f_A
    # forever without moving A, and the bracket would never close.
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    else:
        raise ArithmeticError("the Glicko-2 volatility iteration did not converge")

    # 5.5: σ' = e^(A/2).
    return math.exp(big_a / 2)


def _check_finite(name: str, value: float) -> None:
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")


def _check_positive(name: str, value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")

"""The Elo rating update: expected score from the rating gap, change = K × (score − expected).

Pure: no Django. The logistic form with the 400-point scale, as in Elo's system as commonly
published (e.g. Wikipedia, "Elo rating system"):

    E_A = 1 / (1 + 10^((R_B − R_A) / 400))        R'_A = R_A + K · (S_A − E_A)

A player 400 points above its opponent is expected to score ten times as much as it
(E = 10/11 ≈ 0.909). A score is 1 for a win, ½ for a draw, 0 for a loss; any value in between
(a share of points) is accepted. Over several games, sum the changes, each against the rating
the player had when the period began (as in the tournament example the tests use).
"""

from __future__ import annotations

import math


def expected(rating: float, opponent_rating: float) -> float:
    """The score the player rated ``rating`` is expected to make against ``opponent_rating``.

    >>> round(expected(1400, 1000), 4)
    0.9091
    """
    _check_rating("rating", rating)
    _check_rating("opponent rating", opponent_rating)
    try:
        return 1 / (1 + 10 ** ((opponent_rating - rating) / 400))
    except OverflowError:  # a gap beyond any real rating list: no score is expected at all
        return 0.0


def change(rating: float, opponent_rating: float, score: float, k: float) -> float:
    """How much the player's rating moves after scoring ``score`` (0 to 1) against the opponent.

    >>> change(1500, 1500, 1, 32)
    16.0
    """
    if not (0 <= score <= 1):
        raise ValueError(f"score must be between 0 and 1, got {score!r}")
    if not (math.isfinite(k) and k > 0):
        raise ValueError(f"k must be a positive number, got {k!r}")
    return k * (score - expected(rating, opponent_rating))


def _check_rating(name: str, value: float) -> None:
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")

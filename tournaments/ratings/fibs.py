"""The FIBS rating formula: what a rated match does to both players' ratings. Pure: no Django.

The text relied on is the FIBS server's own ``help formula`` page, as quoted on
rec.games.backgammon (bkgm.com/rgb/rgb.cgi?view+1093) and in the Backgammon FAQ, section 14
"FIBS ratings"::

    Let D = abs(r1-r2)      (rating difference)
    Let P_upset = 1/(10^(D*sqrt(n)/2000)+1) (probability that underdog wins)
    Let P=1-P_upset if the underdog wins and P=P_upset if the favorite wins.

    For the winner:
      Let K = max ( 1 , -experience/100+5 )
      The rating change is: 4*K*sqrt(n)*P
    For the loser:
      Let K = max ( 1 , -experience/100+5 )
      The rating change is: -4*K*sqrt(n)*P

    The 'experience' of a player is the sum of the lengths of all matches
    a player has finished. Every player starts with a rating of 1500 and
    an experience of 0.

So P is the probability that the *winner* would have lost: the favourite who wins gets little
(P = P_upset), the underdog who wins gets much (P = 1 − P_upset), and the loser gives up the same
P scaled by its own K. Each player's K comes from its own experience only; with equal K the match
is zero-sum. The MacFIBS help ("Ratings", fibs.com/macfibs/help/glossary) states the same P and
the client's variant of K, which counts the match being rated::

    Kp = max(1, 5 - ((Ep + N) / 100))
    Rp = 4 * Kp * sqrt(N) * P
    The winning player adds his Rp to his ratings, the losing player subtracts his Rp [...]
    only your own experience points affect your ratings change in a match

A much-quoted plain-English gloss of the help page (the same rec.games.backgammon post) swaps
the two cases of P; the help text, the MacFIBS page and published tables of changes (an upset
winner gains more than a favourite) all agree with the reading above, so that is what we use.

``k_rule`` picks K: ``"fibs"`` (the server: experience before the match) or ``"macfibs"``
(experience plus this match's length). Experience is the caller's to keep: the sum of the lengths
of the player's finished rated matches, not counting this one. Results are full-precision floats;
rounding for display is the caller's business.
"""

from __future__ import annotations

import math

#: The experience rules ``experience_factor`` knows.
K_RULES = ("fibs", "macfibs")


def upset_probability(rating_difference: float, match_length: int) -> float:
    """P_upset: the chance that the lower-rated player wins a match of this length.

    Only the size of the difference counts; equal ratings give ½.

    >>> upset_probability(0, 7)
    0.5
    """
    _check_rating("rating difference", rating_difference)
    _check_length(match_length)
    exponent = abs(rating_difference) * math.sqrt(match_length) / 2000
    try:
        return 1 / (10**exponent + 1)
    except OverflowError:  # a difference beyond any real rating list: the underdog never wins
        return 0.0


def win_probability(rating: float, opponent_rating: float, match_length: int) -> float:
    """The chance that the player rated ``rating`` wins the match, as the formula assumes it.

    It is also the share of such matches a player must win to keep its rating, when both K are
    equal (the expected change is then zero).

    >>> round(win_probability(1600, 1500, 1), 3)
    0.529
    """
    _check_rating("rating", rating)
    _check_rating("opponent rating", opponent_rating)
    p_upset = upset_probability(rating - opponent_rating, match_length)
    return p_upset if rating < opponent_rating else 1 - p_upset


def experience_factor(experience: float, match_length: int, k_rule: str = "fibs") -> float:
    """K: 5 for a newcomer, falling by 1 per 100 points of experience to 1 from 400 on.

    New players move fast towards their level; experienced ones move by the base amount.

    >>> experience_factor(0, 1), experience_factor(150, 1), experience_factor(400, 1)
    (5.0, 3.5, 1.0)
    >>> experience_factor(0, 1, "macfibs")
    4.99
    """
    _check_length(match_length)
    if not math.isfinite(experience) or experience < 0:
        raise ValueError(f"experience must be a finite number of at least 0, got {experience!r}")
    if k_rule == "fibs":
        counted = experience
    elif k_rule == "macfibs":
        counted = experience + match_length
    else:
        raise ValueError(f"unknown k_rule {k_rule!r}: expected one of {', '.join(K_RULES)}")
    return max(1.0, 5 - counted / 100)


def change(
    winner_rating: float,
    winner_experience: float,
    loser_rating: float,
    loser_experience: float,
    match_length: int,
    k_rule: str = "fibs",
) -> tuple[float, float]:
    """The winner's gain and the loser's change (negative) after a rated match.

    Both use the same P, the chance that the winner would have lost; each its own K.

    >>> change(1500, 400, 1500, 400, 1)
    (2.0, -2.0)
    >>> change(1500, 0, 1500, 400, 1)  # a newcomer's K is 5: five times the change
    (10.0, -2.0)
    """
    _check_rating("winner rating", winner_rating)
    _check_rating("loser rating", loser_rating)
    k_winner = experience_factor(winner_experience, match_length, k_rule)
    k_loser = experience_factor(loser_experience, match_length, k_rule)
    p_upset = upset_probability(winner_rating - loser_rating, match_length)
    # P is taken straight from P_upset in both cases (never 1 − (1 − P_upset)), so a favourite's
    # tiny gain keeps its precision.
    p = p_upset if winner_rating >= loser_rating else 1 - p_upset
    root = math.sqrt(match_length)
    return 4 * k_winner * root * p, -(4 * k_loser * root * p)


def _check_rating(name: str, value: float) -> None:
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")


def _check_length(match_length: int) -> None:
    # A whole-valued float (5.0) is accepted: it is the same match length.
    if (
        isinstance(match_length, bool)
        or not isinstance(match_length, int | float)
        or not float(match_length).is_integer()
    ):
        raise ValueError(f"match length must be a whole number of points, got {match_length!r}")
    if match_length < 1:
        raise ValueError(f"match length must be at least 1 point, got {match_length!r}")

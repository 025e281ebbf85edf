"""The tournament points a finished match is worth, for the standings. Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from games.rules.errors import RulesError, Template
from tournaments.scoring.match import MatchScoreResult
from tournaments.scoring.rules import Number, as_fraction

# Why tournament points are refused (games.rules.errors).
POINTS_ORDER = Template(
    "points-order", "match points must run win ≥ draw ≥ loss with a win worth more than a loss"
)
UNFINISHED_MATCH = Template(
    "unfinished-match", "an unfinished match is worth no tournament points yet"
)


@dataclass(frozen=True, slots=True, init=False)
class MatchPoints:
    """Tournament points for a match won, drawn or lost, and for a bye (win ≥ draw ≥ loss).

    A match is drawn only when played as a fixed number of games and the score is level.

    >>> MatchPoints(win=3, draw=1)
    MatchPoints(win=Fraction(3, 1), draw=Fraction(1, 1), loss=Fraction(0, 1), bye=Fraction(1, 1))
    """

    win: Fraction
    draw: Fraction
    loss: Fraction
    bye: Fraction

    def __init__(
        self,
        win: Number = 1,
        draw: Number = Fraction(1, 2),
        loss: Number = 0,
        bye: Number = 1,
    ) -> None:
        values = [as_fraction(value) for value in (win, draw, loss, bye)]
        for name, value in zip(("win", "draw", "loss", "bye"), values, strict=True):
            object.__setattr__(self, name, value)
        if not self.win >= self.draw >= self.loss or self.win == self.loss:
            raise RulesError(POINTS_ORDER())


def match_points(result: MatchScoreResult, points: MatchPoints) -> tuple[Fraction, Fraction]:
    """The tournament points (player 1's, player 2's) of a finished match."""
    if not result.finished:
        raise RulesError(UNFINISHED_MATCH())
    if result.winner is None:
        return points.draw, points.draw
    if result.winner == 1:
        return points.win, points.loss
    return points.loss, points.win

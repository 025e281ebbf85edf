"""The evaluator: for the side on roll, the probabilities of winning, of winning a mars and of
losing a mars, and the cubeless equity they make (oyn 1, mars 2).

The network answers for positions still in play; what the rules already decide is answered
exactly (``games.engine.exact``): a finished game, a pure race of two bear-offs (the one-sided
database, ``games.engine.bearoff``, mars included), and a win, loss or mars the pips settle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from games.engine.bearoff import Database
from games.engine.exact import known
from games.engine.features import Boards, boards_of, encode
from games.engine.network import Array, Network
from games.rules.moves import LegalPlay
from games.rules.position import Position

WIN, WIN_MARS, LOSE_MARS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Probabilities:
    """For the side on roll; a mars is counted in the win (or the loss) too."""

    win: float
    win_mars: float
    lose_mars: float

    @property
    def equity(self) -> float:
        """Cubeless points won per game: oyn 1, mars 2."""
        return float(equity_of(np.array([[self.win, self.win_mars, self.lose_mars]]))[0])

    @classmethod
    def of(cls, row: Array) -> Probabilities:
        return cls(float(row[WIN]), float(row[WIN_MARS]), float(row[LOSE_MARS]))


def equity_of(probabilities: Array) -> Array:
    """Each row's cubeless equity: win − loss, and a mars counts once more."""
    win, win_mars, lose_mars = probabilities.T
    equity: Array = 2.0 * win - 1.0 + win_mars - lose_mars
    return equity


def flipped(probabilities: Array) -> Array:
    """The same positions from the other side's view."""
    win, win_mars, lose_mars = probabilities.T
    return np.stack([1.0 - win, lose_mars, win_mars], axis=1)


def coherent(raw: Array) -> Array:
    """Outputs made consistent: a mars never likelier than the win (or the loss) it is part of."""
    win = raw[:, WIN]
    return np.stack(
        [win, np.minimum(raw[:, WIN_MARS], win), np.minimum(raw[:, LOSE_MARS], 1.0 - win)], axis=1
    )


class Evaluator:
    """0-ply evaluation of positions: the network, with the exact answers where the rules decide
    (``games.engine.exact``)."""

    def __init__(self, network: Network, database: Database | None = None) -> None:
        self.network = network
        self.database = database

    def boards(self, boards: Boards) -> Array:
        """Probabilities of each position (rows of ``boards``), for its side on roll."""
        return self.answers(boards)[0]

    def answers(self, boards: Boards) -> tuple[Array, npt.NDArray[np.bool_]]:
        """The probabilities of each row and which of them are certain, from one look at what
        the rules decide (for a search, which stops where they are)."""
        settled = known(boards, self.database)
        raw = self.network.forward(encode(boards, self.network.inputs))
        return settled.over(coherent(raw)), settled.exact

    def exact(self, boards: Boards) -> npt.NDArray[np.bool_]:
        """The rows whose probabilities are certain: a rollout may stop there."""
        return known(boards, self.database).exact

    def positions(self, positions: Sequence[Position]) -> Array:
        return self.boards(boards_of(positions))

    def probabilities(self, position: Position) -> Probabilities:
        return Probabilities.of(self.positions([position])[0])

    def after(self, plays: Sequence[LegalPlay]) -> Array:
        """The probabilities each play leaves, for the side that plays it."""
        return flipped(self.positions([play.position for play in plays]))

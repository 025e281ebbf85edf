"""The evaluator: for the side on roll, the probabilities of winning, of winning a mars and of
losing a mars, and the cubeless equity they make (oyn 1, mars 2).

The network answers for positions still in play; a finished game is answered exactly, and so is a
pure race of two bear-offs where the one-sided database knows both sides (``games.engine.bearoff``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from games.engine.bearoff import Database
from games.engine.features import Boards, boards_of, encode
from games.engine.network import Array, Network
from games.rules.moves import LegalPlay
from games.rules.position import Position

CHECKERS = 15
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
    """0-ply evaluation of positions: the network, with the exact answers where there are some:
    a finished game, and the chance to win a pure race of two bear-offs (the mars chances stay
    the network's while a side has borne off none)."""

    def __init__(self, network: Network, database: Database | None = None) -> None:
        self.network = network
        self.database = database

    def boards(self, boards: Boards) -> Array:
        """Probabilities of each position (rows of ``boards``), for its side on roll."""
        found = coherent(self.network.forward(encode(boards)))
        lost = boards[:, 1, 0] == CHECKERS  # the other side has borne off all: the game is over
        if lost.any():
            found[lost] = np.stack(
                [np.zeros(lost.sum()), np.zeros(lost.sum()), boards[lost, 0, 0] == 0], axis=1
            )
        if self.database is not None:
            for row in np.flatnonzero(bear_offs(boards) & ~lost):
                found[row] = self._race(boards[row], found[row])
        won = boards[:, 0, 0] == CHECKERS
        if won.any():
            found[won] = np.stack(
                [np.ones(won.sum()), boards[won, 1, 0] == 0, np.zeros(won.sum())], axis=1
            )
        return found

    def _race(self, board: Boards, raw: Array) -> Array:
        assert self.database is not None
        win = self.database.win(tuple(board[0, 1:7]), tuple(board[1, 1:7]))
        win_mars = min(raw[WIN_MARS], win) if board[1, 0] == 0 else 0.0
        lose_mars = min(raw[LOSE_MARS], 1.0 - win) if board[0, 0] == 0 else 0.0
        return np.array([win, win_mars, lose_mars], np.float32)

    def positions(self, positions: Sequence[Position]) -> Array:
        return self.boards(boards_of(positions))

    def probabilities(self, position: Position) -> Probabilities:
        return Probabilities.of(self.positions([position])[0])

    def after(self, plays: Sequence[LegalPlay]) -> Array:
        """The probabilities each play leaves, for the side that plays it."""
        return flipped(self.positions([play.position for play in plays]))


def bear_offs(boards: Boards) -> npt.NDArray[np.bool_]:
    """Rows where both sides have every checker still on the board in their home: a pure race
    of two bear-offs (in Long Nardy the homes face each other, so nothing can block)."""
    outside = boards[:, :, 7:25].sum(axis=2).sum(axis=1)
    pure: npt.NDArray[np.bool_] = outside == 0
    return pure

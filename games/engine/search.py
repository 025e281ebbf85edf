"""Choosing plays: every legal play of a roll ranked at 0-ply (the evaluator on the position each
play leaves) or at 1-ply (each of the opponent's 21 rolls, the opponent answering with its 0-ply
best, averaged), as gnubg ranks them.

At 1-ply only the plays that 0-ply puts near the top are looked at again (``FILTER``: at most 8
within 0.16 of the best, gnubg's default), and any play asked for by name. In a pure bear-off
where neither side can win or lose a mars any more, the play is the one that leaves the fewest
expected rolls (the bear-off database), its equity the database's exact one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from games.engine.bearoff import Database, database
from games.engine.evaluator import Evaluator, Probabilities, equity_of, flipped
from games.engine.exact import bear_offs
from games.engine.features import boards_of
from games.engine.network import Array, Network
from games.rules.moves import LegalPlay, legal_plays
from games.rules.position import CHECKERS, OFF, Position

Dice = tuple[int, int]
#: gnubg's default move filter from 0-ply to 1-ply: the best 8, if within 0.16 of the best.
FILTER = (8, 0.16)
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
WEIGHTS = np.array([1 / 36 if a == b else 2 / 36 for a, b in ROLLS])
PLIES = (0, 1)


@dataclass(frozen=True, slots=True)
class Ranked:
    """A play and what it leaves, for the side that plays it, at ``plies``."""

    play: LegalPlay
    probabilities: Probabilities
    plies: int

    @property
    def equity(self) -> float:
        return self.probabilities.equity


class Engine:
    """The Long Nardy engine: the evaluator and the search over it."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    @property
    def database(self) -> Database | None:
        return self.evaluator.database

    def evaluate(self, position: Position, plies: int = 0) -> Probabilities:
        """The position for its side on roll: 0-ply, or 1-ply (the average over its 21 rolls of
        the 0-ply value its best play leaves)."""
        _check_plies(plies)
        if plies == 0 or self._exact(position):
            return self.evaluator.probabilities(position)
        averaged = np.zeros(3)
        for weight, dice in zip(WEIGHTS, ROLLS, strict=True):
            plays = legal_plays(position, dice)
            after = self.evaluator.after(plays)
            averaged += weight * after[int(np.argmax(equity_of(after)))]
        return Probabilities.of(averaged)

    def rank(
        self, position: Position, dice: Dice, plies: int = 1, also: Sequence[LegalPlay] = ()
    ) -> list[Ranked]:
        """The legal plays of ``dice``, best first: all of them at 0-ply; at 1-ply those the
        filter keeps and those in ``also``, with the rest after them at 0-ply."""
        _check_plies(plies)
        plays = legal_plays(position, dice)
        if self._rolls_decide(position):
            return self._by_rolls(plays)
        found = self.evaluator.after(plays)
        order = np.argsort(-equity_of(found), kind="stable")
        ranked = [Ranked(plays[i], Probabilities.of(found[i]), 0) for i in order]
        if plies == 0 or len(plays) == 1:
            return ranked
        most, window = FILTER
        top = ranked[0].equity
        deeper = [r for r in ranked[:most] if r.equity >= top - window]
        deeper += [r for r in ranked if r.play in also and r not in deeper]
        looked = [
            Ranked(r.play, Probabilities.of(self._one_ply(r.play.position)), 1) for r in deeper
        ]
        looked.sort(key=lambda r: -r.equity)
        return looked + [r for r in ranked if r not in deeper]

    def best(self, position: Position, dice: Dice, plies: int = 1) -> Ranked:
        return self.rank(position, dice, plies)[0]

    def _one_ply(self, after: Position) -> Array:
        """The probabilities ``after`` holds for the side that just played, over the opponent's
        21 rolls, each answered with the opponent's 0-ply best."""
        if self._exact(after):
            exact: Array = flipped(self.evaluator.positions([after]))[0]
            return exact
        boards, ends = [], []
        for dice in ROLLS:
            replies = [play.position for play in legal_plays(after, dice)]
            boards.append(boards_of(replies))
            ends.append(len(replies))
        values = self.evaluator.boards(np.concatenate(boards))  # for the player, on roll again
        starts = np.concatenate([[0], np.cumsum(ends)[:-1]])
        worst = [
            start + int(np.argmin(equity_of(values[start : start + n])))
            for start, n in zip(starts, ends, strict=True)
        ]
        averaged: Array = (WEIGHTS[:, None] * values[worst]).sum(axis=0)
        return averaged

    def _exact(self, position: Position) -> bool:
        """Whether the evaluator knows the position for certain: no search can add to it."""
        return bool(self.evaluator.exact(boards_of([position]))[0])

    def _rolls_decide(self, position: Position) -> bool:
        """A pure bear-off with no mars at stake: the fewest expected rolls is the best play."""
        return (
            self.database is not None
            and position.mover[OFF] > 0
            and position.opponent[OFF] > 0
            and bool(bear_offs(boards_of([position]))[0])
        )

    def _by_rolls(self, plays: Sequence[LegalPlay]) -> list[Ranked]:
        assert self.database is not None
        homes = [play.position.opponent[1:7] for play in plays]
        rolls = np.array([self.database.rolls(home) for home in homes])
        order = np.argsort(rolls, kind="stable")
        found = self.evaluator.after(plays)
        return [Ranked(plays[i], Probabilities.of(found[i]), 0) for i in order]


def _over(position: Position) -> bool:
    return CHECKERS in (position.mover[OFF], position.opponent[OFF])


def _check_plies(plies: int) -> None:
    if plies not in PLIES:
        raise ValueError(f"plies: 0 or 1, not {plies}")


def engine_name() -> str:
    """The engine and its weights, as analyses are labelled: "nardy-long <weights' name>" (the
    weights alone are read: a web process that queues an analysis needs no bear-off database)."""
    return f"nardy-long {shipped_network().info.get('name', 'unnamed')}"


@lru_cache(maxsize=1)
def shipped_network() -> Network:
    return Network.load()


@lru_cache(maxsize=1)
def engine() -> Engine:
    """The shipped engine: the shipped weights and bear-off database, read once per process."""
    return Engine(Evaluator(shipped_network(), database()))

"""Choosing plays: every legal play of a roll ranked at 0-ply (the evaluator on the position each
play leaves), 1-ply or 2-ply, as gnubg ranks them.

A position's value at n plies, for its side on roll, is the average over its 21 rolls of what
the roll's best play leaves at n − 1 plies; inside the tree the best play of a roll is chosen at
0-ply, as gnubg chooses it there (its "pruning" choice: one reply a roll, not a search of all of
them). So 1-ply looks at each of the opponent's 21 rolls answered with its 0-ply best, and 2-ply
at each of those answers' 21 rolls in turn, answered with the 0-ply best: 21 × 21 leaves of the
0-ply best replies, each level evaluated in one batch of the network. A position the evaluator
answers exactly (``Evaluator.exact``: a finished game, a pure bear-off, an outcome the pips
settle) is not searched.

At the root only the plays that 0-ply puts near the top are looked at again (``FILTER``: at most
8 within 0.16 of the best, gnubg's default), and any play asked for by name. gnubg's 2-ply then
evaluates those at 2-ply at once (its ``MOVEFILTER_NORMAL``); that took 1.6 s a decision in
contact here, and up to 8 s on a double with hundreds of plays (the move generator of the
21 × 21 leaves is most of it). So 2-ply is pruned harder, as gnubg prunes before its 3-ply: the
kept plays go through 1-ply first and only the best 2 within 0.04 of the 1-ply best
(``FILTER_2``) are looked at at 2-ply: 0.4 s a decision in contact, 2 s at worst (30 positions
of club-strength self-play). In a pure bear-off where neither side can win or lose a mars any
more, the play is the one that leaves the fewest expected rolls (the bear-off database), its
equity the database's exact one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from games.engine.bearoff import Database, database
from games.engine.evaluator import Evaluator, Probabilities, equity_of, flipped
from games.engine.exact import bear_offs
from games.engine.features import boards_of
from games.engine.network import Array, Network
from games.rules.moves import LegalPlay, legal_plays
from games.rules.position import OFF, Position

Dice = tuple[int, int]
#: gnubg's default move filter from 0-ply to a deeper search: the best 8, if within 0.16.
FILTER = (8, 0.16)
#: From 1-ply to 2-ply: the best 2, if within 0.04 of the 1-ply best (gnubg's filter before its
#: 3-ply).
FILTER_2 = (2, 0.04)
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
WEIGHTS = np.array([1 / 36 if a == b else 2 / 36 for a, b in ROLLS])
PLIES = (0, 1, 2)


@dataclass(frozen=True, slots=True)
class Ranked:
    """A play and what it leaves, for the side that plays it, at ``plies``."""

    play: LegalPlay
    probabilities: Probabilities
    plies: int

    @property
    def equity(self) -> float:
        return self.probabilities.equity


@dataclass(frozen=True, slots=True)
class Replies:
    """For each of ``ROLLS``, a position's 0-ply best play and what it leaves, for the side
    that plays it (rows of ``left``): the tree's next level, which the search, the luck of a
    roll, the dave lookahead and the rollouts all read."""

    plays: tuple[LegalPlay, ...]
    left: Array


class Engine:
    """The Long Nardy engine: the evaluator and the search over it."""

    #: How many positions' replies are kept: an analysis asks for each turn's twice (its
    #: luck, its dave decision).
    KEPT = 1024

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self._replies: dict[Position, Replies] = {}
        self._glances: dict[Position, tuple[Probabilities, bool]] = {}

    @property
    def database(self) -> Database | None:
        return self.evaluator.database

    def evaluate(self, position: Position, plies: int = 0) -> Probabilities:
        """The position for its side on roll at ``plies``: 0-ply, or the average over its 21
        rolls of what the roll's 0-ply best play leaves at ``plies`` − 1."""
        _check_plies(plies)
        if plies == 0:
            return self.glance(position)[0]
        return Probabilities.of(self.values([position], plies)[0])

    def glance(self, position: Position) -> tuple[Probabilities, bool]:
        """The 0-ply probabilities of one position, and whether they are exact: kept for the
        last ``KEPT`` positions, as an analysis asks for a turn's several times (its play, its
        luck, its dave decision)."""
        if position not in self._glances:
            found, exact = self.evaluator.answers(boards_of([position]))
            self._glances[position] = Probabilities.of(found[0]), bool(exact[0])
            _trim(self._glances, self.KEPT)
        return self._glances[position]

    def values(self, positions: Sequence[Position], plies: int) -> Array:
        """The probabilities of each position for its side on roll at ``plies``, the positions
        of one level of the tree evaluated together."""
        found, exact = self.evaluator.answers(boards_of(positions))
        if plies == 0:
            return found
        live = [int(i) for i in np.flatnonzero(~exact)]
        if not live:
            return found
        replies = self.replies([positions[i] for i in live])
        if plies == 1:
            leaves = np.concatenate([reply.left for reply in replies])
        else:
            best = [play.position for reply in replies for play in reply.plays]
            leaves = flipped(self.values(best, plies - 1))
        averaged = (WEIGHTS[None, :, None] * leaves.reshape(len(live), len(ROLLS), 3)).sum(axis=1)
        found[live] = averaged
        return found

    def replies(self, positions: Sequence[Position]) -> list[Replies]:
        """Each position's ``Replies``, the ones not yet known found in one batch of the
        network (the last ``KEPT`` are kept)."""
        found = {p: self._replies[p] for p in dict.fromkeys(positions) if p in self._replies}
        missing = [position for position in dict.fromkeys(positions) if position not in found]
        if missing:
            plays = [legal_plays(position, dice) for position in missing for dice in ROLLS]
            after = self.evaluator.after([play for group in plays for play in group])
            starts = np.cumsum([0] + [len(group) for group in plays])
            chosen = [
                start + int(np.argmax(equity_of(after[start:end])))
                for start, end in zip(starts[:-1], starts[1:], strict=True)
            ]
            for number, position in enumerate(missing):
                rows = range(number * len(ROLLS), (number + 1) * len(ROLLS))
                best = tuple(plays[row][chosen[row] - starts[row]] for row in rows)
                left = after[[chosen[row] for row in rows]]
                left.flags.writeable = False
                found[position] = self._replies[position] = Replies(best, left)
            _trim(self._replies, self.KEPT)
        return [found[position] for position in positions]

    def rank(
        self, position: Position, dice: Dice, plies: int = 1, also: Sequence[LegalPlay] = ()
    ) -> list[Ranked]:
        """The legal plays of ``dice``, best first: all of them at 0-ply; deeper, those the
        filters keep and those in ``also``, each depth's first, then the rest at the depth they
        reached (``Ranked.plies``)."""
        _check_plies(plies)
        plays = legal_plays(position, dice)
        if self._rolls_decide(position):
            return self._by_rolls(plays)
        found = self.evaluator.after(plays)
        order = np.argsort(-equity_of(found), kind="stable")
        ranked = [Ranked(plays[i], Probabilities.of(found[i]), 0) for i in order]
        if plies == 0 or len(plays) == 1:
            return ranked
        for depth, (most, window) in zip((1, 2), (FILTER, FILTER_2), strict=True):
            if depth > plies:
                break
            top = ranked[0].equity
            kept = [r for r in ranked[:most] if r.equity >= top - window and r.plies == depth - 1]
            kept += [r for r in ranked if r.play in also and r not in kept]
            leaves = flipped(self.values([r.play.position for r in kept], depth))
            looked = [
                Ranked(r.play, Probabilities.of(row), depth)
                for r, row in zip(kept, leaves, strict=True)
            ]
            looked.sort(key=lambda r: -r.equity)
            ranked = looked + [r for r in ranked if r not in kept]
        return ranked

    def best(self, position: Position, dice: Dice, plies: int = 1) -> Ranked:
        return self.rank(position, dice, plies)[0]

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


def _trim(kept: dict[Position, Any], most: int) -> None:
    """Forget the oldest entries of ``kept`` beyond ``most``."""
    while len(kept) > most:
        del kept[next(iter(kept))]


def _check_plies(plies: int) -> None:
    if plies not in PLIES:
        raise ValueError(f"plies: 0, 1 or 2, not {plies}")


def engine_name() -> str:
    """The engine and its weights, as analyses are labelled: "nardy-long <weights' name>" (the
    weights alone are read: a web process that queues an analysis needs no bear-off database)."""
    return f"nardy-long {shipped_network().info.get('name', 'unnamed')}"


@lru_cache(maxsize=1)
def shipped_network() -> Network:
    return Network.load()


def engine_of(weights: Path) -> Engine:
    """An engine of other weights, with the shipped bear-off database: what the benchmarks
    compare with the shipped one."""
    return Engine(Evaluator(Network.load(weights), database()))


@lru_cache(maxsize=1)
def engine() -> Engine:
    """The shipped engine: the shipped weights and bear-off database, read once per process."""
    return Engine(Evaluator(shipped_network(), database()))

"""What the evaluator knows for certain, before the network is asked.

A network only comes close to 0 and 1: in a mars that can no longer be saved it said win
0.999995 and win mars 0.992. Where the rules decide, the engine answers exactly:

- **a finished game**: the side that bore off all its checkers won, a mars if the other bore off
  none;
- **a pure race of two bear-offs** (both sides with every checker in their home): the one-sided
  database gives each side's distribution of rolls to bear off, so the chance to finish first is
  exact (``Database.win``), and so is the mars: a side that has borne off none loses a mars when
  the other finishes before it bears off its first checker. Its chance to bear one off within
  ``k`` rolls, playing for it, is worked out here (``first_off``); the mars is that chance over
  the other side's distribution of rolls. (Strictly, a side that knew how many rolls the other
  needs could play each roll for that deadline; the chance is computed for each deadline, which
  is exact whenever the other side's rolls are certain, as in every mars that cannot be saved,
  and never further than the odd roll from it otherwise. The chance is worked out to
  ``FIRST_OFF_ROLLS`` rolls and taken as no higher after them: fifteen checkers on point 6, the
  slowest home, still have none off after four rolls once in a thousand, and each roll more
  costs the search five times the last, so the mars is exact to a thousandth);
- **outcomes the pips already decide**: bounds on the rolls each side needs (the fewest: 24 pips
  and four checkers a roll at most; the most: only where nothing can block the side) settle a
  certain win, loss or mars, and a side that has borne off a checker can no longer lose a mars.

Rows are boards as ``games.engine.features`` has them: ``boards[:, 0]`` the side on roll,
``boards[:, 1]`` the other, index 0 borne off, 1..24 the points.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from games.engine.bearoff import ROLLS_21, Database, plays

Boards = npt.NDArray[np.int16]
Array = npt.NDArray[np.floating[Any]]
Mask = npt.NDArray[np.bool_]

CHECKERS = 15
#: Rolls looked ahead for a first checker off (see the module's docstring).
FIRST_OFF_ROLLS = 4
_PIPS = np.arange(26, dtype=np.int64)
_PIPS[25] = 0
_DEFICIT = np.maximum(np.arange(26, dtype=np.int64) - 6, 0)  # pips each point is from home
_DEFICIT[25] = 0
UNKNOWN = np.nan


@dataclass(frozen=True, slots=True)
class Known:
    """For each row, the probabilities (win, win mars, lose mars, for the side on roll) that are
    certain, NaN where the network must answer; ``exact`` marks the rows known in full."""

    values: Array

    @property
    def exact(self) -> Mask:
        found: Mask = np.asarray(~np.isnan(self.values).any(axis=1))
        return found

    def over(self, estimates: Array) -> Array:
        """``estimates`` with the certain values put in, kept coherent: a mars never likelier
        than the win (or loss) it is part of."""
        merged = np.where(np.isnan(self.values), estimates, self.values)
        win = merged[:, 0]
        return np.stack(
            [win, np.minimum(merged[:, 1], win), np.minimum(merged[:, 2], 1.0 - win)], axis=1
        ).astype(np.float32)


def known(boards: Boards, database: Database | None) -> Known:
    """The certain probabilities of each row (``database`` None: the bear-off ones unknown)."""
    values = np.full((len(boards), 3), UNKNOWN)
    # A side that has borne off a checker can no longer lose a mars.
    values[boards[:, 1, 0] > 0, 1] = 0.0
    values[boards[:, 0, 0] > 0, 2] = 0.0
    # The bounds settle nothing unless a side cannot be held up: a race, or a side with every
    # checker left on its point 1 (most rows of a search are neither: they are not looked at).
    left = CHECKERS - boards[:, :, 0]
    race = (boards[:, :, 13:25].sum(axis=2) == 0).all(axis=1)
    bounded = race | (boards[:, :, 1] == left).any(axis=1)
    if bounded.any():
        rows = np.flatnonzero(bounded)
        settled = values[rows]
        _bounds(settled, boards[rows, 0, :].astype(np.int64), boards[rows, 1, :].astype(np.int64))
        values[rows] = settled
    if database is not None:
        for row in np.flatnonzero(bear_offs(boards) & ~finished(boards)):
            mover, other = boards[row, 0, 1:7], boards[row, 1, 1:7]
            values[row] = bear_off(database, tuple(map(int, mover)), tuple(map(int, other)))
    _finished(values, boards)
    return Known(values)


def finished(boards: Boards) -> Mask:
    over: Mask = (boards[:, 0, 0] == CHECKERS) | (boards[:, 1, 0] == CHECKERS)
    return over


def bear_offs(boards: Boards) -> Mask:
    """Rows where both sides have every checker still on the board in their home: a pure race
    of two bear-offs (in Long Nardy the homes face each other, so nothing can block)."""
    outside = boards[:, :, 7:25].sum(axis=2).sum(axis=1)
    pure: Mask = outside == 0
    return pure


def _finished(values: Array, boards: Boards) -> None:
    won, lost = boards[:, 0, 0] == CHECKERS, boards[:, 1, 0] == CHECKERS
    values[won] = np.stack([np.ones(won.sum()), boards[won, 1, 0] == 0, np.zeros(won.sum())], 1)
    values[lost] = np.stack(
        [np.zeros(lost.sum()), np.zeros(lost.sum()), boards[lost, 0, 0] == 0], 1
    )


def _bounds(values: Array, mover: npt.NDArray[np.int64], other: npt.NDArray[np.int64]) -> None:
    """Certain outcomes from the fewest and the most rolls each side can need. The side on roll
    finishing on its k-th roll comes before the other's k-th."""
    race = (_rearmost(mover) <= 12) & (_rearmost(other) <= 12)
    fewest = [_fewest(side) for side in (mover, other)]
    first = [_fewest_first_off(side) for side in (mover, other)]
    most = [_most(side, race) for side in (mover, other)]
    wins = most[0] <= fewest[1]
    loses = most[1] < fewest[0]
    values[wins, 0], values[loses, 0] = 1.0, 0.0
    values[loses, 1] = 0.0
    values[wins, 2] = 0.0
    # A mars is certain when the winner finishes before the loser can bear off its first checker.
    values[wins & (other[:, 0] == 0) & (most[0] <= first[1]), 1] = 1.0
    values[loses & (mover[:, 0] == 0) & (most[1] < first[0]), 2] = 1.0


def _rearmost(side: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    occupied = side[:, 1:25] > 0
    highest = 24 - np.argmax(occupied[:, ::-1], axis=1)
    return np.where(occupied.any(axis=1), highest, 0)


def _fewest(side: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The fewest rolls that can bear every checker off: a roll moves 24 pips and bears off four
    checkers at most (whatever blocks, it only slows)."""
    pips = side @ _PIPS
    left = CHECKERS - side[:, 0]
    fewest: npt.NDArray[np.int64] = np.maximum(-(-pips // 24), -(-left // 4))
    return fewest


def _fewest_first_off(side: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The fewest rolls before a side can bear off its first checker: every checker home, and
    one pip more (meaningful while it has borne off none)."""
    deficit = side @ _DEFICIT
    return -(-(deficit + 1) // 24)


def _most(side: npt.NDArray[np.int64], race: Mask) -> npt.NDArray[np.float64]:
    """The most rolls a side can need to bear off every checker, whatever the dice and the play
    (infinite where it cannot be bounded). In a race nothing blocks: every die moves a checker
    its full number, at least three pips a roll (1-2), or bears a checker off with pips to
    spare, which happens at most once a checker. Where contact remains, only a side with every
    checker left on its point 1 is sure: every die bears one off."""
    pips = side @ _PIPS
    left = CHECKERS - side[:, 0]
    most = np.full(len(side), np.inf)
    most[race] = (-(-pips // 3) + left)[race]
    on_one = side[:, 1] == left
    most[on_one] = np.minimum(most[on_one], -(-left[on_one] // 2))
    return most


def bear_off(database: Database, mover: tuple[int, ...], other: tuple[int, ...]) -> Array:
    """The exact probabilities of a pure race of two bear-offs, the side on roll's home
    ``mover`` (counts on its points 1..6), the other's ``other``."""
    mine, theirs = database.distribution(mover), database.distribution(other)
    win = database.win(mover, other)
    # Finishing on roll k, the side on roll has given the other k − 1 rolls; the other,
    # finishing on its roll k, has given it k.
    win_mars = _marsed(other, mine, given=-1) if sum(other) == CHECKERS else 0.0
    lose_mars = _marsed(mover, theirs, given=0) if sum(mover) == CHECKERS else 0.0
    return np.clip([win, min(win_mars, win), min(lose_mars, 1.0 - win)], 0.0, 1.0)


def _marsed(home: tuple[int, ...], finishing: npt.NDArray[np.float64], given: int) -> float:
    """The chance that ``home`` (none borne off) has no checker off when the other side
    finishes, on its roll k with the chances ``finishing``, ``home`` having had k + ``given``
    rolls: only the rolls the other side can finish on are looked at."""
    return float(
        sum(p * (1.0 - first_off(home, k + given)) for k, p in enumerate(finishing) if k and p)
    )


def first_off(home: tuple[int, ...], rolls: int) -> float:
    """For a home of fifteen checkers, the chance to bear off a checker within ``rolls`` rolls
    (worked out to ``FIRST_OFF_ROLLS``), each roll played for that deadline."""
    return _within(tuple(home), min(rolls, FIRST_OFF_ROLLS))


@lru_cache(maxsize=262144)
def _within(home: tuple[int, ...], rolls: int) -> float:
    if sum(home) < CHECKERS:
        return 1.0
    if rolls == 0:
        return 0.0
    if rolls > 1 and _within(home, rolls - 1) > 1.0 - 1e-12:
        return 1.0  # sure within fewer rolls: no need to look further
    chance = 0.0
    for dice in ROLLS_21:
        weight = 1 / 36 if dice[0] == dice[1] else 2 / 36
        chance += weight * max(_within(after, rolls - 1) for after in plays(home, dice))
    return chance

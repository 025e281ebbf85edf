"""Rollouts: a position's probabilities and cubeless equity, for its side on roll, measured by
playing it out many times with the engine on both sides, as gnubg rolls positions out.

Three things make the answer worth the games it costs:

- **Luck taken out** (gnubg's variance reduction). Each roll's luck is the 0-ply value the best
  play of the roll leaves, less the same averaged over the 21 rolls (the value of the position
  before the roll). A game's outcome less the sum of its rolls' luck has the same expectation as
  the outcome, since each roll's luck averages to nothing over the dice whatever the evaluator
  is, but far less spread: what is left is the players' own errors, not the dice. The three
  probabilities are adjusted each on its own, from the view of the side on roll at the start.
  A roll given with the position (``dice``) is part of the question, not luck: it is not
  adjusted.
- **Stratified first rolls** (gnubg's quasi-random dice). The first two random rolls of the
  games run through the 36 rolls in turn (a permutation of them drawn from the seed), so that
  every 36 games see every first roll once and every second roll once, and every 1,296 every
  pair; later rolls are random.
  With luck taken out this matters little; it keeps plain rollouts honest too. Over a number of
  games that is not a multiple of 36 a few rolls come once more than others (gnubg's way too).
- **Truncation** where the evaluator is exact (``Evaluator.exact``, ``games.engine.exact``: the
  game is over, a pure race of two bear-offs, which the bear-off database decides, mars
  included, or an outcome the pips settle): the game stops there and the exact answer is its
  outcome.

The games are trials numbered 0..games−1, each with its own dice drawn from the seed and its
number, so the answer is the same whatever the number of processes that play them (``workers``,
every core by default). The players choose at ``plies`` (0: the network; 1 and 2 are far
slower), each position's plays evaluated in one batch of the network.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from games.engine.evaluator import coherent, equity_of, flipped
from games.engine.features import boards_of
from games.engine.network import Array
from games.engine.search import PLIES, ROLLS, WEIGHTS, Dice, Engine, engine
from games.rules.moves import LegalPlay, legal_plays
from games.rules.position import CHECKERS, OFF, Position

#: The 36 rolls, each as likely: the strata of the first random rolls.
ORDERED_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
#: How many of a game's first random rolls are stratified.
STRATIFIED = 2
#: A game longer than this is stopped at the evaluator's answer (it never happens in play).
MAX_TURNS = 1000


@dataclass(frozen=True, slots=True)
class Rollout:
    """For the side on roll: the probabilities (a mars counted in the win or loss too), the
    cubeless equity, its standard error and the number of games played."""

    win: float
    win_mars: float
    lose_mars: float
    equity: float
    stderr: float
    games: int


def rollout(
    position: Position,
    *,
    games: int,
    seed: int,
    plies: int = 0,
    dice: Dice | None = None,
    workers: int | None = None,
    found: Engine | None = None,
    reduce: bool = True,
) -> Rollout:
    """Roll ``position`` out over ``games`` games from ``seed``, its side on roll playing
    ``dice`` first if given; ``reduce``: take the luck out (see above)."""
    if games < 1:
        raise ValueError(f"games: at least 1, not {games}")
    if seed < 0:
        raise ValueError(f"seed: a whole number, 0 or more, not {seed}")
    if plies not in PLIES:
        raise ValueError(f"plies: 0, 1 or 2, not {plies}")
    if dice is not None and CHECKERS in (position.mover[OFF], position.opponent[OFF]):
        raise ValueError("the game is over: a side has borne off all its checkers")
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    play = partial(_trial, position, dice, plies, seed, reduce)
    if workers == 1:
        _ENGINE.append(found or engine())
        try:
            outcomes = [play(number) for number in range(games)]
        finally:
            _ENGINE.pop()
    else:
        with multiprocessing.Pool(workers, initializer=_use, initargs=(found,)) as pool:
            outcomes = pool.map(play, range(games), chunksize=max(1, games // (4 * workers)))
    return summary(np.array(outcomes))


def summary(outcomes: Array) -> Rollout:
    """The mean of the games' outcomes (rows of three probabilities) and the equity's standard
    error. With the luck taken out a mean can stray a little out of what probabilities can be
    (a mars chance of −0.01 where none is possible): it is brought back (``coherent``, within
    [0, 1]), which only moves it nearer the truth, and the equity is the one it makes."""
    mean = coherent(np.clip(outcomes.mean(axis=0), 0.0, 1.0)[None, :])[0]
    equities = equity_of(outcomes)
    spread = float(equities.std(ddof=1)) if len(equities) > 1 else 0.0
    return Rollout(
        float(mean[0]),
        float(mean[1]),
        float(mean[2]),
        float(equity_of(mean[None, :])[0]),
        spread / float(np.sqrt(len(equities))),
        len(equities),
    )


#: The engine of the trials played in this process (a pool's initializer puts it there).
_ENGINE: list[Engine | None] = []


def _use(found: Engine | None) -> None:
    """A worker's start: the engine its trials play with (None: the shipped one)."""
    _ENGINE.append(found)


def _trial(
    start: Position, dice: Dice | None, plies: int, seed: int, reduce: bool, number: int
) -> Array:
    """Game ``number``: its outcome less its luck, from the view of ``start``'s side on roll."""
    found = _ENGINE[-1] or engine()
    rng = np.random.default_rng((seed, number))
    strata = np.random.default_rng((seed, 1 << 32)).permuted(
        np.tile(np.arange(36), (STRATIFIED, 1)), axis=1
    )
    position, ours, random_rolls = start, True, 0
    luck = np.zeros(3)
    for turn in range(MAX_TURNS):
        if found.evaluator.exact(boards_of([position]))[0]:
            break
        given = dice is not None and turn == 0
        if dice is not None and given:
            roll = dice
        elif random_rolls < STRATIFIED:
            roll = ORDERED_ROLLS[strata[random_rolls, _stratum(number, random_rolls)]]
        else:
            roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        if reduce and not given:
            chosen, values = _lucky_choice(found, position, roll)
            luck += np.subtract(*(values if ours else flipped(values)))
        elif not plies:
            chosen = _choice(found, legal_plays(position, roll))
        if plies:
            chosen = found.best(position, roll, plies).play
        position, ours = chosen.position, not ours
        random_rolls += 0 if given else 1
    outcome = found.evaluator.positions([position])
    adjusted: Array = (outcome if ours else flipped(outcome))[0] - luck
    return adjusted


def _stratum(number: int, turn: int) -> int:
    """Which of the 36 rolls game ``number`` rolls at its random roll ``turn`` (0, 1, ...): in
    every 36 games each roll once at each turn, and in every 36 ** (turn + 1) games each
    sequence of rolls up to ``turn`` once (a Latin square: game n rolls n, then n + n // 36)."""
    return int(sum(number // 36**earlier for earlier in range(turn + 1)) % 36)


def _choice(found: Engine, plays: Sequence[LegalPlay]) -> LegalPlay:
    """The 0-ply best play."""
    if len(plays) == 1:
        return plays[0]
    return plays[int(np.argmax(equity_of(found.evaluator.after(plays))))]


def _lucky_choice(found: Engine, position: Position, roll: Dice) -> tuple[LegalPlay, Array]:
    """The 0-ply best play of ``roll``, and the two rows whose difference is the roll's luck
    for the side on roll: what that play leaves, and the same averaged over the 21 rolls."""
    replies = found.replies([position])[0]
    actual = ROLLS.index((min(roll), max(roll)))
    averaged = (WEIGHTS[:, None] * replies.left).sum(axis=0)
    return replies.plays[actual], np.stack([replies.left[actual], averaged])

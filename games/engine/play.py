"""Games between players, for training and the benchmarks: a player chooses one of the legal
plays of a position and a roll.

A game of Long Nardy ends when a side has borne off its fifteen checkers; it is worth a mars (2)
when the loser has borne off none, else an oyn (1). The federation's draw rule is not played here
(it is off by default, RULES.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from games.engine.features import PER_SIDE, boards_of, encode
from games.rules.moves import LegalPlay, legal_plays
from games.rules.position import CHECKERS, OFF, Position
from games.rules.variants import LongNardy

Dice = tuple[int, int]
#: A player: the legal plays of a roll (more than one), the roll, a random source → its choice.
Player = Callable[[Sequence[LegalPlay], Dice, random.Random], LegalPlay]
VARIANT = LongNardy()


def random_player(plays: Sequence[LegalPlay], dice: Dice, rng: random.Random) -> LegalPlay:
    """Any legal play, uniformly."""
    return rng.choice(list(plays))


#: The heuristic's weights on the mover's own features (``features._side``'s order, after the
#: 96 point inputs): pips cost, points held in front of the opponent's rearmost checker and the
#: longest run of held points are worth pips.
_PIPS, _LONGEST, _FRONT = 4 * 24 + 3, 4 * 24 + 4, 4 * 24 + 6


def heuristic_player(plays: Sequence[LegalPlay], dice: Dice, rng: random.Random) -> LegalPlay:
    """The pip-and-blocks heuristic: the fewest pips left, less 8 pips for each point held among
    the six in front of the opponent's rearmost checker and 4 for each point of the longest run
    of held points (ties: the first play found)."""
    features = encode(boards_of([play.position for play in plays]))
    own = features[:, PER_SIDE:]  # after the play the opponent is on roll: the mover is second
    score = -own[:, _PIPS] * 360.0 + own[:, _FRONT] * 6.0 * 8.0 + own[:, _LONGEST] * 6.0 * 4.0
    return plays[int(np.argmax(score))]


@dataclass(frozen=True, slots=True)
class GameResult:
    #: 0: the first player (White) won, 1: the second.
    winner: int
    points: int
    turns: int


def play_game(white: Player, black: Player, rng: random.Random) -> GameResult:
    """One game, ``white`` moving first."""
    players = (white, black)
    position = Position.initial(VARIANT)
    turn = 0
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        chosen = plays[0] if len(plays) == 1 else players[turn % 2](plays, dice, rng)
        position = chosen.position
        if position.opponent[OFF] == CHECKERS:  # the mover bore off its last checker
            return GameResult(turn % 2, 1 if position.mover[OFF] else 2, turn + 1)
        turn += 1


@dataclass(frozen=True, slots=True)
class Score:
    """Points won by the first player and the second over games with colours alternating."""

    games: int
    points: tuple[int, int]

    @property
    def share(self) -> float:
        return self.points[0] / max(sum(self.points), 1)


def duel(first: Player, second: Player, games: int, seed: int) -> Score:
    """``games`` games, ``first`` taking White in the even ones."""
    rng = random.Random(seed)
    points = [0, 0]
    for number in range(games):
        swap = number % 2 == 1
        result = play_game(second, first, rng) if swap else play_game(first, second, rng)
        points[result.winner ^ swap] += result.points
    return Score(games, (points[0], points[1]))

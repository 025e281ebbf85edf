"""Random self-play: legal games for tests, benchmarks and demo data."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.rules.game import Turn
from games.rules.moves import legal_plays
from games.rules.position import CHECKERS, OFF, Position
from games.rules.variants import Variant


def random_roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def random_turns(
    variant: Variant, rng: random.Random, max_turns: int = 1000
) -> Iterator[tuple[Position, Turn]]:
    """Play a game by choosing uniformly among legal plays; yields (position before, turn).

    The first roll of Short Nardy is never a double; the game stops when a side has borne off
    all its checkers.
    """
    position = Position.initial(variant)
    for number in range(max_turns):
        dice = random_roll(rng)
        while number == 0 and variant.hitting and dice[0] == dice[1]:
            dice = random_roll(rng)
        chosen = rng.choice(legal_plays(position, dice))
        yield position, Turn(dice, chosen.play)
        position = chosen.position
        if position.opponent[OFF] == CHECKERS:
            return

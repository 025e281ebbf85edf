"""Random self-play: legal games for tests, benchmarks and demo data."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.rules.game import MatchGame, Turn
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


def random_match(variant: Variant, length: int, rng: random.Random) -> list[MatchGame]:
    """Self-play games, the match players taking White in turn, until one has ``length`` points.

    No dave is offered: a game is worth oyn (1) or mars (2) to the side that bore off first.
    """
    games: list[MatchGame] = []
    points = [0, 0]
    while max(points) < length:
        white = 1 + len(games) % 2
        turns = list(random_turns(variant, rng))
        white_won = len(turns) % 2 == 1  # White moves on odd turns; the last mover won
        winner = white if white_won else 3 - white
        loser = turns[-1][0].opponent  # the loser's checkers, before the winner's last turn
        points[winner - 1] += 1 if loser[OFF] else 2
        games.append(MatchGame(white, tuple(turn for _, turn in turns)))
    return games

"""Positions of real Long Nardy play for the engine's tests: the self-play of its own 0-ply."""

from __future__ import annotations

import random

import pytest

from games.engine.search import Engine, engine
from games.rules import LongNardy, Position, legal_plays


@pytest.fixture(scope="session")
def shipped() -> Engine:
    return engine()


def played_positions(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` positions with a roll, from games where each side plays a random legal play
    (the positions of every stage of a game: the start, contact, races and bear-offs)."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position = Position.initial(LongNardy())
        while 15 not in (position.mover[0], position.opponent[0]):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if rng.random() < 0.1:
                found.append((position, dice))
            position = rng.choice(legal_plays(position, dice)).position
    return found[:count]

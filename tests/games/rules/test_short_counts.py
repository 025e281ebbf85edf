"""The move generator against gnubg's known counts from the backgammon opening (corpora/README)."""

import pytest

from games.rules import Position, ShortNardy, legal_plays

OPENING = Position.initial(ShortNardy())
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
GNUBG_COUNTS = (
    "11:42 21:15 22:75 31:16 32:17 33:73 41:14 42:18 43:17 44:52 51:8 52:8 53:9 54:9 55:4 "
    "61:10 62:14 63:14 64:14 65:7 66:11"
)


@pytest.mark.parametrize(
    ("roll", "count"), [(entry[:2], int(entry[3:])) for entry in GNUBG_COUNTS.split()]
)
def test_opening_plays_per_roll_match_gnubg(roll, count):
    assert len(legal_plays(OPENING, roll)) == count


def children(position):
    return [legal.position for roll in ROLLS for legal in legal_plays(position, roll)]


def test_perft_depth_one_and_two():
    first = children(OPENING)
    assert len(first) == 447
    assert sum(len(legal_plays(child, roll)) for child in first for roll in ROLLS) == 202_782

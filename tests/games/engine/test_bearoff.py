"""The one-sided bear-off database is exact, and in a pure bear-off with no mars at stake the
engine plays the play that leaves the fewest expected rolls."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest

from games.engine.bearoff import ROLLS_21, database
from games.engine.cli import best_json
from games.rules import LongNardy, Position, legal_plays

# The other side waits on its own point 1, which is the mover's 13: out of the mover's home, so the
# mover's bear-off is its alone.
_AWAY = {1: 1}


@cache
def expected_rolls(home: tuple[int, ...]) -> float:
    """Expected rolls to bear off ``home`` (counts on 1..6), worked out by the rules engine's own
    move generator: an independent check of the database."""
    if not any(home):
        return 0.0
    points = {point: count for point, count in enumerate(home, start=1) if count}
    position = Position.from_points(LongNardy(), points, _AWAY)
    total = 0.0
    for dice in ROLLS_21:
        weight = 1 / 36 if dice[0] == dice[1] else 2 / 36
        best = min(
            expected_rolls(play.position.opponent[1:7]) for play in legal_plays(position, dice)
        )
        total += weight * (1 + best)
    return total


def small_homes() -> list[tuple[int, ...]]:
    rng = random.Random(5)
    homes = set()
    while len(homes) < 60:
        home = [0] * 6
        for _ in range(rng.randint(1, 4)):
            home[rng.randrange(6)] += 1
        homes.add(tuple(home))
    return sorted(homes)


@pytest.mark.parametrize("home", small_homes())
def test_the_database_knows_the_expected_rolls_of_a_home(home):
    assert database().rolls(home) == pytest.approx(expected_rolls(home), abs=1e-4)


def test_the_chance_to_win_a_race_of_bear_offs():
    found = database()
    assert found.win((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 6)) == pytest.approx(1.0, abs=1e-4)
    # One checker on 6 against one on 1: the side on roll wins only by bearing off at once.
    position = Position.from_points(LongNardy(), {6: 1}, _AWAY)
    at_once = sum(
        (1 if dice[0] == dice[1] else 2) / 36
        for dice in ROLLS_21
        if any(play.position.opponent[0] == 15 for play in legal_plays(position, dice))
    )
    assert found.win((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)) == pytest.approx(at_once, abs=1e-4)


def random_bear_off(rng: random.Random) -> Position:
    """Both sides in their homes, each with at least one checker off: no mars at stake."""
    sides = []
    for _ in range(2):
        left = rng.randint(1, 14)
        home: dict[int, int] = {}
        for _ in range(left):
            point = rng.randint(1, 6)
            home[point] = home.get(point, 0) + 1
        sides.append(home)
    return Position.from_points(LongNardy(), sides[0], sides[1])


def test_in_500_pure_bear_offs_best_plays_the_fewest_expected_rolls():
    rng = random.Random(8)
    found = database()
    for _ in range(500):
        position = random_bear_off(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        answer = best_json({"position_id": position.position_id(), "dice": list(dice)}, plies=1)
        plays = legal_plays(position, dice)
        fewest = min(found.rolls(play.position.opponent[1:7]) for play in plays)
        chosen = {p.position.position_id(): p.position for p in plays}.get(answer["position_id"])
        assert chosen is not None, json.dumps(answer)
        assert found.rolls(chosen.opponent[1:7]) == pytest.approx(fewest, abs=1e-9)

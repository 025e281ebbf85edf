"""The luck of each roll in a Long Nardy analysis: what the roll's best play keeps less its
average over the rolls, at 0-ply, for the side that rolled; each side's total, and the result with
luck taken out (gnubg's luck analysis)."""

from __future__ import annotations

import random

import pytest

from games.analysis.runner import AWAY, HOME, LUCK_MARKS
from games.engine.analysis import analyse_record, luck_mark, roll_luck
from games.engine.search import ROLLS, WEIGHTS
from games.rules import LongNardy, Position, Turn, legal_plays, replay_game
from games.rules.game import Double, Take
from games.rules.matfile import GameRecord, MatchRecord
from games.rules.position import OFF
from games.rules.selfplay import random_match
from tests.games.engine.conftest import played_positions


def in_play(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions with a roll where the engine ranks plays by equity (not a pure bear-off)."""
    return [
        (position, dice)
        for position, dice in played_positions(count, seed)
        if not (position.mover[OFF] and position.opponent[OFF])
    ]


def test_a_rolls_luck_is_its_best_play_less_the_average_over_the_rolls(shipped):
    for position, dice in in_play(12, seed=31):
        best = shipped.rank(position, dice, plies=0)[0].equity
        average = shipped.evaluate(position, plies=1).equity  # each roll's 0-ply best, averaged
        assert roll_luck(shipped, position, dice) == pytest.approx(best - average, abs=1e-5)
        assert roll_luck(shipped, position, dice[::-1]) == roll_luck(shipped, position, dice)


def test_the_rolls_luck_averages_to_nothing(shipped):
    for position, _ in in_play(5, seed=32):
        lucks = [roll_luck(shipped, position, dice) for dice in ROLLS]
        assert float(WEIGHTS @ lucks) == pytest.approx(0.0, abs=1e-5)
        assert max(lucks) > 0 > min(lucks)


def test_the_opening_throw_is_measured_over_the_throws_either_side_wins(shipped):
    start = Position.initial(LongNardy(opening_roll=True))
    throws = [(a, b) for a, b in ROLLS if a != b]
    # Whoever wins the throw, the start is the same for both: the average over the 30 throws,
    # half of them the other side's, is nothing, and a throw's luck is what its best play keeps.
    for dice in throws:
        best = shipped.rank(start, dice, plies=0)[0].equity
        assert roll_luck(shipped, start, dice, opening=True) == pytest.approx(best, abs=1e-5)
    normal = roll_luck(shipped, start, (6, 5))
    assert normal != pytest.approx(roll_luck(shipped, start, (6, 5), opening=True), abs=1e-4)


def test_each_side_has_the_luck_of_its_rolls_and_its_result_without_it(shipped):
    games = random_match(LongNardy(), 3, random.Random(33))
    record = MatchRecord(LongNardy(), ("Home", "Away"), 3,
                         tuple(GameRecord(g.white, g.actions) for g in games))  # fmt: skip
    analysis = analyse_record(record, plies=0, found=shipped)
    for game, analysed in zip(record.games, analysis.games, strict=True):
        replay = replay_game(LongNardy(), game.actions)
        turns = [a for a in game.actions if isinstance(a, Turn)]
        luck = {HOME: 0.0, AWAY: 0.0}
        marks: dict[int, list[str]] = {HOME: [], AWAY: []}
        for before, turn in zip(replay.positions, turns, strict=False):
            rolled = roll_luck(shipped, before, turn.dice)
            luck[game.player(before.turn)] += rolled
            marks[game.player(before.turn)].append(luck_mark(rolled))
        winner = game.player(replay.outcome.winner)
        points = replay.outcome.points
        for side, figures in analysed.figures.items():
            other = AWAY if side == HOME else HOME
            assert figures.luck == pytest.approx(luck[side])
            assert figures.rolls_marked == tuple(marks[side].count(mark) for mark in LUCK_MARKS)
            assert figures.result == (points if side == winner else -points)
            assert figures.luck_adjusted == pytest.approx(figures.result - luck[side] + luck[other])
    for side in (HOME, AWAY):
        total = analysis.totals[side]
        assert total.luck == pytest.approx(sum(g.figures[side].luck for g in analysis.games))
        assert total.result == sum(g.figures[side].result for g in analysis.games)
        assert total.rolls_marked == tuple(
            sum(g.figures[side].rolls_marked[i] for g in analysis.games) for i in range(4)
        )
    adjusted = [analysis.totals[side].luck_adjusted for side in (HOME, AWAY)]
    assert adjusted[0] == pytest.approx(-adjusted[1])


def test_a_roll_with_no_legal_play_has_luck_and_luck_counts_at_the_stake(shipped):
    # Black's every checker stays on its head while White fills the points in front of it:
    # after a few turns some roll of Black's cannot be played.
    variant = LongNardy()
    rng = random.Random(34)
    for _ in range(200):
        position, actions = Position.initial(variant), []
        blocked = None
        while blocked is None and len(actions) < 60:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            if plays[0].play.moves == () and position.turn.value == "black":
                blocked = len(actions)
            chosen = shipped.best(position, dice, plies=0).play
            actions.append(Turn(dice, chosen.play))
            position = chosen.position
        if blocked is not None:
            break
    assert blocked is not None
    before = replay_game(variant, actions).positions[blocked]
    assert roll_luck(shipped, before, actions[blocked].dice) != 0.0
    # The same game with a dave taken before the first turn: the luck is the same, its cost in
    # points twice as much.
    plain = MatchRecord(variant, ("Home", "Away"), 5, (GameRecord(1, tuple(actions)),))
    taken = (actions[0], Double(), Take(), *actions[1:])
    staked = MatchRecord(variant, ("Home", "Away"), 5, (GameRecord(1, taken),))
    one = analyse_record(plain, plies=0, found=shipped).games[0].figures
    two = analyse_record(staked, plies=0, found=shipped).games[0].figures
    first = roll_luck(shipped, Position.initial(variant), actions[0].dice)
    for side in (HOME, AWAY):
        assert two[side].luck == pytest.approx(one[side].luck)
    rest = {side: one[side].luck - (first if side == HOME else 0.0) for side in (HOME, AWAY)}
    expected = two[HOME].result - first - 2 * (rest[HOME] - rest[AWAY])
    assert two[HOME].luck_adjusted == pytest.approx(expected)


@pytest.mark.parametrize(
    ("luck", "mark"),
    [(0.61, "very lucky"), (0.6, "lucky"), (0.31, "lucky"), (0.3, ""), (0.0, ""), (-0.3, ""),
     (-0.31, "unlucky"), (-0.6, "unlucky"), (-0.61, "very unlucky")],
)  # fmt: skip
def test_a_roll_is_marked_with_gnubgs_luck_levels(luck, mark):
    assert luck_mark(luck) == mark

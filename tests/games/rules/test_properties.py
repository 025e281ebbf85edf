"""Properties over random self-play: what must hold in every position the engine can reach."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    Colour,
    IllegalPlayError,
    LongNardy,
    Move,
    Play,
    Position,
    ShortNardy,
    check_play,
    legal_plays,
    replay_game,
)
from games.rules.selfplay import random_turns

VARIANTS = [LongNardy(), LongNardy(block_check="turn"), ShortNardy()]
variants = st.sampled_from(VARIANTS)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def reached_positions(draw):
    """A position reached by random self-play, and the roll to play from it."""
    variant = draw(variants)
    rng = random.Random(draw(st.integers(0, 2**32)))
    stop = draw(st.integers(0, 120))
    visited = [position for position, _ in itertools.islice(random_turns(variant, rng), stop + 1)]
    return visited[-1], draw(dice)


def assert_valid(position: Position) -> None:
    Position(position.variant, position.mover, position.opponent, position.turn)


@settings(max_examples=150, deadline=None)
@given(reached_positions())
def test_every_legal_play_conserves_checkers_and_moves_toward_home(case):
    position, roll = case
    for legal in legal_plays(position, roll):
        after = legal.position
        assert_valid(after)  # 15 a side, no point shared, Long Nardy never uses the bar
        assert after.turn is position.turn.other
        assert all(move.source > move.target for move in legal.play.moves)
        mover_after = after.opponent
        assert (
            sum(mover_after[p] * p for p in range(26))
            < sum(position.mover[p] * p for p in range(26))
            or not legal.play
        )


@settings(max_examples=150, deadline=None)
@given(reached_positions())
def test_no_long_nardy_play_lands_on_an_opponent(case):
    position, roll = case
    variant = position.variant
    if variant.hitting:
        return
    for legal in legal_plays(position, roll):
        for move in legal.play.moves:
            if move.target:
                assert not position.opponent[variant.opponent_point(move.target)]


@settings(max_examples=200, deadline=None)
@given(reached_positions())
def test_check_play_accepts_every_legal_play_with_its_position(case):
    position, roll = case
    for legal in legal_plays(position, roll):
        assert check_play(position, roll, legal.play).position == legal.position
        assert check_play(position, roll, str(legal.play)).position == legal.position


@settings(max_examples=200, deadline=None)
@given(reached_positions(), st.data())
def test_check_play_accepts_exactly_what_legal_plays_returns(case, data):
    """Random candidate plays, legal or not: accepted exactly when their result is legal."""
    position, roll = case
    legal = {play.position for play in legal_plays(position, roll)}
    steps = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    count = data.draw(st.integers(0, len(steps)))
    candidate = []
    for die in data.draw(st.permutations(steps))[:count]:
        source = data.draw(st.integers(1, 25))
        candidate.append(Move(source, max(0, source - die)))
    play = Play(tuple(candidate))
    try:
        result = check_play(position, roll, play).position
    except IllegalPlayError:
        result = None
    if result is not None:
        assert result in legal
    else:
        assert _result_of(position, candidate) not in legal


def _result_of(position, moves):
    """Where the candidate's checkers would stand if moved blindly (no rules), or None."""
    mover, opponent = list(position.mover), list(position.opponent)
    for move in moves:
        if mover[move.source] == 0:
            return None
        mover[move.source] -= 1
        mover[move.target] += 1
        if position.variant.hitting and move.target:
            point = position.variant.opponent_point(move.target)
            if opponent[point] == 1:
                opponent[point], opponent[25] = 0, opponent[25] + 1
    try:
        return Position(position.variant, tuple(opponent), tuple(mover), position.turn.other)
    except ValueError:
        return None


@settings(max_examples=40, deadline=None)
@given(variants, st.integers(0, 2**32))
def test_replaying_a_self_played_game_ends_in_a_valid_outcome(variant, seed):
    turns = [turn for _, turn in random_turns(variant, random.Random(seed))]
    replay = replay_game(variant, turns)
    outcome = replay.outcome
    assert outcome.winner in (Colour.WHITE, Colour.BLACK)
    assert 1 <= outcome.value <= variant.max_value
    assert len(replay.positions) == len(turns) + 1
    assert replay.positions[-1].side(outcome.winner)[0] == 15


def test_the_backgammon_fast_path_finds_what_the_general_walk_finds():
    """legal_plays runs Short Nardy through a written-out generator; the general walk over
    ``_Turn`` (kept for Long Nardy and the house rule) must agree on every position and roll."""
    from games.rules.moves import _backgammon_plays, _played, _walk_plays  # noqa: PLC0415

    rng = random.Random(2024)
    checked = 0
    for _ in range(40):
        for position, _turn in random_turns(ShortNardy(), rng):
            for roll in ((rng.randint(1, 6), rng.randint(1, 6)), (3, 3)):
                fast_depth, fast = _backgammon_plays(position.mover, position.opponent, roll)
                walk_depth, walk = _walk_plays(position, roll)
                assert fast_depth == walk_depth, (position.position_id(), roll)
                assert fast.keys() == walk.keys(), (position.position_id(), roll)
                # The same first die, and steps that lead to the same position.
                assert {
                    key: (first, _played(steps, position)) for key, (steps, first) in fast.items()
                } == {
                    key: (first, _played(steps, position)) for key, (steps, first) in walk.items()
                }, (position.position_id(), roll)
                checked += 1
    assert checked > 5000


def test_the_long_nardy_fast_path_finds_what_the_general_walk_finds():
    """legal_plays runs Long Nardy through ``_long_plays``, the general walk written out: both
    must agree on every position and roll, under either six-block check (after each step or at
    the end of the turn), the first turn's head exception included."""
    from games.rules.moves import _long_plays, _played, _walk_plays  # noqa: PLC0415

    rng = random.Random(2025)
    checked = near_block = 0
    for variant in (LongNardy(), LongNardy(block_check="turn")):
        start = Position.initial(variant)
        played = [position for _ in range(30) for position, _ in random_turns(variant, rng)]
        blocking = [_near_block(variant, rng) for _ in range(300)]
        cases = [(start, (a, b)) for a in range(1, 7) for b in range(1, 7)] + [
            (position, roll)
            for position in played + blocking
            for roll in ((rng.randint(1, 6), rng.randint(1, 6)), (rng.randint(1, 6),) * 2)
        ]
        for position, roll in cases:
            fast_depth, fast = _long_plays(position, roll)
            walk_depth, walk = _walk_plays(position, roll)
            where = (variant.block_check, position.position_id(), roll)
            assert fast_depth == walk_depth, where
            assert fast.keys() == walk.keys(), where
            assert {
                key: (first, _played(steps, position)) for key, (steps, first) in fast.items()
            } == {key: (first, _played(steps, position)) for key, (steps, first) in walk.items()}, (
                where
            )
            checked += 1
            near_block += _longest_run(position.mover) >= 5
    assert checked > 5000
    assert near_block > 200  # positions where a step could make a six-block


def _near_block(variant: LongNardy, rng: random.Random) -> Position:
    """A random position whose mover holds five points in a row, where one step may make a
    six-block, with the opponent's checkers ahead of it or not."""
    from games.rules.moves import _OPPONENT_PATH  # noqa: PLC0415

    mover = [0] * 26
    start = rng.randrange(0, 19)
    for point in _OPPONENT_PATH[start : start + 5]:
        mover[point] = 1
    for _ in range(10):
        mover[rng.randrange(1, 25)] += 1
    opponent = [0] * 26
    free = [p for p in range(1, 25) if not mover[variant.opponent_point(p)]]
    for _ in range(rng.randrange(0, 16)):
        opponent[rng.choice(free)] += 1
    mover[0], opponent[0] = 0, 15 - sum(opponent)
    return Position(variant, tuple(mover), tuple(opponent))


def _longest_run(board: tuple[int, ...]) -> int:
    """The most points in a row the side holds, in the order the opponent passes them."""
    from games.rules.moves import _OPPONENT_PATH  # noqa: PLC0415

    longest = run = 0
    for point in _OPPONENT_PATH:
        run = run + 1 if board[point] else 0
        longest = max(longest, run)
    return longest

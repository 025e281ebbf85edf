"""Short Nardy's move generator against GNU Backgammon's, position by position.

The oracle is the ``gnubg-nn`` package (the ``oracle`` extra in pyproject.toml; GPL, so it is used
only by tests and benchmarks). Without it these tests are skipped, except on CI (``CI=true``),
where a missing oracle is an error: the differential test must have run for CI to pass.

gnubg's side of the comparison: ``board_from_position_id`` gives ``[opponent, mover]`` (25 counts
each, index i = point i + 1, index 24 = the bar); ``moves(board, d1, d2)`` moves ``board[1]`` and
returns one key per distinct resulting position (none when nothing can be played); the Position ID
of a result with the opponent on roll is ``position_id([mover_after, opponent_after])``, the same
string as our ``LegalPlay.position.position_id()``.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from games.rules import LegalPlay, Position, ShortNardy, legal_plays
from games.rules.position import BAR, OFF
from games.rules.selfplay import random_turns

if os.environ.get("CI") == "true":
    import gnubg_nn  # CI must run the oracle tests: fail here rather than skip.
else:
    gnubg_nn = pytest.importorskip(
        "gnubg_nn", reason="gnubg-nn is not installed (pip install -e '.[oracle]')"
    )

VARIANT = ShortNardy()
# Deterministic sample: these seeds, this many games each, give some 24,000 positions.
SEEDS = (1, 2, 3, 4, 5, 6)
GAMES_PER_SEED = 40
MIN_POSITIONS = 10_000
# Each kind of position the sample must hold at least this often (it holds several times more).
MIN_OF_KIND = 300
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def self_play_sample() -> Iterator[tuple[Position, tuple[int, int]]]:
    for seed in SEEDS:
        rng = random.Random(seed)
        for _ in range(GAMES_PER_SEED):
            for position, turn in random_turns(VARIANT, rng):
                yield position, turn.dice


def gnubg_results(position: Position, dice: tuple[int, int]) -> dict[str, str]:
    """gnubg's plays of ``dice``: resulting Position ID -> the play in gnubg's steps."""
    board = gnubg_nn.board_from_position_id(position.position_id())
    results = {}
    for key, steps in gnubg_nn.moves(board, dice[0], dice[1], 1):
        opponent, mover = gnubg_nn.board_from_position_key(key)
        written = " ".join(f"{_point(source)}/{_point(target)}" for source, target in steps)
        results[gnubg_nn.position_id([list(mover), list(opponent)])] = written
    return results


def gnubg_ids(position: Position, dice: tuple[int, int]) -> set[str]:
    """The Position IDs gnubg reaches with ``dice`` (the fast path: no steps)."""
    board = gnubg_nn.board_from_position_id(position.position_id())
    ids = set()
    for key in gnubg_nn.moves(board, dice[0], dice[1]):
        opponent, mover = gnubg_nn.board_from_position_key(key)
        ids.add(gnubg_nn.position_id([list(mover), list(opponent)]))
    return ids


def our_ids(plays: list[LegalPlay]) -> set[str]:
    """Our resulting Position IDs; the empty play (nothing can be played) is gnubg's no result."""
    if len(plays) == 1 and not plays[0].play.moves:
        return set()
    assert all(legal.play.moves for legal in plays), "the empty play beside other plays"
    return {legal.position.position_id() for legal in plays}


def _point(number: int) -> str:
    return "bar" if number == 25 else "off" if number == 0 else str(number)


def difference(position: Position, dice: tuple[int, int], plays: list[LegalPlay]) -> str:
    """What only one side plays, for the assertion message."""
    ours = {legal.position.position_id(): str(legal.play) for legal in plays if legal.play.moves}
    theirs = gnubg_results(position, dice)
    only_ours = [f"{ours[pid]} -> {pid}" for pid in sorted(ours.keys() - theirs.keys())]
    only_theirs = [f"{theirs[pid]} -> {pid}" for pid in sorted(theirs.keys() - ours.keys())]
    return (
        f"Position ID {position.position_id()} dice {dice[0]}{dice[1]}: "
        f"only ours {only_ours or 'none'}; only gnubg {only_theirs or 'none'}"
    )


def kinds(position: Position, plays: list[LegalPlay]) -> Iterator[str]:
    """The kinds of position the sample must cover, that this position and roll belong to."""
    if position.mover[BAR]:
        yield "mover on the bar"
    if any(legal.position.mover[BAR] > position.opponent[BAR] for legal in plays):
        yield "a play hits"
    if any(legal.position.opponent[OFF] > position.mover[OFF] for legal in plays):
        yield "a play bears off"
    if not plays[0].play.moves:
        yield "nothing can be played"


def test_short_nardy_legal_plays_match_gnubg_on_random_self_play():
    seen: Counter[str] = Counter()
    failures = []
    for position, dice in self_play_sample():
        seen["positions"] += 1
        plays = legal_plays(position, dice)
        seen.update(kinds(position, plays))
        if our_ids(plays) != gnubg_ids(position, dice):
            failures.append(difference(position, dice, plays))
    assert not failures, f"{len(failures)} of {seen['positions']} differ:\n" + "\n".join(
        failures[:20]
    )
    assert seen["positions"] >= MIN_POSITIONS, seen
    for kind in ("mover on the bar", "a play hits", "a play bears off", "nothing can be played"):
        assert seen[kind] >= MIN_OF_KIND, f"the sample lost coverage of {kind!r}: {seen}"


@pytest.mark.parametrize("dice", ROLLS, ids=[f"{high}{low}" for high, low in ROLLS])
def test_opening_play_counts_match_gnubg(dice):
    opening = Position.initial(VARIANT)
    board = gnubg_nn.board_from_position_id(opening.position_id())
    assert len(legal_plays(opening, dice)) == len(gnubg_nn.moves(board, *dice))


def test_a_difference_names_the_position_dice_and_plays_of_one_side():
    """The failure message is worth reading: check it on a fake disagreement."""
    opening = Position.initial(VARIANT)
    plays = legal_plays(opening, (3, 1))
    message = difference(opening, (3, 1), plays[1:])  # as if we had lost one play
    assert message.startswith("Position ID 4HPwATDgc/ABMA dice 31: only ours none; only gnubg [")
    assert plays[0].position.position_id() in message

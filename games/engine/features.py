"""What the network sees of a Long Nardy position: numbers in [0, 1] computed for many positions
at once with numpy.

A batch of positions is an int array ``boards`` of shape (n, 2, 26): ``boards[:, 0]`` is the side
on roll, ``boards[:, 1]`` the other side, each in its own numbering (index 0 borne off, 1..24 the
points, 24 the head; ``games.rules.position``). For each side, from its own view:

- each point's checkers, as TD-Gammon coded them: ≥ 1, ≥ 2, ≥ 3, and the rest / 4 (96 inputs);
- the checkers on the head, borne off, in the home, and the pips still to travel;
- its blocking: the longest run of held points along the opponent's path, whether the run reaches
  five (one more point is the six-block, allowed only with an opponent checker ahead of it), the
  points held in the six in front of the opponent's rearmost checker, and the same count averaged
  over every opponent checker still on the board;

and for both: race (the sides' checkers have passed each other) or contact, and the pip lead.

Then, appended so that the inputs above stay a prefix (``FIRST_SIZE``: weights made for them, as
``v1-60k`` and ``v2-230k`` are, read the same columns as before), what a blocking game turns on and
a sum of blocks cannot show, again for each side as the blocker:

- the opponent's mobility: the share of the 36 rolls that leave its rearmost checker no move,
  the same share averaged over its checkers on the board, the share of rolls with which it cannot
  move at all (every die of the roll blocked for every checker: a lost turn), and its checkers
  held behind four blocked dice of six (trapped);
- its own crossovers: the quarters its checkers still have to cross to reach the home

(all naught in a race, where nothing blocks); and for both, the pip lead against the mover's pips
(what a race's chances turn on).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from games.rules.position import Position

Boards = npt.NDArray[np.int16]
Features = npt.NDArray[np.floating[Any]]

POINTS = 24
HEAD = 24
CHECKERS = 15
#: The mover's points in the order the opponent passes them (RULES.md, the six-block rule).
OPPONENT_PATH = (*range(12, 0, -1), *range(24, 12, -1))


def _opponent_point(point: int) -> int:
    """The other side's number for the mover's ``point`` (Long Nardy's heads face each other)."""
    return point + 12 if point <= 12 else point - 12


def _ahead_matrix() -> npt.NDArray[np.float32]:
    """``AHEAD[q, p]`` is 1 when the mover's point ``p`` is one of the six points an opponent
    checker on its own point ``q`` lands on next (q-1 … q-6, home points only while on the
    board): a held ``p`` blocks it."""
    ahead = np.zeros((POINTS + 1, POINTS + 1), dtype=np.float32)
    for q in range(1, POINTS + 1):
        for step in range(1, 7):
            if q - step >= 1:
                ahead[q, _opponent_point(q - step)] = 1.0
    return ahead


AHEAD = _ahead_matrix()
_PATH = np.array(OPPONENT_PATH)
_PIPS = np.arange(26, dtype=np.float32)
_PIPS[25] = 0.0
PER_SIDE = 4 * POINTS + 8
#: The inputs of the first weights (``v1-60k``, ``v2-230k``): a prefix of today's.
FIRST_SIZE = 2 * PER_SIDE + 2
MOBILITY_PER_SIDE = 5
SIZE = FIRST_SIZE + 2 * MOBILITY_PER_SIDE + 1
#: The input that says race (1) or contact (0): the network routes each row by it.
RACE = 2 * PER_SIDE


def boards_of(positions: Sequence[Position]) -> Boards:
    """The ``(n, 2, 26)`` boards of positions, the side on roll first."""
    flat = [position.mover + position.opponent for position in positions]
    return np.array(flat, dtype=np.int16).reshape(len(flat), 2, 26)


def encode(boards: Boards, size: int = SIZE) -> Features:
    """The network's inputs, one row a position: the first ``size`` numbers (``FIRST_SIZE`` for
    weights made before the mobility inputs, which then cost nothing)."""
    mover, other = boards[:, 0, :].astype(np.float32), boards[:, 1, :].astype(np.float32)
    mover_pips, other_pips = mover @ _PIPS, other @ _PIPS
    mover_rear, other_rear = _rearmost(mover), _rearmost(other)
    race = (mover_rear <= 12) & (other_rear <= 12)
    columns = [
        _side(mover, other, mover_pips, other_rear),
        _side(other, mover, other_pips, mover_rear),
        race[:, None].astype(np.float32),
        np.clip((other_pips - mover_pips) / 100.0, -1.0, 1.0)[:, None],
    ]
    if size > FIRST_SIZE:
        columns += [
            _mobility(mover, other, other_rear) * ~race[:, None],
            _mobility(other, mover, mover_rear) * ~race[:, None],
            np.clip((other_pips - mover_pips) / np.maximum(mover_pips, 10.0), -1.0, 1.0)[:, None],
        ]
    return np.concatenate(columns, axis=1, dtype=np.float32)


def _side(
    own: npt.NDArray[np.float32],
    other: npt.NDArray[np.float32],
    pips: npt.NDArray[np.float32],
    rearmost: npt.NDArray[np.intp],
) -> Features:
    """``own``'s columns; ``rearmost`` is the other side's rearmost point (``_rearmost``)."""
    points = own[:, 1:25]
    held = points > 0
    longest = _longest_run(held[:, _PATH - 1])
    # The points held in front of each of the other side's points (its own numbering).
    blocking = np.concatenate([np.zeros((len(own), 1), np.float32), held], axis=1) @ AHEAD.T
    on_board = other[:, 1:25]
    front = np.take_along_axis(blocking, rearmost[:, None], axis=1)[:, 0]
    spread = (on_board * blocking[:, 1:25]).sum(axis=1) / np.maximum(on_board.sum(axis=1), 1.0)
    return np.concatenate(
        [
            held,
            points >= 2,
            points >= 3,
            np.maximum(points - 3.0, 0.0) / 4.0,
            np.stack(
                [
                    own[:, HEAD] / CHECKERS,
                    own[:, 0] / CHECKERS,
                    own[:, 1:7].sum(axis=1) / CHECKERS,
                    pips / 360.0,
                    longest / 6.0,
                    longest >= 5,
                    front / 6.0,
                    spread / 6.0,
                ],
                axis=1,
            ),
        ],
        axis=1,
        dtype=np.float32,
    )


def _landing_table() -> npt.NDArray[np.intp]:
    """``LANDING[q, d]``: the column of ``[held points of the blocker…, blocked]`` that decides
    whether a checker on the opponent's point ``q`` may move a die ``d + 1``: the blocker's own
    number for its landing point, or the last column (always blocked) when it would leave the
    board (bearing off is the race's business, not the blocks')."""
    landing = np.full((POINTS + 1, 6), POINTS, dtype=np.intp)
    for q in range(1, POINTS + 1):
        for die in range(1, 7):
            if q - die >= 1:
                landing[q, die - 1] = _opponent_point(q - die) - 1
    return landing


_LANDING = _landing_table()
_QUARTERS = np.array([0.0, *[(point - 1) // 6 for point in range(1, POINTS + 1)], 0.0], np.float32)


def _mobility(
    own: npt.NDArray[np.float32], other: npt.NDArray[np.float32], rearmost: npt.NDArray[np.intp]
) -> Features:
    """What ``own``'s points leave the ``other`` side free to do (the rule of a held point: one
    checker closes it; ``rearmost`` is the other's rearmost point), and ``own``'s crossovers;
    ``MOBILITY_PER_SIDE`` columns."""
    n = len(own)
    closed = np.concatenate([own[:, 1:25] > 0, np.ones((n, 1), bool)], axis=1)
    blocked = closed[:, _LANDING]  # (n, 25, 6): the other side's point q, die d
    stuck = blocked.sum(axis=2, dtype=np.float32) ** 2 / 36.0  # rolls that leave q no move
    on_board = other[:, 1:25]
    count = on_board.sum(axis=1)
    rear_stuck = np.where(count > 0, np.take_along_axis(stuck, rearmost[:, None], axis=1)[:, 0], 0)
    mean_stuck = (on_board * stuck[:, 1:]).sum(axis=1) / np.maximum(count, 1.0)
    occupied = (on_board > 0)[:, :, None]
    dead_dice = np.where(count > 0, (blocked[:, 1:] | ~occupied).all(axis=1).sum(axis=1), 0)
    trapped = (on_board * (blocked[:, 1:].sum(axis=2) >= 4)).sum(axis=1) / CHECKERS
    crossovers = own @ _QUARTERS / (3.0 * CHECKERS)
    return np.stack(
        [rear_stuck, mean_stuck, dead_dice.astype(np.float32) ** 2 / 36.0, trapped, crossovers],
        axis=1,
    ).astype(np.float32)


def _rearmost(own: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
    """Each row's highest occupied point (0 when every checker is borne off)."""
    occupied = own[:, 1:25] > 0
    highest = POINTS - np.argmax(occupied[:, ::-1], axis=1)
    return np.where(occupied.any(axis=1), highest, 0)


def _run_tables() -> tuple[npt.NDArray[np.float32], ...]:
    """For each 12-bit pattern of held points: its longest run, and the runs it starts and ends
    with, so that the longest run of 24 points is found from its two halves by lookups."""
    longest, prefix, suffix = (np.zeros(1 << 12, np.float32) for _ in range(3))
    for bits in range(1 << 12):
        held = [(bits >> i) & 1 for i in range(12)]
        run = best = 0
        for one in held:
            run = run + 1 if one else 0
            best = max(best, run)
        longest[bits] = best
        prefix[bits] = next((i for i, one in enumerate(held) if not one), 12)
        suffix[bits] = next((i for i, one in enumerate(reversed(held)) if not one), 12)
    return longest, prefix, suffix


_LONGEST, _PREFIX, _SUFFIX = _run_tables()
_BITS = (1 << np.arange(12)).astype(np.int64)


def _longest_run(held: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    """The longest run of True in each row of 24, capped at 7 (a six-block and more is all the
    network needs to know)."""
    first = held[:, :12].astype(np.int64) @ _BITS
    second = held[:, 12:].astype(np.int64) @ _BITS
    across = _SUFFIX[first] + _PREFIX[second]
    longest: Features = np.minimum(
        np.maximum(np.maximum(_LONGEST[first], _LONGEST[second]), across), 7.0
    )
    return longest

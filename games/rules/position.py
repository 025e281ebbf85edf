"""Positions: checker counts per side in each side's own numbering, gnubg Position IDs, JSON.

A side's checkers are a 26-tuple indexed by point: index 0 holds the checkers borne off, 1..24 the
points, 25 the bar (Short Nardy only). With this layout every move is "from a higher index to a
lower one": entering from the bar with a 3 is 25 → 22, bearing off from 2 with a 2 is 2 → 0.
"""

from __future__ import annotations

import base64
import binascii
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.errors import NotationError, Template, quoted
from games.rules.variants import Variant, variant_named

# Why a position cannot be read or cannot be (games.rules.errors).
NO_POINT = Template("no-point", "no point %(point)s")
ID_LENGTH = Template("position-id-length", "a Position ID has 14 characters: %(id)s")
ID_NOT_BASE64 = Template("position-id-base64", "not a Position ID (bad base64): %(id)s")
ID_TOO_MANY = Template("position-id-too-many", "too many checkers in Position ID %(id)s")
ID_SIDE_TOO_MANY = Template(
    "position-id-side-too-many", "more than 15 checkers for one side in %(id)s"
)
ID_TRAILING = Template("position-id-trailing", "trailing bits in Position ID %(id)s")
OTHER_VARIANT = Template("position-variant", "position is for %(position)s, not %(variant)s")
NOT_JSON_POSITION = Template("position-json", "not a position in JSON form: %(error)s")
POINT_COUNTS = Template("position-point-counts", "each side needs a list of 24 point counts")
NEGATIVE_COUNTS = Template(
    "position-negative-counts", "checker counts must be whole numbers, not negative"
)
SIDE_COUNTS = Template(
    "position-side-counts", "a side is 26 non-negative counts: off, points 1..24, bar"
)
FIFTEEN = Template("position-fifteen", "each side has 15 checkers, not %(n)s")
NO_BAR = Template("no-bar", "Long Nardy has no bar")
BOTH_SIDES = Template("position-both-sides", "point %(point)s holds checkers of both sides")

CHECKERS = 15
OFF = 0
BAR = 25
HEAD = 24
Board = tuple[int, ...]


class Colour(enum.Enum):
    """White moves first in a game; Black second."""

    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


@dataclass(frozen=True, slots=True)
class Position:
    """Whose turn it is and where every checker stands.

    ``mover`` is the side on roll, ``opponent`` the other, each in its own numbering; ``turn`` says
    which colour the mover plays.
    """

    variant: Variant
    mover: Board
    opponent: Board
    turn: Colour = Colour.WHITE

    def __post_init__(self) -> None:
        _validate(self.variant, self.mover, self.opponent)

    @classmethod
    def _trusted(cls, variant: Variant, mover: Board, opponent: Board, turn: Colour) -> Position:
        """Build without validation: the move generator makes only valid positions.

        The slots are set through their descriptors, the fastest way past ``frozen``.
        """
        position = object.__new__(cls)
        _SET_VARIANT(position, variant)
        _SET_MOVER(position, mover)
        _SET_OPPONENT(position, opponent)
        _SET_TURN(position, turn)
        return position

    @classmethod
    def initial(cls, variant: Variant) -> Position:
        """The starting position, White on roll."""
        board = [0] * 26
        if variant.name == "long":
            board[HEAD] = CHECKERS
        else:
            board[24], board[13], board[8], board[6] = 2, 5, 3, 5
        return cls(variant, tuple(board), tuple(board), Colour.WHITE)

    @classmethod
    def from_points(
        cls,
        variant: Variant,
        mover: Mapping[int, int],
        opponent: Mapping[int, int],
        turn: Colour = Colour.WHITE,
    ) -> Position:
        """Build a position from ``{point: count}`` per side (25 = bar); the rest are borne off.

        >>> from games.rules.variants import LongNardy
        >>> Position.from_points(LongNardy(), {24: 14, 18: 1}, {24: 15}).mover[24]
        14
        """
        boards = []
        for points in (mover, opponent):
            board = [0] * 26
            for point, count in points.items():
                if not 1 <= point <= BAR:
                    raise NotationError(NO_POINT(point=point))
                board[point] = count
            board[OFF] = CHECKERS - sum(board)
            boards.append(tuple(board))
        return cls(variant, boards[0], boards[1], turn)

    def swapped(self) -> Position:
        """The same checkers with the other side on roll (as after a play)."""
        return Position._trusted(self.variant, self.opponent, self.mover, self.turn.other)

    def side(self, colour: Colour) -> Board:
        return self.mover if colour is self.turn else self.opponent

    @property
    def white(self) -> Board:
        return self.side(Colour.WHITE)

    @property
    def black(self) -> Board:
        return self.side(Colour.BLACK)

    def is_first_turn(self) -> bool:
        """Long Nardy's first turn of a game: the mover still has all 15 checkers on its head."""
        return self.mover[HEAD] == CHECKERS

    # --- gnubg Position ID -------------------------------------------------------------------

    def position_id(self) -> str:
        """The 14-character gnubg Position ID: the opponent's checkers first, then the mover's."""
        bits = 0
        shift = 0
        for board in (self.opponent, self.mover):
            for point in range(1, 26):
                count = board[point]
                bits |= ((1 << count) - 1) << shift
                shift += count + 1
        return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]

    @classmethod
    def from_position_id(
        cls, position_id: str, variant: Variant, turn: Colour = Colour.WHITE
    ) -> Position:
        """Read a gnubg Position ID; ``turn`` names the colour on roll (the ID does not say)."""
        if not isinstance(position_id, str) or len(position_id) != 14:
            raise NotationError(ID_LENGTH(id=quoted(position_id)))
        try:
            key = base64.b64decode(position_id + "==", validate=True)
        except (binascii.Error, ValueError):
            raise NotationError(ID_NOT_BASE64(id=quoted(position_id))) from None
        bits = int.from_bytes(key, "little")
        boards: list[list[int]] = []
        for _ in range(2):
            board = [0] * 26
            for point in range(1, 26):
                while bits & 1:
                    board[point] += 1
                    bits >>= 1
                    if board[point] > CHECKERS:
                        raise NotationError(ID_TOO_MANY(id=quoted(position_id)))
                bits >>= 1
            placed = sum(board)
            if placed > CHECKERS:
                raise NotationError(ID_SIDE_TOO_MANY(id=quoted(position_id)))
            board[OFF] = CHECKERS - placed
            boards.append(board)
        if bits:
            raise NotationError(ID_TRAILING(id=quoted(position_id)))
        opponent, mover = boards
        return cls(variant, tuple(mover), tuple(opponent), turn)

    # --- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON form of RULES.md: each colour's counts on its own points 1..24."""
        white, black = self.white, self.black
        return {
            "variant": self.variant.name,
            "turn": self.turn.value,
            "white": list(white[1:25]),
            "black": list(black[1:25]),
            "bar": {"white": white[BAR], "black": black[BAR]},
            "off": {"white": white[OFF], "black": black[OFF]},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], variant: Variant | None = None) -> Position:
        """Read the JSON form; ``variant`` (with its switches) overrides the name in ``data``."""
        try:
            if variant is None:
                variant = variant_named(data["variant"])
            elif data.get("variant", variant.name) != variant.name:
                raise NotationError(
                    OTHER_VARIANT(position=quoted(data["variant"]), variant=repr(variant.name))
                )
            turn = Colour(data["turn"])
            boards = {
                colour: _board_from_json(
                    data[colour.value], data["bar"][colour.value], data["off"][colour.value]
                )
                for colour in Colour
            }
        except NotationError:
            raise
        # AttributeError: not a mapping; RecursionError: a value nested too deeply to name.
        except (AttributeError, KeyError, TypeError, ValueError, RecursionError) as error:
            raise NotationError(NOT_JSON_POSITION(error=str(error))) from None
        return cls(variant, boards[turn], boards[turn.other], turn)


_SET_VARIANT = Position.__dict__["variant"].__set__
_SET_MOVER = Position.__dict__["mover"].__set__
_SET_OPPONENT = Position.__dict__["opponent"].__set__
_SET_TURN = Position.__dict__["turn"].__set__


def _board_from_json(points: Sequence[int], bar: int, off: int) -> Board:
    if not isinstance(points, Sequence) or len(points) != 24:
        raise NotationError(POINT_COUNTS())
    values = [off, *points, bar]
    if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
        raise NotationError(NEGATIVE_COUNTS())
    return tuple(values)


def _validate(variant: Variant, mover: Board, opponent: Board) -> None:
    for board in (mover, opponent):
        if len(board) != 26 or any(count < 0 for count in board):
            raise NotationError(SIDE_COUNTS())
        if sum(board) != CHECKERS:
            raise NotationError(FIFTEEN(n=sum(board)))
    if not variant.hitting and (mover[BAR] or opponent[BAR]):
        raise NotationError(NO_BAR())  # Long Nardy, the one game without
    for point in range(1, 25):
        if mover[point] and opponent[variant.opponent_point(point)]:
            raise NotationError(BOTH_SIDES(point=point))

"""Legal plays: the move generator and the checker of recorded plays.

Both stand on one turn state, ``_Turn``, which knows the single-step rules of the variant (landing,
the bar, the head, bearing off, the six-block); ``_HidingTurn`` adds Short Nardy's house rule
no-hit-and-hide, so that games without it pay nothing for it. ``legal_plays`` walks every order of
single steps and keeps, per resulting position, one play that uses as many dice as possible (Short
Nardy without house rules, the hot path, has the same walk written out in ``_backgammon_plays``);
``check_play`` only looks for one way to realise the recorded play and then asks whether more dice
could have been used, so it never enumerates all legal plays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import compress
from typing import Any

from games.rules.errors import IllegalPlayError, NotationError, Reason, Template
from games.rules.notation import Move, Play, parse_dice
from games.rules.position import BAR, CHECKERS, HEAD, NO_BAR, OFF, Board, Colour, Position
from games.rules.variants import LongNardy, ShortNardy, Variant

# Why a play is refused (games.rules.errors: the site says each in its reader's language).
BAR_FIRST = Template("bar-first", "a checker on the bar must enter first")
NO_CHECKER_ON_BAR = Template("no-checker-on-bar", "no checker on the bar")
NO_CHECKER_ON_POINT = Template("no-checker-on-point", "no checker on point %(point)s")
HELD = Template("point-held", "point %(point)s is held by the opponent")
HEAD_ONCE = Template("head-once", "a second checker may not leave the head on this turn")
NOT_HOME = Template(
    "bear-off-not-home",
    "cannot bear off: %(n)s checker is outside the home",
    plural="cannot bear off: %(n)s checkers are outside the home",
    count="n",
)
HIGHER = Template(
    "bear-off-higher",
    "cannot bear off from %(point)s with a %(die)s: a checker stands on a higher point",
)
HIDE = Template(
    "hit-and-hide",
    "the checker on %(source)s has hit and may not stop on %(target)s beside its own checkers "
    "(no hit-and-hide)",
)
TOO_FEW_DICE = Template(
    "too-few-dice", "%(most)s of %(all)s dice can be played, this play uses %(used)s"
)
HIGHER_DIE = Template("higher-die", "only one die can be played: it must be the %(die)s")
CANNOT_PLAY = Template("cannot-play", "the dice %(dice)s cannot play %(play)s")
CANNOT_PLAY_NOTHING = Template("cannot-play-nothing", "the dice %(dice)s cannot play nothing")
NOT_DOWNWARD = Template("not-downward", "%(move)s does not run from a higher point to a lower one")
SIX_BLOCK = Template(
    "six-block", "six-block on points %(first)s\u2013%(last)s with no opponent checker ahead"
)
HITS_NOTHING = Template(
    "hits-nothing", "%(move)s* hits nothing: no opponent checker alone on point %(point)s"
)
HIT_UNMARKED = Template(
    "hit-unmarked", "%(move)s hits a checker on point %(point)s but is not marked with *"
)
# A play the opponent accepted as made (physical_play)
NONE_TO_MOVE_ON_BAR = Template(
    "none-to-move-on-bar", "there is no checker of the player to move on the bar"
)
NONE_TO_MOVE_ON_POINT = Template(
    "none-to-move-on-point", "there is no checker of the player to move on point %(point)s"
)
NO_DICE_LEFT = Template(
    "no-dice-left",
    "no dice of the roll left take a checker from %(source)s to %(target)s where a checker "
    "can stand",
)
THE_BAR = Template("the-bar", "the bar")
OFF_THE_BOARD = Template("off-the-board", "off")
POINT = Template("point", "point %(point)s")

Dice = tuple[int, int]
Step = tuple[int, int, bool]  # source, target, hit

# Reasons a single step is refused; 0 means it is allowed.
_OK, _BAR_FIRST, _NO_CHECKER, _HELD, _HEAD, _NOT_HOME, _HIGHER, _HIDE = range(8)

# Long Nardy: the mover's points in the order the opponent passes them (12 … 1, 24 … 13).
_OPPONENT_PATH = (*range(12, 0, -1), *range(24, 12, -1))
_PATH_INDEX = {point: index for index, point in enumerate(_OPPONENT_PATH)}
_OPPONENT_POINTS = {
    variant.name: (0, *(variant.opponent_point(p) for p in range(1, 25)), 0)
    for variant in (LongNardy(), ShortNardy())
}
_OTHER = {Colour.WHITE: Colour.BLACK, Colour.BLACK: Colour.WHITE}
# Adding UNIT[i] to a key adds one checker on index i (4 bits per index, counts stay below 16).
_UNIT = tuple(1 << (4 * i) for i in range(52))
# The points from each point down to 1, for picking the occupied ones with ``compress``.
_DESCENDING = tuple(tuple(range(point, 0, -1)) for point in range(25))
# _FREED: a search written as a closure that calls itself refers to itself through its cell, a
# cycle that only the garbage collector would free, with everything the search holds; the
# collector then ran thousands of times a second. Each such search is deleted when it is done,
# so that reference counting frees it at once: checking the corpus went from 5.2 s to 4.1 s.
# Keys stay within ±16**52 = ±2**208: a hitter mask shifted this far keeps (key, hitters) apart.
_HITTER_SHIFT = 256


class LegalPlay(tuple[tuple[int, ...], Position, Position | None]):
    """A play and the position it is played from; equal when the positions they lead to are.

    A triple (step codes, position before, position after or None) under the hood, because the
    generator makes millions: it leaves the position after to be made when asked for (search and
    self-play read one of a roll's plays, and building every one up front was a quarter of the
    generator's time), while ``check_play``, which has it at hand, keeps it. The ``Play`` is made
    only when asked for.
    """

    __slots__ = ()

    def __new__(cls, play: Play, before: Position) -> LegalPlay:
        return tuple.__new__(cls, (tuple(_code(*move) for move in play.moves), before, None))

    @property
    def position(self) -> Position:
        """The position the play leads to, the opponent on roll."""
        codes, before, after = self
        return after if after is not None else _played(codes, before)

    @property
    def play(self) -> Play:
        return Play(tuple([_move(code) for code in self[0]]))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalPlay):
            return NotImplemented
        return self.position == other.position

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, LegalPlay):
            return NotImplemented
        return self.position != other.position

    def __hash__(self) -> int:
        return hash(self.position)

    def __str__(self) -> str:
        return str(self.play)

    def __repr__(self) -> str:
        return f"LegalPlay({self.play!r}, {self.position!r})"


def _played(codes: tuple[int, ...], before: Position) -> Position:
    """The position after the steps ``codes`` from ``before``, the opponent on roll."""
    me, opp = list(before.mover), list(before.opponent)
    opp_point = _OPPONENT_POINTS[before.variant.name]
    for code in codes:
        source, target = code >> 6, code >> 1 & 31
        me[source] -= 1
        me[target] += 1
        if code & 1:
            opp[opp_point[target]] = 0
            opp[BAR] += 1
    return Position._trusted(before.variant, tuple(opp), tuple(me), _OTHER[before.turn])


def _code(source: int, target: int, hit: bool) -> int:
    """One step as a small int (kept by the generator instead of a tuple: no garbage to track)."""
    return source << 6 | target << 1 | hit


def _move(code: int) -> Move:
    return tuple.__new__(Move, (code >> 6, code >> 1 & 31, bool(code & 1)))


class _Turn:
    """The mutable state of one turn: checkers moved so far, hits, head moves."""

    __slots__ = (
        "position", "me", "opp", "opp_point", "outside", "head_start", "head_limit",
        "hitting", "block_rule", "key", "hitters",
    )  # fmt: skip

    def __init__(self, position: Position, dice: Dice) -> None:
        variant = position.variant
        self.position = position
        self.me = list(position.mover)
        self.opp = list(position.opponent)
        self.opp_point = _OPPONENT_POINTS[variant.name]
        self.outside = sum(self.me[7:26])
        self.hitting = variant.hitting
        self.block_rule = variant.six_block_rule
        self.head_start = self.me[HEAD]
        self.head_limit = _head_limit(position, dice) if variant.head_rule else CHECKERS
        # The key of the position reached, relative to the start: the sum of count changes times
        # 16**index. Changes stay within -15..15, so different positions have different keys.
        self.key = 0
        # Points holding a checker that has hit this turn, as bits (only ``_HidingTurn`` sets any).
        self.hitters = 0

    def problem(self, source: int, die: int) -> int:
        """Why one checker may not move from ``source`` by ``die`` now, or 0 when it may."""
        me = self.me
        if me[BAR] and source != BAR:
            return _BAR_FIRST
        if not me[source]:
            return _NO_CHECKER
        target = source - die
        if target <= 0:
            if self.outside:
                return _NOT_HOME
            if target < 0:
                for point in range(source + 1, 7):
                    if me[point]:
                        return _HIGHER
            return _OK
        opponents = self.opp[self.opp_point[target]]
        if opponents and (not self.hitting or opponents > 1):
            return _HELD
        if source == HEAD and self.head_start - me[HEAD] >= self.head_limit:
            return _HEAD
        return _OK

    def move(self, source: int, die: int) -> Step:
        """Make an allowed step (see ``problem``) and return it for ``undo``."""
        me = self.me
        target = source - die
        if target < 0:
            target = OFF
        me[source] -= 1
        me[target] += 1
        self.key += _UNIT[target] - _UNIT[source]
        if source > 6 >= target:
            self.outside -= 1
        hit = False
        if target and self.hitting:
            opp_index = self.opp_point[target]
            if self.opp[opp_index]:
                self.opp[opp_index] = 0
                self.opp[BAR] += 1
                self.key += _UNIT[26 + BAR] - _UNIT[26 + opp_index]
                hit = True
        return source, target, hit

    def undo(self, step: Step) -> None:
        source, target, hit = step
        me = self.me
        me[source] += 1
        me[target] -= 1
        self.key += _UNIT[source] - _UNIT[target]
        if source > 6 >= target:
            self.outside += 1
        if hit:
            opp_index = self.opp_point[target]
            self.opp[opp_index] = 1
            self.opp[BAR] -= 1
            self.key += _UNIT[26 + opp_index] - _UNIT[26 + BAR]

    def switch(self) -> bool:
        """Move the other identity in the last step, when that leads elsewhere (``_HidingTurn``)."""
        return False

    def block_after(self, step: Step) -> tuple[int, int] | None:
        """A forbidden six-block through the point ``step`` just occupied, as (first, last)."""
        target = step[1]
        if not self.block_rule or target == OFF or self.me[target] != 1:
            return None
        return _block_through(self.me, self.opp, self.opp_point, target)

    def block_anywhere(self) -> tuple[int, int] | None:
        """A forbidden six-block anywhere on the board (the end-of-turn check)."""
        if not self.block_rule:
            return None
        return _block_on_board(self.me, self.opp, self.opp_point)

    def sources(self) -> Sequence[int]:
        me = self.me
        if me[BAR]:
            return (BAR,)
        return [point for point in range(24, 0, -1) if me[point]]

    def result(self) -> Position:
        position = self.position
        return Position._trusted(
            position.variant, tuple(self.opp), tuple(self.me), _OTHER[position.turn]
        )

    def explain(self, problem: int, source: int, die: int) -> Reason:
        target = source - die
        if problem == _BAR_FIRST:
            return BAR_FIRST()
        if problem == _NO_CHECKER:
            return NO_CHECKER_ON_BAR() if source == BAR else NO_CHECKER_ON_POINT(point=source)
        if problem == _HELD:
            return HELD(point=target)
        if problem == _HEAD:
            return HEAD_ONCE()
        if problem == _NOT_HOME:
            return NOT_HOME(n=self.outside)
        if problem == _HIGHER:
            return HIGHER(point=source, die=die)
        if problem == _HIDE:
            return HIDE(source=source, target=target)
        raise AssertionError(problem)


def _block_through(
    me: Sequence[int], opp: Sequence[int], opp_point: Sequence[int], point: int
) -> tuple[int, int] | None:
    """A forbidden six-block of the mover's through ``point`` (held), as (first, last)."""
    index = _PATH_INDEX[point]
    first = index
    while first > 0 and me[_OPPONENT_PATH[first - 1]]:
        first -= 1
    last = index
    while last < 23 and me[_OPPONENT_PATH[last + 1]]:
        last += 1
    if last - first < 5 or _opponent_ahead(opp, opp_point, last):
        return None
    return _OPPONENT_PATH[first], _OPPONENT_PATH[last]


def _block_on_board(
    me: Sequence[int], opp: Sequence[int], opp_point: Sequence[int]
) -> tuple[int, int] | None:
    """A forbidden six-block of the mover's anywhere on the board, as (first, last)."""
    first = None
    for index in range(25):
        held = index < 24 and me[_OPPONENT_PATH[index]] > 0
        if held and first is None:
            first = index
        elif not held and first is not None:
            last = index - 1
            if last - first >= 5 and not _opponent_ahead(opp, opp_point, last):
                return _OPPONENT_PATH[first], _OPPONENT_PATH[last]
            first = None
    return None


def _opponent_ahead(opp: Sequence[int], opp_point: Sequence[int], last: int) -> bool:
    """Whether an opponent checker stands ahead of a block ending at path index ``last``."""
    return any(opp[opp_point[_OPPONENT_PATH[i]]] for i in range(last + 1, 24))


class _HidingTurn(_Turn):
    """A turn under no-hit-and-hide: it also knows which checkers have hit.

    Checkers are indistinguishable, so a play is legal when some choice of which checker makes
    each step is. At most one hitter stands on a point (a hitter never joins its own checkers), so
    the hitters are a set of points, ``hitters``. A step from a point with a hitter and other
    checkers may move either: ``move`` makes the choice that leaves fewer hitters behind, which
    allows everything the other allows, except for a step to an empty point (the hitter goes on,
    or a plain checker goes and the hitter stays), where ``switch`` then gives the other choice.
    """

    __slots__ = ("history",)

    def __init__(self, position: Position, dice: Dice) -> None:
        super().__init__(position, dice)
        # Per step made: the hitters before it, and whether ``switch`` may still change it.
        self.history: list[tuple[int, bool]] = []

    def problem(self, source: int, die: int) -> int:
        refused = _Turn.problem(self, source, die)
        if refused or not self.hitters >> source & 1 or self.me[source] > 1:
            return refused
        # The hitter stands alone: it is the checker that moves.
        target = source - die
        return _HIDE if target > 0 and self.me[target] else _OK

    def move(self, source: int, die: int) -> Step:
        before = hitters = self.hitters
        step = _Turn.move(self, source, die)
        target, hit = step[1], step[2]
        switchable = False
        if hitters >> source & 1:
            me = self.me
            if not me[source] or target == OFF or me[target] == 1:
                # The hitter moves: it was alone, or it may be the one borne off or the one that
                # goes on to a point without own checkers (then a plain checker might go instead).
                hitters ^= 1 << source
                if target:
                    hitters |= 1 << target
                    switchable = me[source] > 0 and not hit
            # else a plain checker joins its own checkers and the hitter stays.
        elif hit:
            hitters |= 1 << target
        self.history.append((before, switchable))
        self.hitters = hitters
        return step

    def undo(self, step: Step) -> None:
        _Turn.undo(self, step)
        self.hitters = self.history.pop()[0]

    def switch(self) -> bool:
        before, switchable = self.history[-1]
        if not switchable:
            return False
        # A plain checker went to the empty point: the hitter stays where it was.
        self.history[-1] = (before, False)
        self.hitters = before
        return True


def _new_turn(position: Position, dice: Dice) -> _Turn:
    variant = position.variant
    if isinstance(variant, ShortNardy) and variant.no_hit_and_hide:
        return _HidingTurn(position, dice)
    return _Turn(position, dice)


def _head_limit(position: Position, dice: Dice) -> int:
    """How many checkers may leave the head this turn: 1, or 2 by the first-turn exception.

    On its first turn, with 3-3, 4-4 or 6-6, a second checker may leave the head when one checker
    from the head could not play the whole roll because the first point that stops it is the
    opponent's head (the mover's point 12).
    """
    die = dice[0]
    if dice[1] != die or die not in (3, 4, 6) or not position.is_first_turn():
        return 1
    variant, opponent = position.variant, position.opponent
    point = HEAD
    for _ in range(4):
        point -= die
        if point <= 0:
            return 1
        if opponent[variant.opponent_point(point)]:
            return 2 if point == 12 else 1
    return 1


def _dice_list(dice: Dice) -> tuple[int, ...]:
    """The dice to play, highest first: a double four times."""
    return _DICE_LISTS[dice]


_DICE_LISTS = {
    (a, b): (a,) * 4 if a == b else (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)
}


def _block_modes(variant: Variant) -> tuple[bool, bool]:
    """Whether six-blocks are checked after every step, and whether only at the end of the turn."""
    if not isinstance(variant, LongNardy):
        return False, False
    return variant.block_check == "step", variant.block_check == "turn"


def legal_plays(position: Position, dice: Dice | str) -> list[LegalPlay]:
    """Every legal play of ``dice``, one per distinct resulting position.

    When nothing can be played the list holds the empty play, whose result is the same checkers
    with the opponent on roll.
    """
    dice = parse_dice(dice)
    variant = position.variant
    if isinstance(variant, LongNardy):
        deepest, found = _long_plays(position, dice)
    elif isinstance(variant, ShortNardy) and not variant.no_hit_and_hide:
        deepest, found = _backgammon_plays(position.mover, position.opponent, dice)
    else:
        deepest, found = _walk_plays(position, dice)
    plays = list(found.values())
    if deepest == 1 and dice[0] != dice[1]:
        with_high = [play for play in plays if play[1] == max(dice)]
        plays = with_high or plays
    new = tuple.__new__
    return [new(LegalPlay, (steps, position, None)) for steps, _ in plays]


# Plays found, by the key of the position they lead to: (step codes, die of the first step).
_Found = dict[int, tuple[tuple[int, ...], int]]


def _walk_plays(position: Position, dice: Dice) -> tuple[int, _Found]:
    """Every play at the deepest level reached, by the general walk over ``_Turn``."""
    turn = _new_turn(position, dice)
    hide = turn.__class__ is _HidingTurn
    step_blocks, end_blocks = _block_modes(position.variant)
    # Plays found at the deepest level reached so far, by key: (steps, die of the first step).
    # Shallower plays are never kept: they would be dropped anyway by the rule to use as many dice
    # as possible.
    found: _Found = {}
    deepest = 0
    # (key, dice left) already walked; under no-hit-and-hide the key includes the hitters.
    seen: set[tuple[int, tuple[int, ...]]] = set()
    path: list[Step] = []

    def keep(first_die: int) -> None:
        nonlocal deepest, found
        depth = len(path)
        # A position reached again with more dice (a checker borne off by a higher die, or by
        # smaller steps) is kept with the play that uses more.
        if depth != deepest:
            if depth < deepest or (end_blocks and turn.block_anywhere()):
                return
            deepest, found = depth, {}
        elif turn.key in found or (end_blocks and turn.block_anywhere()):
            return
        found[turn.key] = (tuple([_code(*step) for step in path]), first_die)

    def walk(left: tuple[int, ...], first_die: int) -> None:
        for i, die in enumerate(left):
            if i and die == left[i - 1]:
                continue
            rest = left[:i] + left[i + 1 :]
            for source in turn.sources():
                if turn.problem(source, die):
                    continue
                step = turn.move(source, die)
                if not (step_blocks and turn.block_after(step)):
                    path.append(step)
                    keep(first_die or die)
                    while rest:
                        state = (
                            turn.key + (turn.hitters << _HITTER_SHIFT) if hide else turn.key,
                            rest,
                        )
                        if state not in seen:
                            seen.add(state)
                            walk(rest, first_die or die)  # noqa: F821 (deleted when done: _FREED)
                        if not (hide and turn.switch()):
                            break
                    path.pop()
                turn.undo(step)

    keep(0)
    walk(_dice_list(dice), 0)
    del walk  # see _FREED
    return deepest, found


def _long_plays(position: Position, dice: Dice) -> tuple[int, _Found]:
    """Every play at the deepest level reached, for Long Nardy.

    The walk of ``_walk_plays`` with the single steps of ``_Turn`` written out (no hits and no bar
    in Long Nardy, and the opponent's checkers never move during a turn), because this is the hot
    path of Long Nardy's ``legal_plays``; a property test holds it to the general walk.
    """
    variant = position.variant
    assert isinstance(variant, LongNardy)
    me, opp = list(position.mover), position.opponent
    opp_point = _OPPONENT_POINTS[variant.name]
    # The opponent's checkers on each of the mover's points 1..24 (its 13..24, then 1..12).
    held = (1, *opp[13:25], *opp[1:13])
    step_blocks = variant.block_check == "step"
    head_start, head_limit = me[HEAD], _head_limit(position, dice)
    outside = sum(me[7:25])
    unit, descending = _UNIT, _DESCENDING[24]
    found: _Found = {}
    deepest = 0
    key = 0
    seen: set[tuple[int, tuple[int, ...]]] = set()
    path: list[int] = []

    def keep(first_die: int, depth: int) -> None:
        """Keep the play on ``path``: it is deeper than those found, or as deep and new."""
        nonlocal deepest, found
        if not step_blocks and _block_on_board(me, opp, opp_point):
            return
        if depth > deepest:
            deepest, found = depth, {}
        found[key] = (tuple(path), first_die)

    def walk(left: tuple[int, ...], first_die: int, depth: int) -> None:
        nonlocal key, outside
        for i, die in enumerate(left):
            if i and die == left[i - 1]:
                continue
            rest = left[:i] + left[i + 1 :]
            for source in compress(descending, me[24:0:-1]):
                target = source - die
                if target <= 0:
                    if outside or (target < 0 and any(me[source + 1 : 7])):
                        continue
                    target = 0
                elif held[target] or (source == HEAD and head_start - me[HEAD] >= head_limit):
                    continue
                me[source] -= 1
                me[target] += 1
                key += unit[target] - unit[source]
                home = source > 6 >= target
                if home:
                    outside -= 1
                blocked = (
                    step_blocks
                    and target
                    and me[target] == 1
                    and _block_through(me, opp, opp_point, target)
                )
                if not blocked:
                    path.append(source << 6 | target << 1)
                    if depth > deepest or (depth == deepest and key not in found):
                        keep(first_die or die, depth)
                    if rest and (key, rest) not in seen:
                        seen.add((key, rest))
                        walk(rest, first_die or die, depth + 1)  # noqa: F821 (deleted when done: _FREED)
                    path.pop()
                me[source] += 1
                me[target] -= 1
                key -= unit[target] - unit[source]
                if home:
                    outside += 1

    keep(0, 0)
    walk(_dice_list(dice), 0, 1)
    del walk  # see _FREED
    return deepest, found


def _backgammon_plays(mover: Board, opponent: Board, dice: Dice) -> tuple[int, _Found]:
    """Every play at the deepest level reached, for Short Nardy without house rules.

    The same rules as ``_Turn`` with every step written out, because this is the hot path of
    ``legal_plays`` (the gnubg differential test and a property test hold it to the general
    walk). With a double, steps are made from non-increasing points, as gnubg does: any play can
    be ordered so, since a step never makes a step from a higher point possible.
    """
    me, opp = list(mover), list(opponent)
    outside = sum(me[7:26])
    found: _Found = {}
    deepest = 0
    key = 0
    unit = _UNIT

    def keep(steps: tuple[int, ...], first_die: int) -> None:
        nonlocal deepest, found
        depth = len(steps)
        if depth != deepest:
            if depth < deepest:
                return
            deepest, found = depth, {}
        elif key in found:
            return
        found[key] = (steps, first_die)

    def step(source: int, die: int) -> int:
        """Make one step if it is legal and return its code (for ``back``), else 0."""
        nonlocal key, outside
        target = source - die
        if target <= 0:
            if outside:
                return 0
            if target < 0:
                for point in range(source + 1, 7):
                    if me[point]:
                        return 0
            me[source] -= 1
            me[0] += 1
            key += unit[0] - unit[source]
            return source << 6
        held = opp[25 - target]
        if held > 1:
            return 0
        me[source] -= 1
        me[target] += 1
        key += unit[target] - unit[source]
        if source > 6 >= target:
            outside -= 1
        if held:
            opp[25 - target] = 0
            opp[25] += 1
            key += unit[51] - unit[51 - target]
            return source << 6 | target << 1 | 1
        return source << 6 | target << 1

    def back(code: int) -> None:
        nonlocal key, outside
        source, target = code >> 6, code >> 1 & 31
        me[source] += 1
        me[target] -= 1
        key += unit[source] - unit[target]
        if source > 6 >= target > 0:
            outside += 1
        if code & 1:
            opp[25 - target] = 1
            opp[25] -= 1
            key += unit[51 - target] - unit[51]

    def sources(highest: int) -> list[int]:
        if me[25]:
            return [25]
        highest = min(highest, 24)
        return list(compress(_DESCENDING[highest], me[highest:0:-1]))

    def last_steps(steps: tuple[int, ...], die: int, points: list[int], first_die: int) -> None:
        """The last step of a play, from each of ``points``: most repeat a position already
        found, so only the key after it is worked out, and the board is left as it is."""
        nonlocal deepest, found
        depth = len(steps) + 1
        for source in points:
            target = source - die
            if target <= 0:
                if outside or (target < 0 and any(me[source + 1 : 7])):
                    continue
                after = key + unit[0] - unit[source]
                code = source << 6
            else:
                held = opp[25 - target]
                if held > 1:
                    continue
                after = key + unit[target] - unit[source]
                code = source << 6 | target << 1
                if held:
                    after += unit[51] - unit[51 - target]
                    code |= 1
            if depth == deepest:
                if after in found:
                    continue
            elif depth > deepest:
                deepest, found = depth, {}
            else:
                continue
            found[after] = ((*steps, code), first_die)

    def walk_double(die: int, steps: tuple[int, ...], highest: int) -> None:
        for source in sources(highest):
            made = step(source, die)
            if not made:
                continue
            more = (*steps, made)
            if len(more) >= deepest:
                keep(more, die)
            if len(more) == 3:
                last_steps(more, die, sources(source), die)
            else:
                walk_double(die, more, source)  # noqa: F821 (deleted when done: _FREED)
            back(made)

    def walk_two(first: int, second: int, again: bool) -> None:
        """Plays of ``first`` then ``second``. The second time round (``again``, the other die
        first) a second step from another point than where the first landed repeats a play
        already found, unless the first step entered from the bar or brought every checker home
        (a step never makes another checker's step possible otherwise)."""
        for source in sources(25):
            made = step(source, first)
            if not made:
                continue
            if deepest < 2:
                keep((made,), first)
            landed = made >> 1 & 31
            if not again or source == 25 or not outside:
                last_steps((made,), second, sources(25), first)
            elif landed:
                last_steps((made,), second, [landed], first)  # the same checker goes on
            back(made)

    keep((), 0)
    high, low = max(dice), min(dice)
    if high == low:
        walk_double(high, (), 25)
    else:
        walk_two(high, low, again=False)
        walk_two(low, high, again=True)
    del walk_double  # see _FREED
    return deepest, found


def most_dice_playable(position: Position, dice: Dice | str) -> int:
    """How many dice of ``dice`` some legal play uses (searching stops at the first full play)."""
    dice = parse_dice(dice)
    turn = _new_turn(position, dice)
    hide = turn.__class__ is _HidingTurn
    step_blocks, end_blocks = _block_modes(position.variant)
    everything = len(_dice_list(dice))
    best = 0
    seen: set[tuple[int, tuple[int, ...]]] = set()

    def walk(left: tuple[int, ...], depth: int) -> bool:
        nonlocal best
        if depth > best and not (end_blocks and turn.block_anywhere()):
            best = depth
            if best == everything:
                return True
        if not left:
            return False
        state = (turn.key + (turn.hitters << _HITTER_SHIFT) if hide else turn.key, left)
        if state in seen:
            return False
        seen.add(state)
        for i, die in enumerate(left):
            if i and die == left[i - 1]:
                continue
            rest = left[:i] + left[i + 1 :]
            for source in turn.sources():
                if turn.problem(source, die):
                    continue
                step = turn.move(source, die)
                done = not (step_blocks and turn.block_after(step)) and (
                    walk(rest, depth + 1) or (hide and turn.switch() and walk(rest, depth + 1))  # noqa: F821 (deleted when done: _FREED)
                )
                turn.undo(step)
                if done:
                    return True
        return False

    walk(_dice_list(dice), 0)
    del walk  # see _FREED
    return best


def check_play(position: Position, dice: Dice | str, play: Play | str) -> LegalPlay:
    """Check one recorded play and return it with the position it leads to.

    Raises ``IllegalPlayError`` saying exactly what is wrong, ``NotationError`` for bad syntax.
    The play may join one checker's steps (``24/13``) and list moves in any order; it is legal
    when some order of its single steps is legal.
    """
    dice = parse_dice(dice)
    if isinstance(play, str):
        play = Play.parse(play)
    for move in play.moves:
        if not (1 <= move.source <= BAR and OFF <= move.target < move.source):
            raise NotationError(NOT_DOWNWARD(move=str(move)))
    turn = _new_turn(position, dice)
    hide = turn.__class__ is _HidingTurn
    step_blocks, end_blocks = _block_modes(position.variant)
    segments = play.moves
    if hide and dice[0] == dice[1]:
        # Which checker makes which step matters under no-hit-and-hide, so one checker's written
        # path may be made by several: "21/16*/6" also as 21/16*, 11/6 and then 16/11. With a
        # double every step of a written move is known; without one a play has two steps, and a
        # relay could not help (a point hit on the way held no own checker to go on first).
        steps = _single_steps(segments, dice[0])
        if len(steps) <= 4:  # more steps than dice: refused below as it is written
            segments = steps
    # First look for a way that agrees with the * marks exactly (an unmarked play then hits
    # nothing); a play with no marks at all may also hit unmarked, as records that never mark
    # hits are written.
    strict = True
    progress = [move.source for move in segments]
    unfinished = [len(segments)]
    path: list[Step] = []
    dice_used: list[int] = []
    # The reason of the failed attempt that got furthest (most written moves made), first kept.
    failure: list[tuple[int, Reason]] = []

    def refuse(reason: Reason) -> IllegalPlayError:
        return IllegalPlayError(reason, play=str(play), dice=dice)

    def fail(explain: Callable[..., Reason], *details: Any) -> None:
        """Keep why this attempt failed if it got furthest; the reason is written only then."""
        made = sum(here == move.target for here, move in zip(progress, segments, strict=True))
        if not failure or made > failure[0][0]:
            failure[:] = [(made, explain(*details))]

    everything = len(_dice_list(dice))
    most: list[int] = []  # how many dice some legal play uses, found once when needed
    # Why a complete way of making the written moves still broke a rule of the whole turn.
    rejected: list[Reason] = []

    def whole_turn_problem() -> Reason | None:
        if end_blocks:
            block = turn.block_anywhere()
            if block:
                return _block_reason(block)
        used = len(path)
        if used == everything:
            return None
        if not most:
            most.append(most_dice_playable(position, dice))
        if most[0] > used:
            return TOO_FEW_DICE(most=most[0], all=everything, used=used)
        lower_die_alone = used == 1 and dice[0] != dice[1] and dice_used[0] != max(dice)
        if lower_die_alone and _can_play_alone(position, dice, max(dice)):
            return HIGHER_DIE(die=max(dice))
        return None

    def realise(left: tuple[int, ...]) -> bool:
        if not unfinished[0]:
            problem = whole_turn_problem()
            if problem is None:
                return True
            rejected.append(problem)
            return False
        tried: set[tuple[int, int, bool, int]] = set()
        for i, move in enumerate(segments):
            here, goal = progress[i], move.target
            if here == goal:
                continue
            for j, die in enumerate(left):
                if goal != OFF and here - die < goal:
                    continue  # past the written target
                attempt = (here, goal, move.hit, die)
                if attempt in tried:
                    continue
                tried.add(attempt)
                refused = turn.problem(here, die)
                if refused:
                    fail(turn.explain, refused, here, die)
                    continue
                step = turn.move(here, die)
                final = step[1] == move.target
                block = step_blocks and turn.block_after(step)
                if block:
                    fail(_block_reason, block)
                elif strict and step[2] != (move.hit and final):
                    fail(_hit_reason, step, move.hit and final)
                else:
                    progress[i] = step[1]
                    unfinished[0] -= final
                    path.append(step)
                    dice_used.append(die)
                    rest = left[:j] + left[j + 1 :]
                    if realise(rest) or (hide and turn.switch() and realise(rest)):  # noqa: F821 (deleted when done: _FREED)
                        return True
                    progress[i] = here
                    unfinished[0] += final
                    path.pop()
                    dice_used.pop()
                turn.undo(step)
        return False

    found = realise(_dice_list(dice))
    if not found and not any(move.hit for move in segments):
        strict = False
        found = realise(_dice_list(dice))
    del realise  # see _FREED
    if not found:
        if rejected:
            error = refuse(rejected[0])
        elif failure and _fits_dice(segments, dice):
            error = refuse(failure[0][1])
        else:
            shown = f"{dice[0]}-{dice[1]}"
            written = str(play)
            refused = (
                CANNOT_PLAY(dice=shown, play=written)
                if written
                else CANNOT_PLAY_NOTHING(dice=shown)
            )
            error = refuse(refused)
        # One checker's path written in steps that cannot be made in that order may still be a
        # legal play: gnubg exports 5/3/off (4-2) as "5/1 1/off". Plays are equal by their
        # effect, so the joined path (5/off) is tried before the play is refused.
        joined = Play.parse(str(play))
        if joined.moves != play.moves:
            try:
                return check_play(position, dice, joined)
            except IllegalPlayError:
                pass
        raise error
    codes = tuple([_code(*step) for step in path])
    return tuple.__new__(LegalPlay, (codes, position, turn.result()))


def _can_play_alone(position: Position, dice: Dice, die: int) -> bool:
    # One step from the start: no checker has hit yet, so no-hit-and-hide refuses nothing here
    # (the turn still applies it, as every other search does).
    turn = _new_turn(position, dice)
    step_blocks, end_blocks = _block_modes(position.variant)
    for source in turn.sources():
        if turn.problem(source, die):
            continue
        step = turn.move(source, die)
        blocked = (step_blocks and turn.block_after(step)) or (end_blocks and turn.block_anywhere())
        turn.undo(step)
        if not blocked:
            return True
    return False


def _single_steps(moves: Sequence[Move], die: int) -> tuple[Move, ...]:
    """The written moves cut into single steps of ``die`` (a move it cannot make stays whole)."""
    steps: list[Move] = []
    for move in moves:
        source, target = move.source, move.target
        if target and (source - target) % die:
            steps.append(move)
            continue
        while source - die > target:
            steps.append(Move(source, source - die))
            source -= die
        steps.append(Move(source, target, move.hit))
    return tuple(steps)


def _fits_dice(segments: Sequence[Move], dice: Dice) -> bool:
    """Whether the written moves could be made with these dice at all, ignoring the board."""

    def fit(index: int, left: tuple[int, ...]) -> bool:
        if index == len(segments):
            return True
        move = segments[index]
        for chosen in _sub_sequences(left):
            total = sum(chosen)
            reaches = total == move.distance or (
                move.target == OFF and total > move.distance and total - chosen[-1] < move.distance
            )
            if reaches:
                rest = list(left)
                for die in chosen:
                    rest.remove(die)
                if fit(index + 1, tuple(rest)):  # noqa: F821 (deleted when done: _FREED)
                    return True
        return False

    fits = fit(0, _dice_list(dice))
    del fit  # see _FREED
    return fits


def _sub_sequences(dice: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every non-empty ordered choice of distinct dice from ``dice`` (at most 4 of them)."""
    for i, die in enumerate(dice):
        yield (die,)
        for more in _sub_sequences(dice[:i] + dice[i + 1 :]):
            yield (die, *more)


def _block_reason(block: tuple[int, int]) -> Reason:
    return SIX_BLOCK(first=block[0], last=block[1])


def _hit_reason(step: Step, expected: bool) -> Reason:
    source, target, hit = step
    if expected:
        return HITS_NOTHING(move=f"{source}/{target}", point=target)
    return HIT_UNMARKED(move=f"{source}/{target}", point=target)


def physical_play(position: Position, dice: Dice | str, play: Play | str) -> LegalPlay:
    """A play the opponent accepted as it was made (seed 001: an incomplete or illegal play
    stands when the opponent accepts it), made as the checkers physically move.

    Each written move goes from a point where the mover has a checker by dice of the roll, each
    die used once (a double's four times), landing only where a checker can stand: not on the
    opponent's checkers (Long Nardy), not on two or more of them (Short Nardy, where one is hit,
    on the way too). A checker may be borne off by a die as large as its distance or larger.
    What the rules of the turn ask (every die played, the bar first, all checkers home before
    bearing off, the head, the six-block) is not asked: the opponent accepted it. A play that
    is not even a physical move raises ``IllegalPlayError`` saying why.
    """
    dice = parse_dice(dice)
    if isinstance(play, str):
        play = Play.parse(play)
    variant = position.variant
    opp_point = _OPPONENT_POINTS[variant.name]
    me, opp = list(position.mover), list(position.opponent)
    left = list(_dice_list(dice))
    made: list[Move] = []

    def refuse(reason: Reason) -> IllegalPlayError:
        return IllegalPlayError(reason, play=str(play), dice=dice)

    def free(point: int) -> bool:
        """A checker of the mover can stand on ``point`` (hitting a lone one where hits are)."""
        opponents = opp[opp_point[point]]
        return not opponents or (variant.hitting and opponents == 1)

    def path(here: int, target: int, unused: list[int]) -> list[int] | None:
        """The dice, in order, that take a checker from ``here`` to ``target``, or None."""
        for die in sorted(set(unused), reverse=True):
            step = here - die
            rest = list(unused)
            rest.remove(die)
            if target == OFF and step <= 0:
                return [die]
            if step == target and target != OFF and free(step):
                return [die]
            if step > target and step > 0 and free(step):
                found = path(step, target, rest)
                if found is not None:
                    return [die, *found]
        return None

    for move in play.moves:
        source, target = move.source, move.target
        if not (1 <= source <= BAR and OFF <= target < source):
            raise NotationError(NOT_DOWNWARD(move=str(move)))
        if source == BAR and not variant.hitting:
            raise refuse(NO_BAR())
        if not me[source]:
            if source == BAR:
                raise refuse(NONE_TO_MOVE_ON_BAR())
            raise refuse(NONE_TO_MOVE_ON_POINT(point=source))
        dice_used = path(source, target, left)
        if dice_used is None:
            raise refuse(NO_DICE_LEFT(source=_point_name(source), target=_point_name(target)))
        here = source
        for die in dice_used:
            left.remove(die)
            there = max(OFF, here - die)
            me[here] -= 1
            me[there] += 1
            hit = bool(there) and variant.hitting and opp[opp_point[there]] == 1
            if hit:
                opp[opp_point[there]] = 0
                opp[BAR] += 1
            made.append(tuple.__new__(Move, (here, there, hit)))
            here = there
    after = Position._trusted(variant, tuple(opp), tuple(me), _OTHER[position.turn])
    return tuple.__new__(LegalPlay, (tuple(_code(*step) for step in made), position, after))


def _point_name(point: int) -> Reason:
    return THE_BAR() if point == BAR else OFF_THE_BOARD() if point == OFF else POINT(point=point)

"""The two games and their rule switches.

A variant is a small frozen value: the rules engine reads its switches, the tournament stores them.
Long Nardy and Short Nardy are configured siblings of one base, as python-chess does with its
variants: the move generator asks the variant what is different instead of branching on names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from games.rules.errors import RulesError, Template, quoted

# Why a variant's switches are refused (games.rules.errors).
UNKNOWN_PROGRESSION = Template("unknown-progression", "unknown dave progression %(value)s")
STAKE_AT_LEAST_ONE = Template("max-stake-at-least-one", "%(field)s must be at least 1")
UNKNOWN_BLOCK_CHECK = Template("unknown-block-check", "unknown block check %(value)s")
UNKNOWN_VARIANT = Template(
    "unknown-variant", "unknown variant %(value)s: expected %(long)s or %(short)s"
)

Progression = Literal["geometric", "arithmetic"]
BlockCheck = Literal["step", "turn"]


@dataclass(frozen=True, slots=True)
class DaveRules:
    """How stakes are raised: the progression of values and an optional cap."""

    enabled: bool = True
    progression: Progression = "geometric"
    max_stake: int | None = None

    def __post_init__(self) -> None:
        if self.progression not in ("geometric", "arithmetic"):
            raise RulesError(UNKNOWN_PROGRESSION(value=repr(self.progression)))
        if self.max_stake is not None and self.max_stake < 1:
            raise RulesError(STAKE_AT_LEAST_ONE(field="max_stake"))

    def next_stake(self, stake: int) -> int:
        """The stake after one more accepted dave: 1, 2, 4, 8 … or 1, 2, 3, 4 …"""
        return stake * 2 if self.progression == "geometric" else stake + 1


@dataclass(frozen=True, slots=True)
class Variant:
    """Rules shared by both games; subclasses set the class-level geometry flags."""

    name: ClassVar[Literal["long", "short"]]
    title: ClassVar[str]
    #: Opponent checkers may be hit (Short Nardy) or only jumped over (Long Nardy).
    hitting: ClassVar[bool]
    #: Long Nardy limits how many checkers leave the head (point 24) per turn.
    head_rule: ClassVar[bool]
    #: Long Nardy forbids six-point blocks with no opponent checker ahead.
    six_block_rule: ClassVar[bool]
    #: The first roll of a game is the two single dice thrown to decide who starts (Short Nardy):
    #: never a double, and no dave can be offered before it.
    opening_throw: ClassVar[bool]

    dave: DaveRules = field(default_factory=DaveRules)
    #: An incomplete or illegal play stands when the opponent accepts it (seed 001): it is
    #: made as the checkers physically move (``moves.physical_play``). Off: every play is legal.
    #: Not compared: it says which plays a record may hold, not what a position is.
    accepted_moves: bool = field(default=False, compare=False)

    @staticmethod
    def opponent_point(point: int) -> int:
        """The point, in the opponent's own numbering, of the mover's point 1..24."""
        raise NotImplementedError

    @property
    def opens_with_throw(self) -> bool:
        """Whether a game opens with the throw of one die each (the sport rules, art. 26.3): the
        higher moves first with both numbers, so the first roll is never a double and the first
        mover may be Black. Short Nardy always; Long Nardy with its switch ``opening_roll``."""
        return self.opening_throw

    @property
    def max_value(self) -> int:
        """The highest game value: mars (2), or koks (3) where koks is played."""
        return 2


@dataclass(frozen=True, slots=True)
class LongNardy(Variant):
    """Long Nardy (длинные нарды): no hitting, a head on point 24, the six-block rule."""

    name: ClassVar[Literal["long", "short"]] = "long"
    title: ClassVar[str] = "Long Nardy"
    hitting: ClassVar[bool] = False
    head_rule: ClassVar[bool] = True
    six_block_rule: ClassVar[bool] = True
    opening_throw: ClassVar[bool] = False

    #: "step": no single checker move may leave a forbidden block; "turn": only the end counts.
    block_check: BlockCheck = "step"
    #: The Nard Federation rule: the second mover gets a last turn to draw after the first
    #: mover (White, unless the opening throw made Black move first) bears off.
    federation_draw: bool = False
    #: The opening roll of the sport rules (art. 26.3): one die each, the higher moves first
    #: with both numbers, so the first roll is never a double and the first mover may be Black.
    #: Off: White moves first, and its first roll may be a double.
    opening_roll: bool = False

    def __post_init__(self) -> None:
        if self.block_check not in ("step", "turn"):
            raise RulesError(UNKNOWN_BLOCK_CHECK(value=repr(self.block_check)))

    @staticmethod
    def opponent_point(point: int) -> int:
        return point + 12 if point <= 12 else point - 12

    @property
    def opens_with_throw(self) -> bool:
        return self.opening_roll


@dataclass(frozen=True, slots=True)
class ShortNardy(Variant):
    """Short Nardy (backgammon): hitting, the bar, optional koks and no-hit-and-hide."""

    name: ClassVar[Literal["long", "short"]] = "short"
    title: ClassVar[str] = "Short Nardy"
    hitting: ClassVar[bool] = True
    head_rule: ClassVar[bool] = False
    six_block_rule: ClassVar[bool] = False
    opening_throw: ClassVar[bool] = True

    #: Triple game: the loser bore off nothing and has a checker on the bar or in the winner's home.
    koks: bool = False
    #: House rule: a checker that has hit may not, later in the same turn, stop on a point holding
    #: another checker of its own. Moving on to an empty point (or hitting again), covering the
    #: hitter with a different checker and bearing the hitter off stay legal.
    no_hit_and_hide: bool = False

    @staticmethod
    def opponent_point(point: int) -> int:
        return 25 - point

    @property
    def max_value(self) -> int:
        return 3 if self.koks else 2


def variant_named(name: str) -> Variant:
    """The variant with default switches for ``"long"`` or ``"short"``."""
    if name == "long":
        return LongNardy()
    if name == "short":
        return ShortNardy()
    raise RulesError(UNKNOWN_VARIANT(value=quoted(name), long="'long'", short="'short'"))

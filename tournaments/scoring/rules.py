"""The match rules a tournament plays by (``MatchRules``), the engine ``Variant`` they give, and
the exact numbers every score is kept in (``as_fraction``, ``written``). Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from games.rules.errors import RulesError, Template, quoted
from games.rules.variants import (
    UNKNOWN_VARIANT,
    BlockCheck,
    DaveRules,
    LongNardy,
    Progression,
    ShortNardy,
    Variant,
)

# Why a match's rules or a number are refused (games.rules.errors).
NOT_A_NUMBER = Template("not-a-number", "%(value)s is not a number")
LENGTH_OR_GAMES = Template(
    "length-or-games",
    "a match is played to N points or as a fixed number of games: set exactly one of "
    "%(length)s and %(games)s",
)
LENGTH_AT_LEAST_ONE = Template(
    "length-at-least-one", "a match is played to at least 1 point, not %(length)s"
)
GAMES_AT_LEAST_ONE = Template("games-at-least-one", "a match has at least 1 game, not %(games)s")
DRAW_COUNTS = Template("draw-counts", "a drawn game counts %(half)s or %(one)s, not %(value)s")

VariantName = Literal["long", "short"]


DrawCounts = Literal["half", "one"]


Player = Literal[1, 2]


#: The longest match a tournament plays: 64 points, or 64 games when played by games. Longer
#: matches are not club play, and a typo there (99999) must not reach the rating list.
MAX_MATCH_LENGTH = 64


#: The highest stake when the rules name none: the doubling cube's highest face. It bounds what
#: a game can bring, so that a score no match can produce is refused.
DEFAULT_TOP_STAKE = 64


#: What ``as_fraction`` accepts: the exact types, a float, or a string such as "2.5" or "5/2".
Number = int | Fraction | Decimal | float | str


def as_fraction(value: Number) -> Fraction:
    """``value`` as an exact Fraction; a float is read as the decimal it prints as (0.1 → 1/10).

    >>> as_fraction("2.5"), as_fraction(0.5), as_fraction(Decimal("1.5"))
    (Fraction(5, 2), Fraction(1, 2), Fraction(3, 2))
    """
    if type(value) is Fraction:
        return value  # immutable: the same value (standings read tens of thousands)
    try:
        if isinstance(value, float):
            return Fraction(repr(value))
        if isinstance(value, Decimal) and value.is_finite():
            return Fraction(*value.as_integer_ratio())  # (a stored score: half the time)
        return Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise RulesError(NOT_A_NUMBER(value=quoted(value))) from None


def written(value: Fraction) -> str:
    """A score as people write it: ``3``, ``2½``, ``½``, ``7/3`` for anything else."""
    whole, part = divmod(value, 1)
    if part == 0:
        return str(int(whole))
    if part == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    return str(value)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The match rules of a tournament: what a match is and what its games may be worth.

    Exactly one of ``length`` (a match to N points) and ``games`` (a fixed number of games, all
    counted) is set. The switches are those of ``games.rules.variants`` under the model's names;
    a switch of the other game (koks in Long Nardy, the Federation draw in Short Nardy) is ignored,
    as ``Tournament.game_variant`` ignores it. ``crawford`` applies only to a match to N points
    with dave: without dave there is nothing for the Crawford rule to forbid.

    >>> MatchRules(variant="short", length=5, koks=True).to_variant().max_value
    3
    """

    variant: VariantName = "long"
    length: int | None = None
    games: int | None = None
    koks: bool = False
    no_hit_and_hide: bool = False
    federation_draw: bool = False
    draw_counts: DrawCounts = "half"
    block_check: BlockCheck = "step"
    dave: bool = True
    progression: Progression = "geometric"
    max_stake: int | None = None
    crawford: bool = True
    accepted_moves: bool = False
    #: The opening roll (art. 26.3): one die each, the higher moves first with both numbers, never
    #: a double, and the first mover may be Black. Short Nardy's engine refuses a double first
    #: roll either way; off, the recorder asks who moves first, and that player plays White.
    opening_roll: bool = False

    def __post_init__(self) -> None:
        if self.variant not in ("long", "short"):
            refused = UNKNOWN_VARIANT(value=repr(self.variant), long="'long'", short="'short'")
            raise RulesError(refused)
        if (self.length is None) == (self.games is None):
            raise RulesError(LENGTH_OR_GAMES(length="length", games="games"))
        if self.length is not None and self.length < 1:
            raise RulesError(LENGTH_AT_LEAST_ONE(length=self.length))
        if self.games is not None and self.games < 1:
            raise RulesError(GAMES_AT_LEAST_ONE(games=self.games))
        if self.draw_counts not in ("half", "one"):
            raise RulesError(DRAW_COUNTS(half="'half'", one="'one'", value=repr(self.draw_counts)))
        self.to_variant()  # the engine checks its own switches (progression, max_stake, ...)

    def to_variant(self) -> Variant:
        """The rules engine's variant with these switches."""
        dave = DaveRules(enabled=self.dave, progression=self.progression, max_stake=self.max_stake)
        if self.variant == "long":
            return LongNardy(
                dave=dave,
                accepted_moves=self.accepted_moves,
                block_check=self.block_check,
                federation_draw=self.federation_draw,
                opening_roll=self.opening_roll,
            )
        return ShortNardy(
            dave=dave,
            accepted_moves=self.accepted_moves,
            koks=self.koks,
            no_hit_and_hide=self.no_hit_and_hide,
        )

    @property
    def draws(self) -> bool:
        """Whether a game can be drawn: the Federation rule of Long Nardy."""
        return self.variant == "long" and self.federation_draw

    @property
    def match_can_be_drawn(self) -> bool:
        """Whether a match can end drawn: only a fixed number of games, when the scores can end
        level. Two games or more always can (1-1; or with an odd number, a mars against oyns:
        1+1 against 2); a single game only when that game can be drawn (the Federation rule).
        A match to N points never is (module docstring), nor a Short Nardy match of one game.

        >>> MatchRules(variant="short", games=1).match_can_be_drawn
        False
        >>> MatchRules(variant="short", games=2).match_can_be_drawn
        True
        """
        if self.games is None:
            return False
        return self.games >= 2 or self.draws

    @property
    def draw_value(self) -> Fraction:
        """What a drawn game gives each player: ½ or 1."""
        return Fraction(1, 2) if self.draw_counts == "half" else Fraction(1)

    @property
    def crawford_applies(self) -> bool:
        return self.crawford and self.dave and self.length is not None

    def top_stake(self) -> int:
        """The highest stake a game can reach: 1 without dave, else the highest value of the
        progression up to ``max_stake`` (``DEFAULT_TOP_STAKE`` when the rules name none).

        >>> MatchRules(length=5).top_stake(), MatchRules(length=5, max_stake=100).top_stake()
        (64, 64)
        """
        if not self.dave:
            return 1
        cap = DEFAULT_TOP_STAKE if self.max_stake is None else self.max_stake
        if self.progression == "arithmetic":  # 1, 2, 3 …: every stake up to the cap
            return cap
        dave = self.to_variant().dave
        stake = 1
        while dave.next_stake(stake) <= cap:
            stake = dave.next_stake(stake)
        return stake

    def reaches(self, stake: int) -> bool:
        """Whether a game can be played at ``stake``: a value of the dave progression, capped."""
        if not 1 <= stake <= self.top_stake():
            return False
        if stake == 1 or self.progression == "arithmetic":
            return True
        dave = self.to_variant().dave
        reached = 1
        while reached < stake:
            reached = dave.next_stake(reached)
        return reached == stake

    def most_for_a_game(self) -> int:
        """The most points one game can bring its winner."""
        return self.to_variant().max_value * self.top_stake()

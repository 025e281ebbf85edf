"""A match's score from its games, and the tournament points the match is worth. Pure: no Django.

The game and match arithmetic lives once, in ``games.rules.game``: a game's points are
``Outcome.points`` (value × stake) and ``MatchScore`` credits them, knows when a match to N points
is over and which game is the Crawford game. This module adds what a tournament decides on top:

* ``MatchRules``: the per-tournament match rules (to N points or a fixed number of games, the
  switches of the game, how a Federation draw counts) and the engine ``Variant`` they give.
* ``match_score`` (game outcomes) and ``match_replay`` (game records, replayed by the engine):
  the score, who won, the Crawford game, whether the match is over.
* ``score_from_typed``: a final score typed by hand, rejected with a clear ``ValueError`` when no
  match under these rules can end that way.
* ``match_points``: the tournament (match) points of a finished match, for the standings.

Numbers are ``fractions.Fraction`` everywhere (scores, draw credits, match points). A drawn game
can be worth ½, and standings compare sums for equality (shared ranks, tie-breaks): Fractions are
exact, so ½ + ½ == 1 always and a tie is a tie; floats would be exact for halves too but not for
every configurable value (a draw worth 0.1 sums to 0.30000000000000004), and Decimal carries a
rounding context. ``as_fraction`` takes an int, a Fraction, a Decimal (the database's type), a
float or a string such as ``"2.5"`` or ``"5/2"``.

Drawn games (the Nard Federation rule of Long Nardy, RULES.md): a drawn game gives each player
``½`` or ``1`` (``MatchRules.draw_counts``) and nothing to either as a winner.

* In a fixed number of games, the draw credit simply adds to both scores; the match is drawn when
  the scores are level after the last game (the only way a match can be drawn).
* In a match to N points, the draw credit adds to both scores and the match goes on. The match is
  over after a game when a player has N points or more **and** more than the opponent. So a drawn
  game ends the match only when it takes one player to N while the other stays behind (4½–2½ →
  5–3 to 5 with ½ a draw); when it takes both to N with level scores (4–4 → 5–5, 1 a draw), play
  goes on and the next game that is won decides the match. A match to N is never drawn.
* Because a draw gives both players the same credit D, a match to N with draw credit D is, for
  the games that are won, a match to N − D: who leads is unchanged, and a player is at N (or at
  N − 1, which starts the Crawford game) exactly when its won points reach ⌈N − D⌉ (or
  ⌈N − D⌉ − 1; won points are whole). So the engine's ``MatchScore`` keeps the won points and the
  Crawford game, with its ``length`` set to ⌈N − D⌉ after each draw. With halves a player can
  stand at N − ½: it is past N − 1, so the Crawford rule has started for it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from games.rules.errors import quoted
from games.rules.game import (
    Ending,
    GameError,
    MatchGame,
    MatchScore,
    Outcome,
    replay_game,
)
from games.rules.position import Colour
from games.rules.variants import (
    BlockCheck,
    DaveRules,
    LongNardy,
    Progression,
    ShortNardy,
    Variant,
)

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
    try:
        if isinstance(value, float):
            return Fraction(repr(value))
        return Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{quoted(value)} is not a number") from None


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

    def __post_init__(self) -> None:
        if self.variant not in ("long", "short"):
            raise ValueError(f"unknown variant {self.variant!r}: expected 'long' or 'short'")
        if (self.length is None) == (self.games is None):
            raise ValueError(
                "a match is played to N points or as a fixed number of games: "
                "set exactly one of length and games"
            )
        if self.length is not None and self.length < 1:
            raise ValueError(f"a match is played to at least 1 point, not {self.length}")
        if self.games is not None and self.games < 1:
            raise ValueError(f"a match has at least 1 game, not {self.games}")
        if self.draw_counts not in ("half", "one"):
            raise ValueError(f"a drawn game counts 'half' or 'one', not {self.draw_counts!r}")
        self.to_variant()  # the engine checks its own switches (progression, max_stake, ...)

    def to_variant(self) -> Variant:
        """The rules engine's variant with these switches."""
        dave = DaveRules(enabled=self.dave, progression=self.progression, max_stake=self.max_stake)
        if self.variant == "long":
            return LongNardy(
                dave=dave, block_check=self.block_check, federation_draw=self.federation_draw
            )
        return ShortNardy(dave=dave, koks=self.koks, no_hit_and_hide=self.no_hit_and_hide)

    @property
    def draws(self) -> bool:
        """Whether a game can be drawn: the Federation rule of Long Nardy."""
        return self.variant == "long" and self.federation_draw

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


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game of a match: which match player (1 or 2) played White, and the engine's outcome.

    The constructors ``won`` and ``drawn`` state a game in player terms.
    """

    white: int
    outcome: Outcome

    @classmethod
    def won(
        cls, player: Player, value: int = 1, stake: int = 1, ending: Ending = Ending.BEAR_OFF
    ) -> PlayedGame:
        """``player`` won a game worth ``value`` (1 oyn, 2 mars, 3 koks) at ``stake``."""
        return cls(player, Outcome(Colour.WHITE, ending, value, stake))

    @classmethod
    def drawn(cls, stake: int = 1) -> PlayedGame:
        """A drawn game (the Federation rule)."""
        return cls(1, Outcome(None, Ending.DRAW, 0, stake))

    @property
    def winner(self) -> Player | None:
        """The match player who won the game; None for a draw."""
        if self.outcome.winner is None:
            return None
        return self.white_player if self.outcome.winner is Colour.WHITE else self.black_player

    @property
    def white_player(self) -> Player:
        return 1 if self.white == 1 else 2

    @property
    def black_player(self) -> Player:
        return 2 if self.white == 1 else 1


@dataclass(frozen=True, slots=True)
class MatchScoreResult:
    """A match's score and state.

    ``winner`` is set once the match is over and won; a finished match with no winner is drawn
    (only a fixed number of games can end level). ``crawford_game`` is 1-based. A score typed by
    hand has no known games: its ``crawford_game`` is None, and so is ``games_counted`` in a
    match to N points.
    """

    score1: Fraction
    score2: Fraction
    winner: Player | None
    games_counted: int | None
    crawford_game: int | None
    finished: bool

    @property
    def drawn(self) -> bool:
        return self.finished and self.winner is None


class _Tally:
    """The running score: the engine's ``MatchScore`` for the won games plus the draw credit."""

    def __init__(self, rules: MatchRules) -> None:
        self.rules = rules
        self.score = MatchScore(rules.length, rules.crawford_applies)
        self.draw_credit = Fraction(0)  # what the drawn games gave each player

    @property
    def points(self) -> tuple[Fraction, Fraction]:
        return (self.score.points[0] + self.draw_credit, self.score.points[1] + self.draw_credit)

    @property
    def finished(self) -> bool:
        if self.rules.games is not None:
            return self.score.games == self.rules.games
        return self.score.over and self.score.points[0] != self.score.points[1]

    def start_game(self) -> bool:
        """Count the next game; True when it is the Crawford game."""
        number = self.score.games + 1
        if self.finished:
            if self.rules.games is not None:
                raise ValueError(f"game {number}: the match has only {self.rules.games} games")
            raise ValueError(f"game {number}: the match is already over")
        return self.score.start_game()

    def add(self, game: PlayedGame, crawford: bool) -> None:
        number = self.score.games
        _check_game(self.rules, number, game, crawford)
        if game.outcome.ending is Ending.DRAW:
            self.draw_credit += self.rules.draw_value
            if self.rules.length is not None:
                # The games still to be won are a match to N - D (see the module docstring).
                self.score.length = math.ceil(self.rules.length - self.draw_credit)
        else:
            self.score.add(game.white, game.outcome)

    def result(self) -> MatchScoreResult:
        score1, score2 = self.points
        winner = self.score.winner if self.finished else None
        return MatchScoreResult(
            score1,
            score2,
            None if winner is None else (1 if winner == 1 else 2),
            self.score.games,
            self.score.crawford_game,
            self.finished,
        )


def _check_game(rules: MatchRules, number: int, game: PlayedGame, crawford: bool) -> None:
    """Refuse an outcome these rules cannot produce (a replayed game always passes)."""
    outcome = game.outcome
    where = f"game {number}"
    if game.white not in (1, 2):
        raise ValueError(f"{where}: White is match player 1 or 2, not {game.white}")
    if outcome.ending is Ending.UNFINISHED:
        raise ValueError(f"{where} is unfinished: only finished games count")
    if outcome.ending is Ending.DRAW or outcome.winner is None:
        if outcome.ending is not Ending.DRAW or outcome.winner is not None:
            raise ValueError(f"{where}: a game has a winner unless it is drawn")
        if not rules.draws:
            raise ValueError(
                f"{where} is drawn, but a game can be drawn only under the Federation draw rule "
                "of Long Nardy"
            )
        return
    most = rules.to_variant().max_value
    if not 1 <= outcome.value <= most:
        names = "1 (oyn), 2 (mars)" + (" or 3 (koks)" if most == 3 else "")
        raise ValueError(f"{where} is worth {outcome.value}: a game is worth {names}")
    if outcome.ending is Ending.DROP and outcome.value != 1:
        raise ValueError(f"{where}: a declined dave loses one oyn, not {outcome.value}")
    stake = outcome.stake
    if stake < 1:
        raise ValueError(f"{where} has stake {stake}: a stake is at least 1")
    if stake != 1 and not rules.dave:
        raise ValueError(f"{where} has stake {stake}, but dave is not played")
    if stake != 1 and crawford:
        raise ValueError(f"{where} is the Crawford game: no dave, so its stake is 1, not {stake}")
    if stake > rules.top_stake():
        raise ValueError(f"{where} has stake {stake}, above the highest stake {rules.top_stake()}")
    if not rules.reaches(stake):
        raise ValueError(f"{where} has stake {stake}, which the {rules.progression} dave skips")


def match_score(rules: MatchRules, games: Sequence[PlayedGame]) -> MatchScoreResult:
    """The score after ``games`` (outcomes already validated, e.g. by ``games.services``).

    A game after the end of the match, an unfinished game or an outcome these rules cannot give
    (koks without koks, a stake dave cannot reach, dave in the Crawford game, a draw without the
    Federation rule) is a ``ValueError`` naming the game (1-based). The match may be unfinished.

    >>> won = PlayedGame.won  # player 1 wins mars (2-0), the Crawford game is game 2
    >>> result = match_score(MatchRules(length=3), [won(1, value=2), won(2), won(1)])
    >>> result.score1, result.score2, result.winner, result.crawford_game, result.finished
    (Fraction(3, 1), Fraction(1, 1), 1, 2, True)
    """
    tally = _Tally(rules)
    for game in games:
        crawford = tally.start_game()
        tally.add(game, crawford)
    return tally.result()


def match_progress(rules: MatchRules, games: Sequence[PlayedGame]) -> tuple[MatchScoreResult, bool]:
    """The score after ``games`` and whether the next game is the Crawford game (False once the
    match is over): what a match recorded game by game needs before each new game.

    >>> result, crawford = match_progress(MatchRules(length=3), [PlayedGame.won(1, value=2)])
    >>> result.score1, result.finished, crawford
    (Fraction(2, 1), False, True)
    """
    tally = _Tally(rules)
    for game in games:
        tally.add(game, tally.start_game())
    result = tally.result()
    return result, not result.finished and tally.start_game()


def match_replay(rules: MatchRules, games: Sequence[MatchGame]) -> MatchScoreResult:
    """Replay every game record through the engine (Crawford game without dave) and score them.

    An illegal action raises the engine's ``GameError`` with its game number; a game after the
    end of the match, or an unfinished one, a ``ValueError``.
    """
    variant = rules.to_variant()
    tally = _Tally(rules)
    for number, record in enumerate(games, start=1):
        if record.white not in (1, 2):
            raise ValueError(f"game {number}: White is match player 1 or 2, not {record.white}")
        crawford = tally.start_game()
        try:
            outcome = replay_game(variant, record.actions, crawford=crawford).outcome
        except GameError as error:
            error.game = number
            error.args = (str(error),)
            raise
        tally.add(PlayedGame(record.white, outcome), crawford)
    return tally.result()


def score_from_typed(rules: MatchRules, score1: Number, score2: Number) -> MatchScoreResult:
    """A final match score typed by hand, checked against what a match under ``rules`` can give.

    Rejected with a ``ValueError`` that says why:

    * a negative score; a half point where no draw counts ½ (halves exist only with Federation
      draws counted ½–½, and then both scores carry the same half, since every draw gives both);
    * to N points: neither player has N (the match is not over); level scores; both players at
      N or more, unless drawn games took both to N level and one more game decided it (then the
      difference is one game's points); a winner beyond what the last game can bring
      (the winner was below N before it);
    * a fixed number of games G: fewer points than G games give out (each game gives at least 1
      in all, a draw ½ + ½ or 1 + 1), more than G games can give, or no split
      into G games: every won game gives its winner 1 to the most one game can bring.

    The checks are on totals: that one total can be split into the particular values a game can
    take (with dave 1, 2, 4, 8 …, so 3 points from one game are impossible) and which game was the
    Crawford game are not reconstructed. A typed score has no known games: ``games_counted`` is
    G for a fixed number of games, else None.
    """
    one, two = as_fraction(score1), as_fraction(score2)
    for value in (one, two):
        if value < 0:
            raise ValueError(f"a score cannot be negative: {written(value)}")
    _check_halves(rules, one, two)
    if rules.length is not None:
        _check_to_points(rules, rules.length, one, two)
        winner: Player | None = 1 if one > two else 2
    else:
        assert rules.games is not None
        _check_fixed_games(rules, rules.games, one, two)
        winner = None if one == two else 1 if one > two else 2
    return MatchScoreResult(one, two, winner, rules.games, None, True)


def _check_halves(rules: MatchRules, one: Fraction, two: Fraction) -> None:
    halves = rules.draws and rules.draw_counts == "half"
    for value in (one, two):
        if value.denominator == 1:
            continue
        if halves and value.denominator == 2:
            continue
        if halves:
            raise ValueError(f"a score is whole or ends in ½, not {written(value)}")
        raise ValueError(
            f"a score of {written(value)} is impossible: scores are whole numbers unless drawn "
            "games count ½–½"
        )
    if one.denominator != two.denominator:
        raise ValueError(
            f"{written(one)}–{written(two)} is impossible: a drawn game gives both players ½, "
            "so both scores are whole or both end in ½"
        )


def _check_to_points(rules: MatchRules, length: int, one: Fraction, two: Fraction) -> None:
    high, low = max(one, two), min(one, two)
    most = rules.most_for_a_game()
    shown = f"{written(one)}–{written(two)}"
    if high < length:
        raise ValueError(
            f"{shown}: neither player reached {length}, so a match to {length} points is not over"
        )
    if high == low:
        if rules.draws:
            raise ValueError(
                f"{shown}: a match to {length} points cannot end level; when drawn games bring "
                f"both players to {length} level, play goes on until a game is won"
            )
        raise ValueError(
            f"{shown}: both players reached {length}, but a match to {length} points ends as "
            f"soon as one player reaches {length}"
        )
    if low >= length:
        if not rules.draws:
            raise ValueError(
                f"{shown}: both players reached {length}, but a match to {length} points ends as "
                f"soon as one player reaches {length}"
            )
        # Only drawn games bring both players to N, level; the next game won ends the match.
        if high - low > most:
            raise ValueError(
                f"{shown}: both players reached {length}, which only drawn games leaving them "
                f"level can do; then one game decides, and a game brings at most {most}"
            )
        return
    if high - most >= length:
        raise ValueError(
            f"{shown}: {written(high)} is out of reach; the match ends as soon as a player "
            f"reaches {length}, and one game brings at most {most}"
        )


def _check_fixed_games(rules: MatchRules, games: int, one: Fraction, two: Fraction) -> None:
    shown = f"{written(one)}–{written(two)}"
    most = rules.most_for_a_game()
    total = one + two
    if total < games:
        raise ValueError(
            f"{shown} is too few points for {games} games: every game gives out at least 1 "
            "point in all"
        )
    # A draw gives out 2 × ½ or 2 × 1; a won game up to ``most``, which is at least 2.
    if total > games * most:
        raise ValueError(
            f"{shown} needs more than {games} games: a game brings at most {most} points"
        )
    draw = rules.draw_value
    for draws in range(games + 1 if rules.draws else 1):
        won1, won2 = one - draws * draw, two - draws * draw
        if won1 < 0 or won2 < 0 or won1.denominator != 1 or won2.denominator != 1:
            continue
        if _split_into_wins(int(won1), int(won2), games - draws, most):
            return
    each = f"1 to {most} points"
    drawn = f", a drawn game {written(draw)} to each" if rules.draws else ""
    raise ValueError(
        f"{shown} cannot come out of {games} games: a game won brings its winner {each}{drawn}"
    )


def _split_into_wins(points1: int, points2: int, games: int, most: int) -> bool:
    """Whether ``games`` won games can give the players these points, 1 to ``most`` a game."""

    def wins_needed(points: int) -> tuple[int, int]:
        # The fewest and the most games a player can have won to make ``points``.
        if points == 0:
            return 0, 0
        return -(-points // most), points

    low1, high1 = wins_needed(points1)
    low2, high2 = wins_needed(points2)
    return max(low1, games - high2) <= min(high1, games - low2)


@dataclass(frozen=True, slots=True, init=False)
class MatchPoints:
    """Tournament points for a match won, drawn or lost, and for a bye (win ≥ draw ≥ loss).

    A match is drawn only when played as a fixed number of games and the score is level.

    >>> MatchPoints(win=3, draw=1)
    MatchPoints(win=Fraction(3, 1), draw=Fraction(1, 1), loss=Fraction(0, 1), bye=Fraction(1, 1))
    """

    win: Fraction
    draw: Fraction
    loss: Fraction
    bye: Fraction

    def __init__(
        self,
        win: Number = 1,
        draw: Number = Fraction(1, 2),
        loss: Number = 0,
        bye: Number = 1,
    ) -> None:
        values = [as_fraction(value) for value in (win, draw, loss, bye)]
        for name, value in zip(("win", "draw", "loss", "bye"), values, strict=True):
            object.__setattr__(self, name, value)
        if not self.win >= self.draw >= self.loss or self.win == self.loss:
            raise ValueError(
                "match points must run win ≥ draw ≥ loss with a win worth more than a loss"
            )


def match_points(result: MatchScoreResult, points: MatchPoints) -> tuple[Fraction, Fraction]:
    """The tournament points (player 1's, player 2's) of a finished match."""
    if not result.finished:
        raise ValueError("an unfinished match is worth no tournament points yet")
    if result.winner is None:
        return points.draw, points.draw
    if result.winner == 1:
        return points.win, points.loss
    return points.loss, points.win

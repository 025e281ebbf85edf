"""A match's score from its games: from their outcomes (``match_score``, ``match_progress``)
or their records replayed by the engine (``match_replay``), with the winner, the Crawford game
and whether the match is over. Pure: no Django."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.rules.errors import RulesError, Template
from games.rules.game import (
    MATCH_OVER,
    Ending,
    GameError,
    MatchGame,
    MatchScore,
    Outcome,
    replay_game,
)
from games.rules.position import Colour
from tournaments.scoring.rules import MatchRules, Player

# Why a list of games' outcomes is refused (games.rules.errors).
AT_GAME = Template("at-game", "game %(game)s: %(reason)s")
ONLY_GAMES = Template(
    "only-games",
    "the match has only %(games)s games",
    count="games",
)
WHITE_IS_1_OR_2 = Template("white-1-or-2", "White is match player 1 or 2, not %(white)s")
UNFINISHED = Template("game-unfinished", "game %(game)s is unfinished: only finished games count")
WINNER_UNLESS_DRAWN = Template("winner-unless-drawn", "a game has a winner unless it is drawn")
NO_DRAWS = Template(
    "game-drawn",
    "game %(game)s is drawn, but a game can be drawn only under the Federation draw rule of "
    "Long Nardy",
)
WORTH_KOKS = Template(
    "game-worth-koks",
    "game %(game)s is worth %(value)s: a game is worth 1 (oyn), 2 (mars) or 3 (koks)",
)
WORTH = Template(
    "game-worth", "game %(game)s is worth %(value)s: a game is worth 1 (oyn), 2 (mars)"
)
DROP_ONE = Template("drop-one-oyn", "a declined dave loses one oyn, not %(value)s")
STAKE_BELOW_ONE = Template(
    "stake-below-one", "game %(game)s has stake %(stake)s: a stake is at least 1"
)
STAKE_WITHOUT_DAVE = Template(
    "stake-without-dave", "game %(game)s has stake %(stake)s, but dave is not played"
)
STAKE_CRAWFORD = Template(
    "stake-crawford",
    "game %(game)s is the Crawford game: no dave, so its stake is 1, not %(stake)s",
)
STAKE_ABOVE_TOP = Template(
    "stake-above-top", "game %(game)s has stake %(stake)s, above the highest stake %(top)s"
)
STAKE_SKIPPED = {
    "geometric": Template(
        "stake-skipped-geometric",
        "game %(game)s has stake %(stake)s, which the geometric dave skips",
    ),
    "arithmetic": Template(
        "stake-skipped-arithmetic",
        "game %(game)s has stake %(stake)s, which the arithmetic dave skips",
    ),
}


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
                raise RulesError(AT_GAME(game=number, reason=ONLY_GAMES(games=self.rules.games)))
            raise RulesError(AT_GAME(game=number, reason=MATCH_OVER()))
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
    if game.white not in (1, 2):
        raise RulesError(AT_GAME(game=number, reason=WHITE_IS_1_OR_2(white=game.white)))
    if outcome.ending is Ending.UNFINISHED:
        raise RulesError(UNFINISHED(game=number))
    if outcome.ending is Ending.DRAW or outcome.winner is None:
        if outcome.ending is not Ending.DRAW or outcome.winner is not None:
            raise RulesError(AT_GAME(game=number, reason=WINNER_UNLESS_DRAWN()))
        if not rules.draws:
            raise RulesError(NO_DRAWS(game=number))
        return
    most = rules.to_variant().max_value
    if not 1 <= outcome.value <= most:
        worth = WORTH_KOKS if most == 3 else WORTH
        raise RulesError(worth(game=number, value=outcome.value))
    if outcome.ending is Ending.DROP and outcome.value != 1:
        raise RulesError(AT_GAME(game=number, reason=DROP_ONE(value=outcome.value)))
    stake = outcome.stake
    if stake < 1:
        raise RulesError(STAKE_BELOW_ONE(game=number, stake=stake))
    if stake != 1 and not rules.dave:
        raise RulesError(STAKE_WITHOUT_DAVE(game=number, stake=stake))
    if stake != 1 and crawford:
        raise RulesError(STAKE_CRAWFORD(game=number, stake=stake))
    if stake > rules.top_stake():
        raise RulesError(STAKE_ABOVE_TOP(game=number, stake=stake, top=rules.top_stake()))
    if not rules.reaches(stake):
        raise RulesError(STAKE_SKIPPED[rules.progression](game=number, stake=stake))


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
            raise RulesError(AT_GAME(game=number, reason=WHITE_IS_1_OR_2(white=record.white)))
        crawford = tally.start_game()
        try:
            outcome = replay_game(variant, record.actions, crawford=crawford).outcome
        except GameError as error:
            error.game = number
            raise
        tally.add(PlayedGame(record.white, outcome), crawford)
    return tally.result()

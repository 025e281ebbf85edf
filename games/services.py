"""Turn recorded games into validated results: every play replayed by ``games.rules``.

A match result arrives as the games' records (the engine's actions, or a .mat file's text). Each
game is replayed in order, under the tournament's match rules (the Crawford game follows from the
score so far), and the first illegal play rejects the whole result with its game, move and reason.
Nothing here touches the database: the tournament services store what comes back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.rules import (
    Action,
    Colour,
    GameError,
    NotationError,
    Outcome,
    RulesError,
    Turn,
    Variant,
    action_from_json,
    actions_as_made,
    replay_game,
)
from games.rules.errors import Template, clipped, quoted
from games.rules.game import MatchScore
from games.rules.matfile import MatchFormatError, RecordError, check_match, read_match
from nardy_site.errors import UserError

# Why a match's games are refused (games.rules.errors).
WHITE_IS_SIDE_1_OR_2 = Template("white-side-1-or-2", "White is side 1 or 2")
MATCH_DECIDED = Template(
    "match-decided",
    "the match to %(length)s points was already decided",
    count="length",
)
OTHER_GAME = Template(
    "file-other-game", "the file is a %(file)s match, the tournament plays %(tournament)s"
)
#: The games' names in a reason.
VARIANT_NAMES = {
    "long": Template("variant-long", "Long Nardy"),
    "short": Template("variant-short", "Short Nardy"),
}


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """One game as reported: which match side (1 home, 2 away) played White, and its actions."""

    white: int
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class ValidatedGame:
    """A replayed game: its record (each play as the engine made it: ``actions_as_made``) and
    outcome, the winner as a match side (1, 2 or None)."""

    number: int
    white: int
    actions: tuple[Action, ...]
    outcome: Outcome
    winner: int | None


class IllegalRecordError(UserError, ValueError):
    """A game record that breaks the rules: where (game, move, side) and why.

    ``move`` counts the game's rolls from 1 for engine records, or is the numbered line of a
    .mat file; ``side`` is the match side (1 home, 2 away) that made the illegal action.
    """

    status = 422
    code = "illegal_record"

    def __init__(
        self, reason: str, *, game: int, move: int, side: int, play: str = "", action: int = 0
    ) -> None:
        self.reason = reason
        self.action = action  # its place among the game's actions (from 1), where known
        self.game = game
        self.move = move
        self.side = side
        self.play = play
        what = f" {play!r}" if play else ""
        details = {"game": game, "move": move, "player": side, "play": play, "reason": reason}
        super().__init__(f"game {game}, move {move}, side {side}{what}: {reason}", details)


def recorded_games_from_json(games: object) -> list[RecordedGame]:
    """JSON games, ``[{"white": 1, "actions": [{"dice": "64", "play": "24/18 13/9"}, …]}]``, as
    records. Not of that shape (a game without its actions, an action that is not an object):
    ``ValueError``, a bad request. An action that does not read (a malformed play, dice that are
    not dice): ``IllegalRecordError`` at its game and move (rolls counted from 1, as a replay
    counts them), as an illegal play is: the record breaks the rules of its notation."""
    if not isinstance(games, list):
        raise ValueError('"games" is a list of {"white", "actions"}')
    recorded = []
    for number, game in enumerate(games, start=1):
        if not isinstance(game, dict) or "white" not in game:
            raise ValueError(f'game {number} is {{"white": 1 or 2, "actions": [...]}}')
        white, given = game["white"], game.get("actions")
        if not isinstance(given, list):
            raise ValueError(f'game {number}: "actions" is a list of actions')
        actions = game_actions_from_json(number, white, given)
        recorded.append(RecordedGame(white, actions))
    return recorded


def game_actions_from_json(number: int, white: Any, given: list[Any]) -> tuple[Action, ...]:
    """Game ``number``'s JSON actions, White being match player ``white``. One that is not an
    object: ``ValueError``; one that does not read: ``IllegalRecordError`` at its move (the
    rolls counted from 1), whose ``action`` is its place among the actions (from 1)."""
    actions: list[Action] = []
    for data in given:
        if not isinstance(data, dict):
            raise ValueError(f"game {number}: an action is a JSON object, not {quoted(data)}")
        try:
            actions.append(action_from_json(data))
        except NotationError as error:
            turns = sum(isinstance(action, Turn) for action in actions)
            roller = white if white in (1, 2) else 1
            play = data.get("play")
            raise IllegalRecordError(
                error.reason,
                game=number,
                move=turns + 1,
                side=roller if turns % 2 == 0 else 3 - roller,
                play=clipped(play) if isinstance(play, str) else "",
                action=len(actions) + 1,
            ) from None
    return tuple(actions)


def games_validate(
    *,
    variant: Variant,
    games: Sequence[RecordedGame],
    length: int | None,
    crawford: bool,
) -> list[ValidatedGame]:
    """Replay every game in order; raise ``IllegalRecordError`` at the first illegal action.

    ``length`` is the match length in points (None: a fixed number of games), which decides the
    Crawford game; games after the match was decided are an error too.
    """
    score = MatchScore(length, crawford)
    validated: list[ValidatedGame] = []
    for number, game in enumerate(games, start=1):
        if game.white not in (1, 2):
            raise IllegalRecordError(WHITE_IS_SIDE_1_OR_2(), game=number, move=0, side=1)
        if score.over:
            raise IllegalRecordError(
                MATCH_DECIDED(length=length),
                game=number, move=0, side=game.white,
            )  # fmt: skip
        try:
            replay = replay_game(variant, game.actions, crawford=score.start_game())
        except GameError as error:
            side = game.white if error.side is Colour.WHITE else 3 - game.white
            raise IllegalRecordError(
                error.reason, game=number, move=error.turn, side=side, play=error.play
            ) from None
        outcome = replay.outcome
        score.add(game.white, outcome)
        winner = None
        if outcome.winner is not None:
            winner = game.white if outcome.winner is Colour.WHITE else 3 - game.white
        actions = actions_as_made(game.actions, replay.made)
        validated.append(ValidatedGame(number, game.white, actions, outcome, winner))
    return validated


def games_from_mat(
    text: str, *, variant: Variant, length: int | None, crawford: bool
) -> list[ValidatedGame]:
    """The games of a .mat file replayed under the tournament's rules; player 1 is side 1.

    An illegal play is located by game, numbered line and column of the file
    (``IllegalRecordError``); a text that is not a match file raises ``MatchFormatError``.
    """
    try:
        record = read_match(text)
    except RecordError as error:
        raise IllegalRecordError(
            error.reason, game=error.game, move=error.move, side=error.player, play=error.play
        ) from None
    if type(record.variant) is not type(variant):
        file, tournament = VARIANT_NAMES[record.variant.name], VARIANT_NAMES[variant.name]
        raise MatchFormatError(OTHER_GAME(file=file(), tournament=tournament()))
    under_our_rules = replace(record, variant=variant, length=length, crawford=crawford)
    checked = check_match(under_our_rules, keep_plays=True)  # the one replay: all we store
    illegal = checked.error
    if illegal is not None:
        raise IllegalRecordError(
            illegal.reason,
            game=illegal.game,
            move=illegal.move,
            side=illegal.player,
            play=illegal.play,
        )
    return [
        ValidatedGame(
            check.number,
            game.player(Colour.WHITE),
            actions_as_made(game.actions, check.made),
            check.outcome,
            check.winner,
        )
        for game, check in zip(record.games, checked.games, strict=True)
    ]


__all__ = [
    "IllegalRecordError",
    "MatchFormatError",
    "RecordedGame",
    "RulesError",
    "ValidatedGame",
    "games_from_mat",
    "games_validate",
    "recorded_games_from_json",
]

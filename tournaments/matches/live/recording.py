"""A match recorded at the table, entry by entry: pure Python over the rules engine.

The draft of a match is a list of entries. Most are the engine's game actions, written as
``games.rules.action_to_json`` writes them; two more belong to recording only:

* ``{"dice": "64"}``: the roll is entered and its play comes next (``{"dice": "64", "play":
  "24/18 13/9"}``), so that a reload or a second phone resumes with the dice on the board;
* ``{"first": 2}``: match player 2 plays White (and moves first, unless the opening throw says
  otherwise) in the game about to start. Without it, game 1 is started by player 1 and every
  later game by the other player than the game before (Long Nardy's colours alternate; in Short
  Nardy the opening throw decides, so the page asks);
* ``{"opening": {"white": 3, "black": 5}}``: the opening throw of the sport rules (art. 26.3),
  where the variant plays it (``Variant.opens_with_throw``): one die each, White's first. The
  higher moves first and plays both numbers: the entry is the engine's ``Opens`` of that colour
  and the roll (5-3) waiting for its play. Equal dice are thrown again (refused);
* ``{"flag": "home"}``: the home player's flag fell (their time ran out, as the match clock
  says): they lose the match, which ends with the game on the board unfinished.

``to_act`` says whose clock runs after an entry (``clock``: the services keep the time).

``Recording`` takes entries one at a time, each checked by the engine (``GameState``) before it
counts, and says where the match stands. A game's Crawford flag and the match score come from
``tournaments.scoring``, as for every reported result, so the match is decided here exactly when
the result flow will say it is. Finished games are kept as ``GameDone`` checkpoints and the game
in progress as ``checkpoint()``: a new entry is checked from there (``from_checkpoint``), and a
replay (after an undo) goes back no further than the game it lands in (``resume_point``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.rules import (
    Action,
    Colour,
    Double,
    Ending,
    GameError,
    LegalPlay,
    NotationError,
    Opens,
    Outcome,
    RulesError,
    Turn,
    action_from_json,
    action_to_json,
    legal_plays,
    parse_dice,
)
from games.rules.errors import Reason, Template, quoted
from games.rules.game import MATCH_OVER, GameState
from games.rules.moves import Dice
from tournaments.scoring import MatchRules, MatchScoreResult, PlayedGame, match_progress


@dataclass(frozen=True, slots=True)
class Roll:
    """The side on roll rolled ``dice``; the play follows as a ``Turn`` with the same dice."""

    dice: Dice


@dataclass(frozen=True, slots=True)
class First:
    """Match player ``player`` (1 or 2) moves first, playing White, in the game about to start."""

    player: int


@dataclass(frozen=True, slots=True)
class OpeningThrow:
    """The opening throw: White's die and Black's, one each (art. 26.3)."""

    white: int
    black: int

    @property
    def first(self) -> Colour:
        """Who moves first: the higher die (never equal: a tie is thrown again)."""
        return Colour.WHITE if self.white > self.black else Colour.BLACK

    @property
    def dice(self) -> Dice:
        """Both numbers thrown, the first mover's roll."""
        return (max(self.white, self.black), min(self.white, self.black))


@dataclass(frozen=True, slots=True)
class Flag:
    """Match player ``player``'s time ran out: they lose the match."""

    player: int


Entry = Action | Roll | First | OpeningThrow | Flag
#: The match players by side, as the clocks and the flag entry name them.
SIDE_NAMES = {1: "home", 2: "away"}


# Why an entry cannot come next (games.rules.errors).
FIRST_BEFORE_ROLL = Template(
    "first-before-roll", "who moves first is chosen before the game's first roll"
)
ROLL_ENTERED = Template("roll-entered", "the roll is entered already: play it, or undo it")
OTHER_ROLL = Template("other-roll", "the roll entered is %(rolled)s, not %(given)s")
DAVE_AFTER_ROLL = Template("dave-after-roll", "dave is offered before the roll, not after it")
DAVE_CANNOT_MATTER = Template(
    "dave-cannot-matter",
    "no dave: whoever wins this game wins the match at the present stake, so raising it "
    "changes nothing",
)
NOT_FIRST = Template("entry-first", "who moves first is %(example)s or 2, not %(data)s")
NOT_FLAG = Template("entry-flag", "a flag fall is %(example)s, not %(data)s")
NOT_OPENING = Template(
    "entry-opening", "the opening throw is %(example)s, one die each, not %(data)s"
)
OPENING_TIE = Template(
    "opening-tie", "both threw %(die)s: equal dice are thrown again, and nobody moves yet"
)
AT_ENTRY = Template("at-entry", "game %(game)s, turn %(turn)s: %(reason)s")


def entry_from_json(data: Any) -> Entry:
    """Read an entry: a game action as ``action_from_json`` reads it, ``{"dice": "64"}`` alone
    (a roll whose play comes next), ``{"first": 1}`` or ``{"flag": "home"}``.
    ``NotationError`` says what is wrong."""
    if isinstance(data, dict) and set(data) == {"dice"}:
        return Roll(parse_dice(data["dice"]))
    if isinstance(data, dict) and "first" in data:
        player = data["first"]
        if set(data) != {"first"} or type(player) is not int or player not in (1, 2):
            raise NotationError(NOT_FIRST(example='{"first": 1}', data=quoted(data)))
        return First(player)
    if isinstance(data, dict) and "flag" in data:
        side = data["flag"]
        if set(data) != {"flag"} or side not in ("home", "away"):
            raise NotationError(NOT_FLAG(example='{"flag": "home"} or "away"', data=quoted(data)))
        return Flag(1 if side == "home" else 2)
    if isinstance(data, dict) and "opening" in data:
        return _opening_throw(data)
    return action_from_json(data)


def _opening_throw(data: dict[str, Any]) -> OpeningThrow:
    thrown = data["opening"]
    if set(data) == {"opening"} and isinstance(thrown, dict) and set(thrown) == {"white", "black"}:
        white, black = thrown["white"], thrown["black"]
        if all(type(die) is int and 1 <= die <= 6 for die in (white, black)):
            return OpeningThrow(white, black)
    example = '{"opening": {"white": 3, "black": 5}}'
    raise NotationError(NOT_OPENING(example=example, data=quoted(data)))


def entry_to_json(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, Roll):
        return {"dice": f"{entry.dice[0]}{entry.dice[1]}"}
    if isinstance(entry, First):
        return {"first": entry.player}
    if isinstance(entry, Flag):
        return {"flag": SIDE_NAMES[entry.player]}
    if isinstance(entry, OpeningThrow):
        return {"opening": {"white": entry.white, "black": entry.black}}
    return action_to_json(entry)


class EntryError(RulesError):
    """An entry that cannot come next: why, and where (``game`` 1-based, ``turn`` the game's
    roll it belongs to, ``player`` the match player it concerns, or 0)."""

    def __init__(self, reason: str, *, game: int, turn: int, player: int) -> None:
        super().__init__(reason)
        self.game = game
        self.turn = turn
        self.player = player

    @property
    def said(self) -> Reason:
        return AT_ENTRY(game=self.game, turn=self.turn, reason=self.reason)


@dataclass(frozen=True, slots=True)
class GameDone:
    """A finished game: who played White, how it ended, and how many entries it took."""

    white: int
    outcome: Outcome
    entries: int

    def to_json(self) -> dict[str, Any]:
        outcome = self.outcome
        return {
            "white": self.white,
            "entries": self.entries,
            "winner": None if outcome.winner is None else outcome.winner.value,
            "ending": outcome.ending.value,
            "value": outcome.value,
            "stake": outcome.stake,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameDone:
        winner = None if data["winner"] is None else Colour(data["winner"])
        outcome = Outcome(winner, Ending(data["ending"]), data["value"], data["stake"])
        return cls(data["white"], outcome, data["entries"])

    @property
    def winner(self) -> int | None:
        """The match player who won (None: drawn)."""
        if self.outcome.winner is None:
            return None
        return self.white if self.outcome.winner is Colour.WHITE else 3 - self.white


class Recording:
    """Where a recorded match stands after its entries; ``add`` takes the next one.

    ``game`` is the engine's state of the game on the board; ``game_entries`` and
    ``game_actions`` count its entries and actions, ``last_action`` is its last (the finished
    games are the checkpoints ``done``); ``white`` the match player playing White in it,
    ``dice`` a roll waiting for its play, ``score`` the score of the finished games.
    ``checkpoint`` writes the game in progress as JSON and ``from_checkpoint`` goes on from it,
    so that an entry is checked without replaying the entries before it.
    """

    score: MatchScoreResult
    number: int
    white: int
    game: GameState
    game_entries: int
    game_actions: int
    last_action: Action | None
    dice: Dice | None

    def __init__(self, rules: MatchRules, done: Sequence[GameDone] = ()) -> None:
        self.rules = rules
        self.variant = rules.to_variant()
        self.done = list(done)
        self.done_entries = sum(game.entries for game in self.done)
        self.lost_on_time: int | None = None
        self._start_game()

    @classmethod
    def replay(
        cls, rules: MatchRules, entries: Sequence[Entry], done: Sequence[GameDone] = ()
    ) -> Recording:
        """The recording after ``entries``, taking the finished games of ``done`` (checkpoints
        of these same entries) as they are, and checking every entry after them."""
        kept, start = resume_point(done, len(entries))
        return cls.resumed(rules, kept, entries[start:])

    @classmethod
    def from_checkpoint(
        cls, rules: MatchRules, done: Sequence[GameDone], data: dict[str, Any]
    ) -> Recording:
        """The recording whose finished games are ``done`` and whose game on the board is the
        ``checkpoint`` ``data`` written after its last entry."""
        recording = cls(rules, done)
        recording.number = data["number"]
        recording.white = data["white"]
        recording.game = GameState.resumed(recording.variant, data["game"])
        recording.game_entries = data["entries"]
        recording.game_actions = data["actions"]
        recording.last_action = None if data["last"] is None else action_from_json(data["last"])
        recording.dice = None if data["dice"] is None else parse_dice(data["dice"])
        recording.lost_on_time = data.get("lost_on_time")
        return recording

    def checkpoint(self) -> dict[str, Any]:
        """The game on the board as JSON (with ``done``, all ``from_checkpoint`` needs)."""
        dice = self.dice
        last = self.last_action
        return {
            "number": self.number,
            "white": self.white,
            "entries": self.game_entries,
            "actions": self.game_actions,
            "last": None if last is None else action_to_json(last),
            "dice": None if dice is None else f"{dice[0]}{dice[1]}",
            "game": self.game.checkpoint(),
            "lost_on_time": self.lost_on_time,
        }

    @classmethod
    def resumed(
        cls, rules: MatchRules, kept: Sequence[GameDone], tail: Iterable[Entry]
    ) -> Recording:
        """The recording of the finished games ``kept`` and then the entries ``tail``, each
        checked: what a write replays (``resume_point`` says from where), so that its work is
        the game in progress, not the match."""
        recording = cls(rules, kept)
        for entry in tail:
            recording.add(entry)
        return recording

    # --- State ----------------------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """How many entries the recording holds."""
        return self.done_entries + self.game_entries

    @property
    def finished(self) -> bool:
        return self.score.finished or self.lost_on_time is not None

    @property
    def winner(self) -> int | None:
        """The match player who won the match (None: not decided, or drawn)."""
        if self.lost_on_time is not None:
            return 3 - self.lost_on_time
        return self.score.winner

    @property
    def to_act(self) -> int | None:
        """The match player whose clock runs: who rolls, plays or answers dave next. None
        between games (before a game's first entry) and once the match is over: the clocks
        stand then."""
        if self.finished or not self.game_entries:
            return None
        game = self.game
        colour = game.position.turn.other if game.offered else game.position.turn
        return self._player(colour)

    @property
    def over(self) -> bool:
        """Whether the game on the board has ended (only a finished match leaves one there)."""
        return self.game.end_of_record().ending is not Ending.UNFINISHED

    def double_refusal(self) -> Reason | None:
        """Why the side on roll may not offer dave now (None: it may): the engine's reasons,
        a roll already entered, or a dave that cannot matter (``dave_cannot_matter``)."""
        if self.dice is not None:
            return DAVE_AFTER_ROLL()
        refusal = self.game.double_refusal()
        if refusal is None and self.dave_cannot_matter():
            return DAVE_CANNOT_MATTER()
        return refusal

    def dave_cannot_matter(self) -> bool:
        """Whether raising the stake cannot change the match (a dead dave): in a match to N
        points, each player needs no more than the present stake, so whoever wins the game
        wins the match, at any stake, and a dropped dave ends it the same way (RULES.md: a
        drop loses one oyn at the stake before the offer; a drawn game's credit does not
        depend on the stake). A match to 1 is the plain case: no dave in it is ever worth
        offering. A fixed number of games counts every point, so there it always matters."""
        length = self.rules.length
        if length is None:
            return False
        stake = self.game.stake
        return length - self.score.score1 <= stake and length - self.score.score2 <= stake

    def plays(self) -> list[LegalPlay]:
        """The legal plays of the roll waiting for its play (none without one)."""
        return [] if self.dice is None else legal_plays(self.game.position, self.dice)

    # --- Taking entries -------------------------------------------------------------------------

    def add(self, entry: Entry) -> None:
        """Check ``entry`` with the engine and take it, or raise ``EntryError`` (nothing
        changes)."""
        if self.finished:
            raise self._error(MATCH_OVER(), 0)
        game = self.game
        if isinstance(entry, Flag):
            self.lost_on_time = entry.player
            self.game_entries += 1
            return
        if isinstance(entry, First):
            if self.game_entries:
                raise self._error(FIRST_BEFORE_ROLL(), 0)
            self.white = entry.player
        elif isinstance(entry, OpeningThrow):
            refusal = game.opens_refusal()
            if refusal is None and self.dice is not None:
                refusal = ROLL_ENTERED()
            if refusal is None and entry.white == entry.black:
                refusal = OPENING_TIE(die=entry.white)
            if refusal is not None:
                raise self._error(refusal, 0)
            game.apply(Opens(entry.first), self.game_actions)
            self.game_actions += 1
            self.last_action = None
            self.dice = entry.dice
        elif isinstance(entry, Roll):
            if self.dice is not None:
                raise self._error(ROLL_ENTERED(), 0)
            refusal = game.roll_refusal(entry.dice)
            if refusal is not None:
                raise self._error(refusal, self._player(game.position.turn))
            self.dice = entry.dice
        else:
            if isinstance(entry, Turn) and self.dice is not None:
                if sorted(entry.dice) != sorted(self.dice):
                    rolled = f"{self.dice[0]}{self.dice[1]}"
                    given = f"{entry.dice[0]}{entry.dice[1]}"
                    refused = OTHER_ROLL(rolled=rolled, given=given)
                    raise self._error(refused, self._player(game.position.turn))
            elif isinstance(entry, Double):
                refusal = self.double_refusal()
                if refusal is not None:
                    raise self._error(refusal, self._player(game.position.turn))
            try:
                game.apply(entry, self.game_actions)
            except GameError as error:
                raise EntryError(
                    error.reason, game=self.number, turn=error.turn, player=self._player(error.side)
                ) from None
            self.game_actions += 1
            self.last_action = entry
            self.dice = None
        self.game_entries += 1
        if self.over:
            self._finish_game()

    def _start_game(self) -> None:
        played = [PlayedGame(game.white, game.outcome) for game in self.done]
        score, crawford = match_progress(self.rules, played)
        self.score = score
        self.number = len(self.done) + 1
        self.white = 1 if not self.done else 3 - self.done[-1].white
        self.game = GameState.new(self.variant, crawford=crawford)
        self.game_entries = 0
        self.game_actions = 0
        self.last_action = None
        self.dice = None

    def _finish_game(self) -> None:
        """The game on the board has ended: it becomes a checkpoint and the next one starts,
        unless the match is decided (then its last position stays on the board)."""
        game = GameDone(self.white, self.game.end_of_record(), self.game_entries)
        self.done.append(game)
        self.done_entries += game.entries
        board = (self.game, self.game_actions, self.last_action, self.white, self.number)
        self._start_game()
        if self.finished:
            self.game, self.game_actions, self.last_action, self.white, self.number = board

    def _player(self, colour: Colour) -> int:
        return self.white if colour is Colour.WHITE else 3 - self.white

    def _error(self, reason: str, player: int) -> EntryError:
        return EntryError(reason, game=self.number, turn=self.game.turns + 1, player=player)


def resume_point(done: Sequence[GameDone], ply: int) -> tuple[list[GameDone], int]:
    """For a recording of its first ``ply`` entries: the checkpoints of ``done`` it keeps as
    they are, and the entry its replay starts at. A game ending exactly at ``ply`` is replayed,
    so that its board stays on show when it ended the match."""
    kept: list[GameDone] = []
    used = 0
    for game in done:
        if used + game.entries >= ply:
            break
        kept.append(game)
        used += game.entries
    return kept, used


def games_of(
    entries: Sequence[Entry], done: Sequence[GameDone], *, on_board: int | None = None
) -> list[tuple[int, tuple[Action, ...]]]:
    """The games' records (the match player who played White, and the game's actions) cut
    from ``entries`` by the finished games' checkpoints; ``on_board``: the match player playing
    White in the game after them, whose actions (if any) are kept as an unfinished game, as a
    match lost on time keeps the game its flag fell in."""
    games = []
    start = 0
    for game in done:
        chunk = entries[start : start + game.entries]
        start += game.entries
        games.append((game.white, _actions(chunk)))
    rest = _actions(entries[start:])
    if on_board is not None and rest:
        games.append((on_board, rest))
    return games


def _actions(entries: Sequence[Entry]) -> tuple[Action, ...]:
    """The game actions of a game's entries: a roll, the choice of who plays White and a flag
    fall are steps of the recording; the opening throw is the engine's ``Opens``."""
    return tuple(
        Opens(entry.first) if isinstance(entry, OpeningThrow) else entry
        for entry in entries
        if not isinstance(entry, Roll | First | Flag)
    )


def number(value: Fraction) -> int | float:
    """A score as JSON writes it: a whole number, or a half point."""
    return int(value) if value.denominator == 1 else float(value)


def state_json(recording: Recording) -> dict[str, Any]:
    """The state of ``GET /api/v1/matches/<id>/live`` (the contract's fields first)."""
    game = recording.game
    position = game.position
    dice = recording.dice
    score = recording.score
    plays = recording.plays()
    live = not recording.finished
    lost = recording.lost_on_time
    holder = None if len(game.holders) == 2 else next(iter(game.holders)).value
    return {
        "ply": recording.ply,
        "game": recording.number,
        "variant": recording.variant.name,
        "position": position.to_json(),
        "on_roll": position.turn.value,
        "dice": None if dice is None else f"{dice[0]}{dice[1]}",
        "legal_plays": [
            {"play": str(legal.play), "position_id": legal.position.position_id()}
            for legal in plays
            if legal.play
        ],
        "score": {
            "home": number(score.score1),
            "away": number(score.score2),
            "length": recording.rules.length,
            "games": recording.rules.games,
            "crawford_game": score.crawford_game,
        },
        "stake": game.stake,
        "finished": recording.finished,
        "winner": recording.winner,
        "lost_on_time": None if lost is None else SIDE_NAMES[lost],
        "white": recording.white,
        "crawford": game.crawford,
        "last_turn": game.last_turn,
        "holder": holder,
        "offered": recording.variant.dave.next_stake(game.stake) if game.offered else None,
        "first": game.first.value,
        "opening_roll": recording.rules.opening_roll,
        "may": {
            "first": live and not recording.game_entries,
            "opening": live and game.opens_refusal() is None and dice is None,
            "roll": live and dice is None and game.roll_refusal((1, 2)) is None,
            "double": live and recording.double_refusal() is None,
            "answer": live and game.offered,
            "resign": live,
        },
        "max_value": recording.variant.max_value,
        "accepted_moves": recording.variant.accepted_moves,
        "games": [
            {"number": index, **done.to_json(), "winner_player": done.winner}
            for index, done in enumerate(recording.done, start=1)
        ],
    }

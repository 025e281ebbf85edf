"""Games and matches: a record of turns and dave actions replayed to an outcome.

A game record is the list of what happened, in order: each ``Turn`` (a roll and its play by the
side on roll), ``Double`` (the side on roll offers dave before rolling), ``Take``/``Drop`` (the
answer), ``Resign``. A game with the opening throw (``Variant.opens_with_throw``) may start with
``Opens``: the side whose die was higher moves first (White, without it). ``replay_game`` checks
every action against the rules and returns the outcome, or raises ``GameError`` at the first
illegal one with its turn number.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.rules.errors import (
    IllegalPlayError,
    NotationError,
    Reason,
    RulesError,
    Template,
    clipped,
    quoted,
)
from games.rules.moves import Dice, LegalPlay, check_play, physical_play
from games.rules.notation import Play, parse_dice
from games.rules.position import BAR, CHECKERS, OFF, Colour, Position
from games.rules.variants import LongNardy, Variant

# Why an action of a game is refused, and where (games.rules.errors).
OFFERED_FIRST = Template(
    "dave-offered-first", "dave was offered: take or drop comes before the roll"
)
NO_OPENING_DOUBLE = Template("no-opening-double", "the first roll of a game is never a double")
OFFERED_ALREADY = Template(
    "dave-offered-already", "dave was already offered: take or drop comes next"
)
NO_DAVE = Template("no-dave", "dave is not played in this game")
NO_DAVE_CRAWFORD = Template("no-dave-crawford", "no dave in the Crawford game")
NO_DAVE_OPENING = Template("no-dave-opening", "no dave before the opening throw")
NO_OPENING_THROW = Template("no-opening-throw", "this game has no opening throw: White moves first")
OPENS_FIRST = Template("opens-first", "who moves first is thrown for before the game's first roll")
NO_DAVE_LAST_TURN = Template(
    "no-dave-last-turn", "no dave on the last turn after White has borne off"
)
NOT_HOLDER = {
    "white": Template("white-not-holder", "white does not hold the right to offer dave"),
    "black": Template("black-not-holder", "black does not hold the right to offer dave"),
}
STAKE_CAP = Template("stake-cap", "the stake may not exceed %(stake)s")
NOT_OFFERED = Template("dave-not-offered", "no dave was offered")
RESIGN_VALUE = Template(
    "resign-value", "a resignation concedes 1 to %(most)s game values, not %(value)s"
)
GAME_OVER = Template("game-over", "the game is already over")
MATCH_OVER = Template("match-over", "the match is already over")
NO_ACCEPTING = Template("no-accepting", "an opponent may not accept an illegal play in these rules")
NOT_AN_ACTION = Template("action-not-object", "a game action is a JSON object, not %(data)s")
NOT_A_ROLL = Template("action-roll", "a roll is %(example)s, not %(data)s")
NOT_ACCEPTED = Template("action-accepted", "a play accepted as made says %(example)s, not %(data)s")
NOT_A_RESIGNATION = Template("action-resign", "a resignation is %(example)s, not %(data)s")
NOT_OPENS = Template("action-opens", "who moves first is %(example)s, not %(data)s")
UNKNOWN_ACTION = Template("action-unknown", "unknown game action %(data)s")
AT_TURN = Template("at-turn", "turn %(turn)s, %(colour)s%(play)s: %(reason)s")
AT_GAME_TURN = Template(
    "at-game-turn", "game %(game)s, turn %(turn)s, %(colour)s%(play)s: %(reason)s"
)
#: The colours' names in a reason.
COLOUR_NAMES = {
    "white": Template("colour-white", "white"),
    "black": Template("colour-black", "black"),
}


@dataclass(frozen=True, slots=True)
class Turn:
    """The side on roll rolled ``dice`` and played ``play`` (possibly the empty play);
    ``accepted``: the opponent accepted the play as it was made, legal or not (seed 001)."""

    dice: Dice
    play: Play
    accepted: bool = False

    @classmethod
    def of(cls, dice: Dice | str, play: Play | str, *, accepted: bool = False) -> Turn:
        played = Play.parse(play) if isinstance(play, str) else play
        return cls(parse_dice(dice), played, accepted)


@dataclass(frozen=True, slots=True)
class Double:
    """The side on roll offers dave: to raise the stake to the next value."""


@dataclass(frozen=True, slots=True)
class Take:
    """The opponent accepts dave: the stake rises and only the accepter may offer the next."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The opponent declines dave and loses one oyn at the stake before the offer."""


@dataclass(frozen=True, slots=True)
class Resign:
    """``side`` gives up the game, conceding ``value``: 1 oyn, 2 mars, 3 koks."""

    side: Colour
    value: int = 1


@dataclass(frozen=True, slots=True)
class Opens:
    """The opening throw (one die each, art. 26.3) made ``side`` move first: its die was the
    higher. The first ``Turn`` plays both numbers thrown."""

    side: Colour


Action = Turn | Double | Take | Drop | Resign | Opens


def action_to_json(action: Action) -> dict[str, Any]:
    """A game action as JSON: ``{"dice": "64", "play": "24/18 13/9"}`` (with ``"accepted":
    true`` when the opponent accepted it as made), ``{"double": true}``, ``{"take": true}``,
    ``{"drop": true}``, ``{"resign": "white", "value": 1}``, ``{"opens": "black"}``."""
    if isinstance(action, Turn):
        written = {"dice": f"{action.dice[0]}{action.dice[1]}", "play": str(action.play)}
        return {**written, "accepted": True} if action.accepted else written
    if isinstance(action, Double):
        return {"double": True}
    if isinstance(action, Take):
        return {"take": True}
    if isinstance(action, Drop):
        return {"drop": True}
    if isinstance(action, Opens):
        return {"opens": action.side.value}
    return {"resign": action.side.value, "value": action.value}


def actions_as_made(actions: Sequence[Action], made: Sequence[LegalPlay]) -> tuple[Action, ...]:
    """The actions with each turn's play as the engine made it (``GameReplay.made``): every step
    made and every hit marked. This is the form to store: a written play may join a checker's
    steps and leave a hit unmarked (``13/3`` for ``13/7* 7/3``), and read again, it would take
    the path that hits nothing."""
    plays = iter(made)
    return tuple(
        Turn(action.dice, next(plays).play, action.accepted) if isinstance(action, Turn) else action
        for action in actions
    )


def action_from_json(data: Any) -> Action:
    """Read what ``action_to_json`` writes; ``NotationError`` says what is wrong otherwise."""
    if not isinstance(data, dict):
        raise NotationError(NOT_AN_ACTION(data=quoted(data)))
    if "dice" in data:
        dice, play = data["dice"], data.get("play", "")
        accepted = data.get("accepted", False)
        if not isinstance(dice, str | list) or not isinstance(play, str):
            example = "{'dice': '64', 'play': '24/18 13/9'}"
            raise NotationError(NOT_A_ROLL(example=example, data=quoted(data)))
        if type(accepted) is not bool:
            raise NotationError(NOT_ACCEPTED(example='"accepted": true', data=quoted(data)))
        return Turn.of(parse_dice(dice), play, accepted=accepted)
    for key, kind in (("double", Double), ("take", Take), ("drop", Drop)):
        if data.get(key) is True:
            return kind()
    if "resign" in data:
        side, value = data["resign"], data.get("value", 1)
        if side not in ("white", "black") or type(value) is not int:
            example = '{"resign": "white", "value": 1}'
            raise NotationError(NOT_A_RESIGNATION(example=example, data=quoted(data)))
        return Resign(Colour(side), value)
    if "opens" in data:
        side = data["opens"]
        if set(data) != {"opens"} or side not in ("white", "black"):
            raise NotationError(NOT_OPENS(example='{"opens": "black"}', data=quoted(data)))
        return Opens(Colour(side))
    raise NotationError(UNKNOWN_ACTION(data=quoted(data)))


class Ending(enum.Enum):
    BEAR_OFF = "bear-off"
    DROP = "drop"
    RESIGN = "resign"
    DRAW = "draw"
    UNFINISHED = "unfinished"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. ``value`` is 1 (oyn), 2 (mars) or 3 (koks); 0 for a draw or no end."""

    winner: Colour | None
    ending: Ending
    value: int
    stake: int

    @property
    def points(self) -> int:
        return self.value * self.stake


@dataclass(frozen=True, slots=True)
class GameReplay:
    """The outcome, every position on the way (the start, then one after each turn) and each
    turn's play as the engine made it."""

    outcome: Outcome
    positions: tuple[Position, ...]
    made: tuple[LegalPlay, ...]

    @property
    def plays(self) -> tuple[Play, ...]:
        """Each turn's play as the engine made it: single steps, every hit marked (made when
        asked for: checking a record needs only the outcome)."""
        return tuple([legal.play for legal in self.made])


class GameError(RulesError):
    """An illegal action in a game record: where it is and what is wrong.

    ``turn`` counts rolls from 1; ``action`` is the index in the record; ``game`` is set by
    ``replay_match`` (1-based).
    """

    def __init__(
        self, reason: str, *, action: int, turn: int, side: Colour, play: str = "", game: int = 0
    ) -> None:
        super().__init__(reason)
        self.action = action
        self.turn = turn
        self.side = side
        self.play = clipped(play)  # a 100 kB play is not repeated whole (errors.QUOTE_LIMIT)
        self.game = game

    @property
    def said(self) -> Reason:
        where = {
            "turn": self.turn,
            "colour": COLOUR_NAMES[self.side.value](),
            "play": f" {quoted(self.play)}" if self.play else "",
            "reason": self.reason,
        }
        return AT_GAME_TURN(game=self.game, **where) if self.game else AT_TURN(**where)


def game_value(variant: Variant, loser: Sequence[int]) -> int:
    """Oyn (1) when the loser bore off a checker, else mars (2), or koks (3) where played.

    Koks: the loser bore off nothing and still has a checker on the bar or in the winner's home
    (the loser's points 19..24).
    """
    if loser[OFF]:
        return 1
    if variant.max_value == 3 and (loser[BAR] or any(loser[19:25])):
        return 3
    return 2


@dataclass(slots=True)
class GameState:
    """The running state of a game, action by action: what ``replay_game`` walks a record with,
    and what a game recorded at the table is kept in between its actions."""

    variant: Variant
    crawford: bool
    position: Position
    from_start: bool = True  # False for a game picked up in the middle
    stake: int = 1
    holders: set[Colour] = field(default_factory=lambda: {Colour.WHITE, Colour.BLACK})
    offered: bool = False
    turns: int = 0
    last_turn: bool = False  # Black's last turn under the Federation draw rule
    outcome: Outcome | None = None
    positions: list[Position] = field(default_factory=list)
    made: list[LegalPlay] = field(default_factory=list)  # each turn's play, as checked
    #: A game taken up from a checkpoint: the last turn's play made before it.
    resumed_play: Play | None = None
    #: Who moved first: White, unless the opening throw made it Black (``Opens``).
    first: Colour = Colour.WHITE
    #: Whether the record said who moved first (``Opens``): it says so once, first.
    opened: bool = False

    @classmethod
    def new(
        cls, variant: Variant, *, crawford: bool = False, start: Position | None = None
    ) -> GameState:
        """A game from the starting position (White on roll), or from ``start``."""
        position = start or Position.initial(variant)
        return cls(variant, crawford, position, from_start=start is None, positions=[position])

    @property
    def last_play(self) -> Play | None:
        """The play of the last turn, as the engine made it (None before the first)."""
        return self.made[-1].play if self.made else self.resumed_play

    def checkpoint(self) -> dict[str, Any]:
        """The game's state as JSON, all a game needs to go on (``resumed``): the position and
        the flags, not the history (its positions and plays stay with the record)."""
        outcome = self.outcome
        last_play = self.last_play
        return {
            "position": self.position.to_json(),
            "crawford": self.crawford,
            "from_start": self.from_start,
            "stake": self.stake,
            "holders": sorted(colour.value for colour in self.holders),
            "offered": self.offered,
            "turns": self.turns,
            "last_turn": self.last_turn,
            "outcome": None
            if outcome is None
            else {
                "winner": None if outcome.winner is None else outcome.winner.value,
                "ending": outcome.ending.value,
                "value": outcome.value,
                "stake": outcome.stake,
            },
            "last_play": None if last_play is None else str(last_play),
            "first": self.first.value,
            "opened": self.opened,
        }

    @classmethod
    def resumed(cls, variant: Variant, data: dict[str, Any]) -> GameState:
        """The game of a ``checkpoint``, going on from there (its history is not kept)."""
        position = Position.from_json(data["position"], variant)
        ended = data["outcome"]
        outcome = None
        if ended is not None:
            winner = None if ended["winner"] is None else Colour(ended["winner"])
            outcome = Outcome(winner, Ending(ended["ending"]), ended["value"], ended["stake"])
        return cls(
            variant,
            data["crawford"],
            position,
            from_start=data["from_start"],
            stake=data["stake"],
            holders={Colour(colour) for colour in data["holders"]},
            offered=data["offered"],
            turns=data["turns"],
            last_turn=data["last_turn"],
            outcome=outcome,
            positions=[position],
            resumed_play=None if data["last_play"] is None else Play.parse(data["last_play"]),
            first=Colour(data.get("first", "white")),
            opened=data.get("opened", False),
        )

    def apply(self, action: Action, index: int) -> None:
        """Play the record's action number ``index`` (0-based), or raise ``GameError`` saying
        where and why it is illegal; an illegal action changes nothing."""
        side = self.position.turn
        if isinstance(action, Take | Drop):
            side = side.other
        elif isinstance(action, Resign | Opens):
            side = action.side
        try:
            if self.outcome is not None:
                raise RulesError(GAME_OVER())
            if isinstance(action, Turn):
                self.play_turn(action)
            elif isinstance(action, Double):
                self.double()
            elif isinstance(action, Take | Drop):
                self.answer(isinstance(action, Take))
            elif isinstance(action, Opens):
                self.opens(action.side)
            else:
                self.resign(action)
        except RulesError as error:
            raise GameError(
                error.reason, action=index, turn=self.turns + 1, side=side, play=_written(action)
            ) from None

    def _made(self, turn: Turn) -> LegalPlay:
        """The play as the engine makes it: a legal play, or one the opponent accepted as made,
        moved by the dice where the checkers can go (``physical_play``)."""
        if not turn.accepted:
            return check_play(self.position, turn.dice, turn.play)
        if not self.variant.accepted_moves:
            raise RulesError(NO_ACCEPTING())
        try:
            return check_play(self.position, turn.dice, turn.play)
        except IllegalPlayError:
            return physical_play(self.position, turn.dice, turn.play)

    def finish(self, winner: Colour | None, ending: Ending, value: int) -> None:
        self.outcome = Outcome(winner, ending, value, self.stake)

    def roll_refusal(self, dice: Dice) -> Reason | None:
        """Why the side on roll may not roll ``dice`` now (None: it may)."""
        if self.outcome is not None:
            return GAME_OVER()
        if self.offered:
            return OFFERED_FIRST()
        if self._opening() and dice[0] == dice[1]:
            return NO_OPENING_DOUBLE()
        return None

    def play_turn(self, turn: Turn) -> None:
        refusal = self.roll_refusal(turn.dice)
        if refusal is not None:
            raise RulesError(refusal)
        mover = self.position.turn
        legal = self._made(turn)
        self.turns += 1
        self.position = legal.position
        self.positions.append(self.position)
        self.made.append(legal)
        finished = self.position.opponent[OFF] == CHECKERS
        if self.last_turn:
            if finished:
                self.finish(None, Ending.DRAW, 0)
            else:
                self.finish(
                    self.first, Ending.BEAR_OFF, game_value(self.variant, self.position.opponent)
                )
        elif finished:
            if self._federation_applies(mover):
                self.last_turn = True
            else:
                self.finish(mover, Ending.BEAR_OFF, game_value(self.variant, self.position.mover))

    def _opening(self) -> bool:
        """Whether the next roll is the opening throw (``Variant.opens_with_throw``)."""
        return self.from_start and self.turns == 0 and self.variant.opens_with_throw

    def opens_refusal(self) -> Reason | None:
        """Why the opening throw may not make a side move first now (None: it may)."""
        if self.outcome is not None:
            return GAME_OVER()
        if not self.variant.opens_with_throw:
            return NO_OPENING_THROW()
        if not self.from_start or self.turns or self.offered or self.opened:
            return OPENS_FIRST()
        return None

    def opens(self, side: Colour) -> None:
        """The opening throw made ``side`` move first: it is on roll."""
        refusal = self.opens_refusal()
        if refusal is not None:
            raise RulesError(refusal)
        self.first = side
        self.opened = True
        self.position = replace(self.position, turn=side)
        self.positions[-1] = self.position

    def _federation_applies(self, mover: Colour) -> bool:
        """The Federation draw: the first mover bore off first (White, or Black after the
        opening throw), and the other gets a last turn."""
        return (
            isinstance(self.variant, LongNardy)
            and self.variant.federation_draw
            and mover is self.first
        )

    def double_refusal(self) -> Reason | None:
        """Why the side on roll may not offer dave now (None: it may)."""
        mover = self.position.turn
        dave = self.variant.dave
        if self.outcome is not None:
            return GAME_OVER()
        if self.offered:
            return OFFERED_ALREADY()
        if not dave.enabled:
            return NO_DAVE()
        if self.crawford:
            return NO_DAVE_CRAWFORD()
        if self._opening():
            return NO_DAVE_OPENING()
        if self.last_turn:
            return NO_DAVE_LAST_TURN()
        if mover not in self.holders:
            return NOT_HOLDER[mover.value]()
        if dave.max_stake is not None and dave.next_stake(self.stake) > dave.max_stake:
            return STAKE_CAP(stake=dave.max_stake)
        return None

    def double(self) -> None:
        refusal = self.double_refusal()
        if refusal is not None:
            raise RulesError(refusal)
        self.offered = True

    def answer(self, take: bool) -> None:
        if not self.offered:
            raise RulesError(NOT_OFFERED())
        self.offered = False
        doubler = self.position.turn
        if take:
            self.stake = self.variant.dave.next_stake(self.stake)
            self.holders = {doubler.other}
        else:
            self.finish(doubler, Ending.DROP, 1)

    def resign(self, resign: Resign) -> None:
        if not 1 <= resign.value <= self.variant.max_value:
            most = self.variant.max_value
            raise RulesError(RESIGN_VALUE(most=most, value=resign.value))
        self.finish(resign.side.other, Ending.RESIGN, resign.value)

    def end_of_record(self) -> Outcome:
        """The outcome if the record stopped here: unfinished, unless the game is over (or
        Black's last turn under the Federation rule cannot change it)."""
        if self.outcome is not None:
            return self.outcome
        if self.last_turn and not _could_bear_off_all(self.position.mover):
            # The second mover cannot finish in one turn: the last turn changes nothing, the
            # first mover has won.
            return Outcome(
                self.first,
                Ending.BEAR_OFF,
                game_value(self.variant, self.position.mover),
                self.stake,
            )
        return Outcome(None, Ending.UNFINISHED, 0, self.stake)


def _could_bear_off_all(side: Sequence[int]) -> bool:
    """At most four checkers left and all in the home: one roll of a double could finish."""
    return CHECKERS - side[OFF] <= 4 and not any(side[7:26])


def replay_game(
    variant: Variant,
    actions: Iterable[Action],
    *,
    crawford: bool = False,
    start: Position | None = None,
) -> GameReplay:
    """Replay a game to its outcome, from the starting position (White on roll) or ``start``."""
    game = GameState.new(variant, crawford=crawford, start=start)
    for index, action in enumerate(actions):
        game.apply(action, index)
    return GameReplay(game.end_of_record(), tuple(game.positions), tuple(game.made))


def _written(action: Action) -> str:
    return str(action.play) if isinstance(action, Turn) else ""


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game of a match: which match player (1 or 2) played White, and what happened."""

    white: int
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The match score after every game, and who won (None while undecided or drawn)."""

    score: tuple[int, int]
    outcomes: tuple[Outcome, ...]
    winner: int | None
    crawford_game: int | None  # 1-based number of the Crawford game, if one was played


@dataclass(slots=True)
class MatchScore:
    """The running score of a match: who has how many points, and which game is Crawford.

    Under the Crawford rule, the single game right after a player first reaches ``length - 1``
    is played without dave.
    """

    length: int | None  # None: a fixed number of games, all counted
    crawford: bool = True
    points: list[int] = field(default_factory=lambda: [0, 0])
    games: int = 0
    crawford_game: int | None = None  # 1-based number of the Crawford game, once played

    @property
    def over(self) -> bool:
        return self.length is not None and max(self.points) >= self.length

    @property
    def winner(self) -> int | None:
        """The match player (1 or 2) ahead once the match is decided, else None."""
        decided = self.over if self.length is not None else self.points[0] != self.points[1]
        return (1 if self.points[0] > self.points[1] else 2) if decided else None

    def start_game(self) -> bool:
        """Count one more game; True when it is the Crawford game."""
        self.games += 1
        is_crawford = (
            self.crawford
            and self.length is not None
            and self.crawford_game is None
            and self.length - 1 in self.points
            and self.games > 1
        )
        if is_crawford:
            self.crawford_game = self.games
        return is_crawford

    def add(self, white: int, outcome: Outcome) -> None:
        """Credit a game's points to the match player who won it (``white`` played White)."""
        if outcome.winner is not None:
            player = white if outcome.winner is Colour.WHITE else 3 - white
            self.points[player - 1] += outcome.points


def replay_match(
    variant: Variant,
    games: Sequence[MatchGame],
    *,
    length: int | None,
    crawford: bool = True,
) -> MatchResult:
    """Replay a match to ``length`` points (``None``: a fixed number of games, all counted).

    Games after a player reached ``length`` are an error.
    """
    score = MatchScore(length, crawford)
    outcomes: list[Outcome] = []
    for number, match_game in enumerate(games, start=1):
        if match_game.white not in (1, 2):
            raise ValueError("MatchGame.white is 1 or 2")
        if score.over:
            raise GameError(MATCH_OVER(), action=0, turn=0, side=Colour.WHITE, game=number)
        is_crawford = score.start_game()
        try:
            outcome = replay_game(variant, match_game.actions, crawford=is_crawford).outcome
        except GameError as error:
            error.game = number
            raise
        outcomes.append(outcome)
        score.add(match_game.white, outcome)
    points = (score.points[0], score.points[1])
    return MatchResult(points, tuple(outcomes), score.winner, score.crawford_game)

"""The frames of the board replay viewer: every position of a match, step by step, as JSON.

Pure Python on top of the rules engine (no Django), so the page, the API and the tests all see the
same frames. The engine replays each game (``replay_game`` checks every action and gives the
position after each turn); this module only adds what a viewer needs on top: the board in one
fixed display orientation, the stake and who holds dave, the match score, and a short description
of each step.

Display orientation: the 24 points are counted 1..24 from White's point of view whatever the
variant. The top row shows White's points 13..24 from left to right, the bottom row 12..1, so
White's home (1-6) is bottom right and White moves counter-clockwise. In Short Nardy Black moves
the other way round (its point p is White's 25 - p); in Long Nardy Black also moves
counter-clockwise, its head (its 24) on White's 12 at bottom left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple, NotRequired, TypedDict

from games.rules.errors import NotationError
from games.rules.game import (
    Action,
    Double,
    Drop,
    Ending,
    GameState,
    MatchScore,
    Outcome,
    Resign,
    Take,
    Turn,
    replay_game,
)
from games.rules.moves import Dice, LegalPlay, legal_plays
from games.rules.notation import Play
from games.rules.position import BAR, OFF, Colour, Position
from games.rules.variants import Variant

Side = Literal["white", "black"]
Kind = Literal["start", "roll", "turn", "double", "take", "drop", "resign", "end"]

#: The names of the game values, as RULES.md writes them.
VALUE_NAMES = {1: "oyn", 2: "mars", 3: "koks"}


class Counts(TypedDict):
    """One number per colour (checkers on the bar, or borne off)."""

    white: int
    black: int


class Board(TypedDict):
    """Where the checkers stand. ``points[i]`` is White's point i + 1: + White, - Black."""

    points: list[int]
    bar: Counts
    off: Counts


class Homes(TypedDict):
    """Each colour's home points, in White's numbering."""

    white: list[int]
    black: list[int]


class Layout(TypedDict):
    """What the drawing needs to know about the variant's geometry, in White's numbering.

    ``top`` and ``bottom`` are the rows left to right; ``black_numbers[i]`` is Black's own number
    of White's point i + 1 (to label the board from Black's side); ``bar`` says whether the
    variant has a bar (Short Nardy) at all.
    """

    top: list[int]
    bottom: list[int]
    black_numbers: list[int]
    homes: Homes
    bar: bool


class Result(TypedDict):
    """How a game ended: ``winner`` a colour, ``winner_player`` the match player (1 or 2)."""

    winner: Side | None
    winner_player: int | None
    ending: str
    value: int
    points: int


class Verdict(NamedTuple):
    """An engine's verdict on one checker play: the equity it lost, its mark ("blunder",
    "error" or ""), and the best play in the mover's own numbering (gnubg's ``24/18 13/9``)."""

    loss: float
    mark: str
    best: str


class PlayAnalysis(TypedDict):
    """A turn frame's verdict, with the board the best play leads to and the points it moves
    (None and [] when the best play cannot be found among the legal ones)."""

    loss: float
    mark: str
    best: str
    board: Board | None
    moved: list[int]


class Frame(TypedDict):
    """One step of the replay: the position after an action, and everything shown beside it.

    ``step`` is 0 for the start of a game, k after its k-th action, and the number of actions + 1
    for the end. ``side`` is who acted (None at start and end); ``turn`` is who is on roll in the
    position shown; ``numbering`` is whose own point numbers the play is written in (the mover of
    the last turn), so the board can be labelled to match. ``dice`` and ``play`` are set on turn
    frames only; ``moved`` lists the display points (1..24) a turn's checkers left or reached.
    ``owner`` holds the only right to offer dave (None while both hold it); ``offered`` is the
    stake offered, between a dave offer and its answer (else None). The score is in match players
    (1, 2): before and after this game.
    """

    game: int
    step: int
    kind: Kind
    side: Side | None
    turn: Side
    numbering: Side
    board: Board
    dice: list[int] | None
    play: str | None
    moved: list[int]
    stake: int
    owner: Side | None
    offered: int | None
    crawford: bool
    white_player: int
    score_before: list[float]
    score_after: list[float]
    description: str
    result: Result | None
    #: On a turn an engine has judged: what its play cost and the best play.
    analysis: NotRequired[PlayAnalysis]
    #: On an action entered at the table: when (``at``, ISO 8601, the server's time) and, in a
    #: timed match, each player's seconds left then (``home``, ``away``).
    time: NotRequired[Mapping[str, object]]
    #: A turn the opponent accepted as it was made, though the rules do not allow it.
    accepted: NotRequired[bool]


class BoardReplay(TypedDict):
    """All a match page embeds for the viewer: the variant, its layout, the players, the match
    rules (``length`` None: a fixed number of games; ``dave`` whether stakes can be raised at all)
    and the frames."""

    variant: Literal["long", "short"]
    layout: Layout
    names: list[str]
    length: int | None
    crawford: bool
    dave: bool
    frames: list[Frame]


def match_frames(
    variant: Variant,
    games: Sequence[tuple[int, Sequence[Action]]],
    *,
    names: tuple[str, str],
    length: int | None,
    crawford: bool,
    verdicts: Mapping[tuple[int, int], Verdict] | None = None,
    times: Sequence[Sequence[Mapping[str, object]]] = (),
) -> BoardReplay:
    """The replay of a match: for each game (which match player, 1 or 2, played White, and its
    actions) a start frame, one frame after every action and an end frame. ``verdicts`` by
    (game, k) mark the k-th checker play of a game with an engine's verdict (``PlayAnalysis``);
    ``times``, a list a game, give the frame of each action the time it was entered.

    Every game is replayed by the engine, so an illegal record raises ``GameError`` here as it
    does everywhere else. The score follows the engine's ``MatchScore``, which also says which
    game is the Crawford game (played without dave).
    """
    score = MatchScore(length, crawford)
    frames: list[Frame] = []
    for number, (white_player, actions) in enumerate(games, start=1):
        is_crawford = score.start_game()
        before: list[float] = [score.points[0], score.points[1]]
        replay = replay_game(variant, actions, crawford=is_crawford)
        score.add(white_player, replay.outcome)
        after: list[float] = [score.points[0], score.points[1]]
        game = _GameFrames(
            variant=variant,
            number=number,
            white_player=white_player,
            names=names,
            crawford=is_crawford,
            score_before=before,
            score_after=after,
        )
        game_frames = game.frames(
            actions, replay.positions, replay.plays, replay.outcome, verdicts or {}
        )
        game_times = times[number - 1] if number <= len(times) else ()
        for frame in game_frames:
            if 1 <= frame["step"] <= min(len(actions), len(game_times)):
                frame["time"] = game_times[frame["step"] - 1]
        frames.extend(game_frames)
    return {
        "variant": variant.name,
        "layout": board_layout(variant),
        "names": [names[0], names[1]],
        "length": length,
        "crawford": crawford,
        "dave": variant.dave.enabled,
        "frames": frames,
    }


def live_frame(
    game: GameState,
    *,
    step: int,
    last: Action | None,
    number: int,
    white_player: int,
    names: tuple[str, str],
    score: list[float],
    dice: Dice | None,
) -> Frame:
    """The frame of a game as it stands while it is recorded at the table: the position after
    its last action, a roll waiting for its play, or the end with the result. ``score`` is the
    match score shown beside it. ``step`` is how many actions the game has had, ``last`` the
    last of them (None: none yet): a game taken up from its checkpoint has no list of them."""
    frames = _GameFrames(
        variant=game.variant,
        number=number,
        white_player=white_player,
        names=names,
        crawford=game.crawford,
        score_before=score,
        score_after=score,
    )
    frames.stake = game.stake
    frames.owner = None if len(game.holders) == 2 else next(iter(game.holders))
    frames.offered = game.variant.dave.next_stake(game.stake) if game.offered else None
    position = game.position
    on_roll = position.turn
    outcome = game.end_of_record()
    if outcome.ending is not Ending.UNFINISHED:
        end = frames.frame(step + 1, "end", position, None, frames.end_text(outcome))
        end["result"] = frames.result(outcome)
        return end
    if dice is not None:
        frames.numbering = on_roll
        text = f"{_name(on_roll)} rolled {dice[0]}{dice[1]}"
        frame = frames.frame(step, "roll", position, on_roll, text)
        frame["dice"] = [dice[0], dice[1]]
        return frame
    if isinstance(last, Turn):
        frames.numbering = on_roll.other
        return frames.turn_frame(step, position, on_roll.other, last, game.last_play or last.play)
    frames.numbering = on_roll
    if isinstance(last, Double):
        text = f"{_name(on_roll)} doubles to {frames.offered}"
        return frames.frame(step, "double", position, on_roll, text)
    if isinstance(last, Take):
        text = f"{_name(on_roll.other)} takes: the stake is {game.stake}"
        return frames.frame(step, "take", position, on_roll.other, text)
    return frames.frame(0, "start", position, None, frames.start_text())


def board_layout(variant: Variant) -> Layout:
    """The rows, Black's numbering and the homes of the variant, all in White's numbering."""
    return {
        "top": list(range(13, 25)),
        "bottom": list(range(12, 0, -1)),
        "black_numbers": [variant.opponent_point(point) for point in range(1, 25)],
        "homes": {
            "white": list(range(1, 7)),
            "black": sorted(variant.opponent_point(point) for point in range(1, 7)),
        },
        "bar": variant.hitting,
    }


def display_board(position: Position) -> Board:
    """The position in the display orientation: White's numbering, + White, - Black."""
    white, black = position.white, position.black
    opponent_point = position.variant.opponent_point
    return {
        "points": [white[point] - black[opponent_point(point)] for point in range(1, 25)],
        "bar": {"white": white[BAR], "black": black[BAR]},
        "off": {"white": white[OFF], "black": black[OFF]},
    }


def display_point(variant: Variant, colour: Colour, point: int) -> int:
    """A point in ``colour``'s own numbering as White's number (1..24)."""
    return point if colour is Colour.WHITE else variant.opponent_point(point)


def moved_points(variant: Variant, mover: Colour, play: Play) -> list[int]:
    """The display points where a play left or added checkers; a point only passed through (a
    checker's stop between two dice) does not count, so the highlight matches the written play."""
    return sorted(
        display_point(variant, mover, point) for point in play.balance() if OFF < point < BAR
    )


def play_analysis(before: Position, dice: Dice, verdict: Verdict) -> PlayAnalysis:
    """A verdict with the board its best play leads to, found among the legal plays by where
    its checkers leave and land (an engine may not mark its hits)."""
    best = _legal_play_like(before, dice, verdict.best)
    mover = before.turn
    return {
        "loss": round(verdict.loss, 4),
        "mark": verdict.mark,
        "best": verdict.best if best is None else str(best.play),
        "board": None if best is None else display_board(best.position),
        "moved": [] if best is None else moved_points(before.variant, mover, best.play),
    }


def _legal_play_like(before: Position, dice: Dice, text: str) -> LegalPlay | None:
    try:
        wanted = Play.parse(text).balance()
    except NotationError:
        return None
    return next((p for p in legal_plays(before, dice) if p.play.balance() == wanted), None)


class _GameFrames:
    """The frames of one game: walks its actions beside the engine's positions.

    The engine's replay gives the position after each turn; the dave bookkeeping here (stake,
    holder, pending offer) only follows actions the engine has already accepted, and its final
    stake is checked against the engine's outcome.
    """

    def __init__(
        self,
        *,
        variant: Variant,
        number: int,
        white_player: int,
        names: tuple[str, str],
        crawford: bool,
        score_before: list[float],
        score_after: list[float],
    ) -> None:
        self.variant = variant
        self.number = number
        self.white_player = white_player
        self.names = names
        self.crawford = crawford
        self.score_before = score_before
        self.score_after = score_after
        self.stake = 1
        self.owner: Colour | None = None
        self.offered: int | None = None
        self.numbering = Colour.WHITE

    def player_name(self, colour: Colour) -> str:
        player = self.white_player if colour is Colour.WHITE else 3 - self.white_player
        return self.names[player - 1]

    def frames(
        self,
        actions: Sequence[Action],
        positions: Sequence[Position],
        plays: Sequence[Play],
        outcome: Outcome,
        verdicts: Mapping[tuple[int, int], Verdict],
    ) -> list[Frame]:
        position = positions[0]
        frames = [self.frame(0, "start", position, None, self.start_text())]
        turns = 0
        for step, action in enumerate(actions, start=1):
            on_roll = position.turn
            if isinstance(action, Turn):
                play = plays[turns]
                before = position
                turns += 1
                position = positions[turns]
                self.numbering = on_roll
                frame = self.turn_frame(step, position, on_roll, action, play)
                verdict = verdicts.get((self.number, turns))
                if verdict is not None:
                    frame["analysis"] = play_analysis(before, action.dice, verdict)
                frames.append(frame)
            elif isinstance(action, Double):
                self.offered = self.variant.dave.next_stake(self.stake)
                text = f"{_name(on_roll)} doubles to {self.offered}"
                frames.append(self.frame(step, "double", position, on_roll, text))
            elif isinstance(action, Take):
                self.offered = None
                self.stake = self.variant.dave.next_stake(self.stake)
                self.owner = on_roll.other
                text = f"{_name(on_roll.other)} takes: the stake is {self.stake}"
                frames.append(self.frame(step, "take", position, on_roll.other, text))
            elif isinstance(action, Drop):
                self.offered = None
                text = f"{_name(on_roll.other)} drops"
                frames.append(self.frame(step, "drop", position, on_roll.other, text))
            elif isinstance(action, Resign):
                value = VALUE_NAMES.get(action.value, str(action.value))
                text = f"{_name(action.side)} resigns ({value})"
                frames.append(self.frame(step, "resign", position, action.side, text))
        if self.stake != outcome.stake:
            raise AssertionError(f"stake {self.stake} disagrees with the engine's {outcome.stake}")
        end = self.frame(len(actions) + 1, "end", position, None, self.end_text(outcome))
        end["result"] = self.result(outcome)
        frames.append(end)
        return frames

    def frame(
        self, step: int, kind: Kind, position: Position, side: Colour | None, description: str
    ) -> Frame:
        return {
            "game": self.number,
            "step": step,
            "kind": kind,
            "side": None if side is None else _side(side),
            "turn": _side(position.turn),
            "numbering": _side(self.numbering),
            "board": display_board(position),
            "dice": None,
            "play": None,
            "moved": [],
            "stake": self.stake,
            "owner": None if self.owner is None else _side(self.owner),
            "offered": self.offered,
            "crawford": self.crawford,
            "white_player": self.white_player,
            "score_before": list(self.score_before),
            "score_after": list(self.score_after),
            "description": description,
            "result": None,
        }

    def turn_frame(
        self, step: int, position: Position, mover: Colour, turn: Turn, play: Play
    ) -> Frame:
        dice = f"{turn.dice[0]}{turn.dice[1]}"
        written = str(play)
        text = f"{_name(mover)} {dice}: {written or 'cannot move'}"
        frame = self.frame(step, "turn", position, mover, text)
        frame["dice"] = [turn.dice[0], turn.dice[1]]
        frame["play"] = written
        frame["moved"] = moved_points(self.variant, mover, play)
        if turn.accepted:
            frame["accepted"] = True
            frame["description"] = f"{text} (accepted as made)"
        return frame

    def start_text(self) -> str:
        white, black = self.player_name(Colour.WHITE), self.player_name(Colour.BLACK)
        crawford = " (Crawford game)" if self.crawford else ""
        return f"Game {self.number}{crawford}: {white} plays White, {black} plays Black"

    def end_text(self, outcome: Outcome) -> str:
        if outcome.ending is Ending.UNFINISHED:
            return "The game is unfinished"
        if outcome.ending is Ending.DRAW or outcome.winner is None:
            return "The game is drawn"
        value = VALUE_NAMES.get(outcome.value, str(outcome.value))
        points = f"{outcome.points} point{'' if outcome.points == 1 else 's'}"
        winner = f"{self.player_name(outcome.winner)} ({_name(outcome.winner)})"
        return f"{winner} wins {points} ({value})"

    def result(self, outcome: Outcome) -> Result:
        winner_player = None
        if outcome.winner is not None:
            is_white = outcome.winner is Colour.WHITE
            winner_player = self.white_player if is_white else 3 - self.white_player
        return {
            "winner": None if outcome.winner is None else _side(outcome.winner),
            "winner_player": winner_player,
            "ending": outcome.ending.value,
            "value": outcome.value,
            "points": outcome.points,
        }


def _side(colour: Colour) -> Side:
    return "white" if colour is Colour.WHITE else "black"


def _name(colour: Colour) -> str:
    return "White" if colour is Colour.WHITE else "Black"

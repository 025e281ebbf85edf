"""Jellyfish/gnubg match files (.mat): read them, check them against the rules, write them.

A match file is a header of ``; [Key "value"]`` lines, ``N point match``, then games: `` Game k``,
a score line ``name : n     name2 : m`` and numbered lines with two columns, the left one player
1's. A column entry is a roll and its play (``64: 24/18 13/9``), a dave action (``Doubles => 2``,
``Takes``, ``Drops``) or a result (``Wins 2 points``, ``Losses 1 point``). Each player writes its
moves in its own numbering.

``read_match`` turns the text into a ``MatchRecord`` (each game a list of the engine's actions);
``check_match`` replays it and names the first illegal action by game, line and player;
``write_match`` writes the gnubg layout, which ``read_match`` reads back to the same games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.rules.errors import NotationError, Reason, RulesError, Template, clipped, quoted
from games.rules.game import (
    OFFERED_FIRST,
    Action,
    Double,
    Drop,
    Ending,
    GameError,
    GameReplay,
    MatchGame,
    MatchScore,
    Opens,
    Outcome,
    Resign,
    Take,
    Turn,
    replay_game,
)
from games.rules.moves import LegalPlay
from games.rules.notation import Play
from games.rules.position import CHECKERS, OFF, Colour
from games.rules.variants import DaveRules, LongNardy, ShortNardy, Variant

# The key is stripped in code: "\s*key\s*" in the pattern backtracks cubically on a long line.
_HEADER = re.compile(r';\s*\[(?P<key>[^"\]]*)"(?P<value>[^"]*)"\s*\]\s*')
_LENGTH = re.compile(r"\s*(?P<length>\d+)\s+points?\s+match\s*", re.IGNORECASE)
_GAME = re.compile(r"\s*Game\s+(?P<number>\d+)\s*", re.IGNORECASE)
# A score line "name1 : n1   name2 : n2" is split at colons by ``_score_line``; one pattern with
# two lazy names backtracks cubically on a long line that is not one.
_SCORE_AFTER_FIRST = re.compile(r"\s*(?P<score>\d+)\s+")
_SCORE_AFTER_LAST = re.compile(r"\s*(?P<score>\d+)\s*")
_NUMBER_MARK = re.compile(r"(?<!\S)(?P<number>\d+)\)")
# Where a column entry starts: a roll ("64:") or a dave or result word.
_ENTRY = re.compile(r"(?<!\S)(?:\d\d:|(?:Doubles|Takes|Drops|Wins|Losses)\b)", re.IGNORECASE)
_ROLL = re.compile(r"(?P<dice>\d\d):(?P<play>.*)", re.DOTALL)
_DOUBLE = re.compile(r"Doubles\s*=>\s*(?P<stake>\d+)", re.IGNORECASE)
_RESULT = re.compile(
    r"(?P<word>Wins|Losses)\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?",
    re.IGNORECASE,
)
_UNRECORDED = "????"

#: This service's header of the plays the opponent accepted as made (seed 001), "game.action"
#: (both from 1), e.g. ``; [Accepted "1.1 3.14"]``: other programs do not know it, and gnubg may
#: refuse such a play (a comment line above the games says so).
ACCEPTED = "Accepted"

#: This service's header of who moved first after the opening throw (art. 26.3: one die each,
#: the higher moves first, and it may be Black), "game.colour" for each game whose record says
#: so, e.g. ``; [Opens "1.black 2.white"]``. The columns say which player rolled first; this
#: says which colour they played. Other programs, which know no colours, pass over it.
OPENS = "Opens"

#: gnubg's name of backgammon (Short Nardy where the triple game, koks, counts).
BACKGAMMON = "Backgammon"

# Why a text is not a match file, or a game of it is wrong (games.rules.errors).
NO_GAME = Template("mat-no-game", "no game found: a match file has lines like %(example)s")
NO_LENGTH = Template("mat-no-length", "no %(example)s line before the first game")
ACCEPTED_PLACES = Template("mat-accepted-places", "%(key)s lists %(example)s places, not %(value)s")
ON_OR_OFF = Template("mat-on-or-off", "header %(key)s is %(on)s or %(off)s, not %(value)s")
NOT_A_NUMBER = Template("mat-not-a-number", "%(key)s is a number, not %(value)s")
ONE_OR_OTHER = Template("mat-one-or-other", "%(key)s is %(one)s or %(other)s, not %(value)s")
UNSUPPORTED = Template(
    "mat-variation", "unsupported variation %(variation)s: %(long)s, %(short)s or %(backgammon)s"
)
NO_SCORE_LINE = Template("mat-score-line", "expected the score line %(example)s")
TOO_MANY_ENTRIES = Template("mat-too-many-entries", "more than two entries on one line: %(text)s")
UNREADABLE = Template("mat-unreadable", "cannot read %(text)s")
TOO_MANY_DIGITS = Template("mat-digits", "%(what)s has too many digits")
AFTER_RESULT = Template("mat-after-result", "nothing may follow the result of the game")
NO_DAVE_TO_ANSWER = Template(
    "mat-no-dave-to-answer", "%(entry)s answers no dave offered by the opponent"
)
RESIGNED_ALREADY = Template("mat-resigned-already", "the game was already resigned")
UNREADABLE_ENTRY = Template("mat-unreadable-entry", "cannot read this entry")
ROLL_AFTER_END = Template("mat-roll-after-end", "no roll may follow the end of the game")
OTHER_ROLLER = Template("mat-other-roller", "player %(roller)s is on roll, not player %(player)s")
NOT_DICE = Template("mat-not-dice", "dice are two numbers 1..6, not %(dice)s")
DAVE_BEFORE_ROLL = Template(
    "mat-dave-before-roll", "dave is offered by the player on roll, before rolling"
)
NEXT_STAKE = Template("mat-next-stake", "the next stake is %(expected)s, not %(stake)s")
UNRECORDED = Template(
    "mat-unrecorded", "an unrecorded turn is only allowed just before a resignation"
)
MATCH_OVER = Template(
    "mat-match-over",
    "the match to %(length)s points was already over",
    count="length",
)
AT_LINE = Template("at-line", "line %(line)s: %(reason)s")
AT_MOVE = Template(
    "at-move", "game %(game)s, move %(move)s, player %(player)s: %(play)s: %(reason)s"
)
#: What a number of the file is, in a reason.
THE_MATCH_LENGTH = Template("mat-the-match-length", "the match length")
THE_SCORE = Template("mat-the-score", "the score")
A_MOVE_NUMBER = Template("mat-a-move-number", "a move number")
THE_STAKE = Template("mat-the-stake", "the stake")
THE_POINTS = Template("mat-the-points", "the number of points")
CUBE_LIMIT = Template("mat-cube-limit", "CubeLimit")


class MatchFormatError(RulesError):
    """A text that is not a match file at all (``line`` is 1-based, 0 when it is the whole)."""

    def __init__(self, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.line = line

    @property
    def said(self) -> str:
        return AT_LINE(line=self.line, reason=self.reason) if self.line else self.reason


class RecordError(RulesError):
    """What is wrong in a game of a match record, and where.

    ``move`` is the number of the numbered line, ``player`` 1 for the left column, 2 for the right;
    ``play`` is the entry as written (the play of a roll, or a dave or result entry).
    """

    def __init__(self, reason: str, *, game: int, move: int, player: int, play: str) -> None:
        super().__init__(reason)
        self.game = game
        self.move = move
        self.player = player
        self.play = clipped(play)  # a 100 kB entry is not repeated whole (errors.QUOTE_LIMIT)

    @property
    def said(self) -> Reason:
        return AT_MOVE(
            game=self.game,
            move=self.move,
            player=self.player,
            play=quoted(self.play),
            reason=self.reason,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "move": self.move,
            "player": self.player,
            "play": self.play,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Place:
    """Where an action stands in the file: its numbered line (0 if unnumbered), column, text."""

    move: int
    player: int
    text: str


@dataclass(frozen=True, slots=True)
class Claim:
    """What a ``Wins N points [and the match]`` line says."""

    player: int
    points: int
    match: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a match file.

    ``first`` is the match player who rolled first: White, unless the game's record starts with
    the opening throw's ``Opens`` (then the colour it names); ``score`` the score line before the
    game. A resignation is an action (``Resign``); the ``Wins`` line is kept as the ``claim``.
    ``places`` (one per action) only say where each action was written, so they do not count
    when records are compared.
    """

    first: int
    actions: tuple[Action, ...]
    score: tuple[int, int] = (0, 0)
    claim: Claim | None = None
    places: tuple[Place, ...] = field(default=(), compare=False)

    @property
    def first_colour(self) -> Colour:
        """The colour of the player who moved first: White, or as the opening throw says."""
        return _first_colour(self.actions)

    def colour(self, player: int) -> Colour:
        first = self.first_colour
        return first if player == self.first else first.other

    def player(self, colour: Colour) -> int:
        return self.first if colour is self.first_colour else 3 - self.first


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match file: the players, the rules, the length (None: not to a number of points), games.

    ``headers`` keeps the other header lines (site, event, date, ...) in their order.
    """

    variant: Variant
    players: tuple[str, str]
    length: int | None
    games: tuple[GameRecord, ...]
    crawford: bool = True
    headers: tuple[tuple[str, str], ...] = ()


# --- Reading ----------------------------------------------------------------------------------


def read_match(text: str) -> MatchRecord:
    """Read a match file. ``MatchFormatError`` when it is not one, ``RecordError`` when an entry
    of a game cannot be read (bad dice or notation, a player moving out of turn)."""
    lines = text.splitlines()
    headers: list[tuple[str, str]] = []
    length: int | None = None
    index = 0
    while index < len(lines) and not _GAME.fullmatch(lines[index]):
        line = lines[index]
        header = _HEADER.fullmatch(line)
        if header:
            headers.append((header["key"].strip(), header["value"]))
        elif match_length := _LENGTH.fullmatch(line):
            length = _number(match_length["length"], THE_MATCH_LENGTH, index + 1) or None
        index += 1
    if index == len(lines):
        raise MatchFormatError(NO_GAME(example="' Game 1'"))
    if length is None and not any(_LENGTH.fullmatch(line) for line in lines[:index]):
        raise MatchFormatError(NO_LENGTH(example="'N point match'"))
    variant, crawford, others = _rules_from_headers(headers)
    accepted = _accepted_places(_header(headers, ACCEPTED))
    if accepted:
        variant = replace(variant, accepted_moves=True)
    opens = _opens_of(_header(headers, OPENS))
    players = (_header(headers, "Player 1"), _header(headers, "Player 2"))
    games: list[GameRecord] = []
    while index < len(lines):
        end = index + 1
        while end < len(lines) and not _GAME.fullmatch(lines[end]):
            end += 1
        number = len(games) + 1
        game, names = _read_game(variant, lines, index, end, number, opens.get(number))
        games.append(_with_accepted(game, len(games) + 1, accepted))
        players = (players[0] or names[0], players[1] or names[1])
        index = end
    return MatchRecord(variant, players, length, tuple(games), crawford, tuple(others))


def _accepted_places(value: str) -> set[tuple[int, int]]:
    places = set()
    for place in value.split():
        game, _, action = place.partition(".")
        if not (game.isdecimal() and action.isdecimal()):
            refused = ACCEPTED_PLACES(key=ACCEPTED, example='"game.action"', value=quoted(place))
            raise MatchFormatError(refused)
        places.add((int(game), int(action)))
    return places


def _opens_of(value: str) -> dict[int, Colour]:
    """The ``Opens`` header: for each game it names, the colour that moved first."""
    opens = {}
    for place in value.split():
        game, _, colour = place.partition(".")
        if not game.isdecimal() or colour.lower() not in ("white", "black"):
            example = '"game.white" or "game.black"'
            raise MatchFormatError(ACCEPTED_PLACES(key=OPENS, example=example, value=quoted(place)))
        opens[int(game)] = Colour(colour.lower())
    return opens


def _first_colour(actions: Sequence[Action]) -> Colour:
    """Who moved first in a game's actions: White, unless the opening throw says otherwise."""
    return actions[0].side if actions and isinstance(actions[0], Opens) else Colour.WHITE


def _with_accepted(game: GameRecord, number: int, accepted: set[tuple[int, int]]) -> GameRecord:
    """The game with its turns at the ``accepted`` places marked as accepted as made."""
    if not any(place[0] == number for place in accepted):
        return game
    actions = tuple(
        replace(action, accepted=True)
        if isinstance(action, Turn) and (number, index) in accepted
        else action
        for index, action in enumerate(game.actions, start=1)
    )
    return replace(game, actions=actions)


def _accepted_of(record: MatchRecord) -> list[tuple[int, int, Turn]]:
    """The turns accepted as made: game and action number (from 1), and the turn."""
    return [
        (number, index, action)
        for number, game in enumerate(record.games, start=1)
        for index, action in enumerate(game.actions, start=1)
        if isinstance(action, Turn) and action.accepted
    ]


def _header(headers: Sequence[tuple[str, str]], key: str) -> str:
    for name, value in headers:
        if name.lower() == key.lower():
            return value
    return ""


def _switch(headers: Sequence[tuple[str, str]], key: str, default: bool) -> bool:
    value = _header(headers, key).strip().lower()
    if not value:
        return default
    if value in ("on", "yes", "true"):
        return True
    if value in ("off", "no", "false"):
        return False
    raise MatchFormatError(ON_OR_OFF(key=key, on='"On"', off='"Off"', value=quoted(value)))


# The headers that set the rules; the writer writes them back from the variant.
_RULE_HEADERS = (
    "Variation", "Crawford", "CubeLimit", "Dave", "DaveProgression", "Koks", "NoHitAndHide",
    "FederationDraw", "BlockCheck", "OpeningRoll", "Player 1", "Player 2", ACCEPTED, OPENS,
)  # fmt: skip


def _rules_from_headers(
    headers: Sequence[tuple[str, str]],
) -> tuple[Variant, bool, list[tuple[str, str]]]:
    variation = _header(headers, "Variation").strip() or BACKGAMMON
    limit = _header(headers, "CubeLimit").strip()
    if limit and not limit.isdecimal():  # not isdigit: int() does not read "²"
        raise MatchFormatError(NOT_A_NUMBER(key="CubeLimit", value=quoted(limit)))
    cube_limit = _number(limit, CUBE_LIMIT, 0) if limit else 0
    progression = _header(headers, "DaveProgression").strip().lower() or "geometric"
    if progression not in ("geometric", "arithmetic"):
        raise MatchFormatError(
            ONE_OR_OTHER(
                key="DaveProgression",
                one='"Geometric"',
                other='"Arithmetic"',
                value=quoted(progression),
            )
        )
    dave = DaveRules(
        enabled=_switch(headers, "Dave", True),
        progression="arithmetic" if progression == "arithmetic" else "geometric",
        max_stake=cube_limit if cube_limit > 0 else None,
    )
    variant: Variant
    name = variation.lower()
    if name in ("backgammon", "standard", "short nardy"):
        variant = ShortNardy(
            dave=dave,
            koks=_switch(headers, "Koks", name != "short nardy"),
            no_hit_and_hide=_switch(headers, "NoHitAndHide", False),
        )
    elif name == "long nardy":
        block_check = _header(headers, "BlockCheck").strip().lower() or "step"
        if block_check not in ("step", "turn"):
            raise MatchFormatError(
                ONE_OR_OTHER(
                    key="BlockCheck", one='"Step"', other='"Turn"', value=quoted(block_check)
                )
            )
        variant = LongNardy(
            dave=dave,
            block_check="turn" if block_check == "turn" else "step",
            federation_draw=_switch(headers, "FederationDraw", False),
            opening_roll=_switch(headers, "OpeningRoll", False),
        )
    else:
        raise MatchFormatError(
            UNSUPPORTED(
                variation=quoted(variation),
                long="Long Nardy",
                short="Short Nardy",
                backgammon=BACKGAMMON,
            )
        )
    crawford = _switch(headers, "Crawford", True)
    others = [(key, value) for key, value in headers if key not in _RULE_HEADERS]
    return variant, crawford, others


@dataclass(slots=True)
class _GameReader:
    """Turns the column entries of one game into engine actions, in order.

    Who is on roll follows from the record alone: the first roll makes its player the first
    mover (White, unless the ``Opens`` header names Black: ``opens``), each roll passes the
    dice, dave actions do not. A column that acts out of turn is an error here,
    before any replay.
    """

    variant: Variant
    number: int
    opens: Colour | None = None
    actions: list[Action] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    first: int | None = None
    roller: int | None = None
    stake: int = 1
    offered: int | None = None  # the stake offered by a pending dave
    ended: bool = False  # a result (Wins/Losses) or an unrecorded turn was read
    unrecorded: Place | None = None  # a turn written "????"
    resigned: bool = False
    conceded: tuple[int, Place] | None = None  # a "Losses N points" line
    dropped: bool = False
    borne_off: list[int] = field(default_factory=lambda: [0, 0])
    claim: Claim | None = None

    def error(self, reason: str, place: Place) -> RecordError:
        return RecordError(
            reason, game=self.number, move=place.move, player=place.player, play=place.text
        )

    def read_number(self, digits: str, what: Template, place: Place) -> int:
        try:
            return int(digits)
        except ValueError:  # more digits than int() reads (sys.get_int_max_str_digits)
            raise self.error(TOO_MANY_DIGITS(what=what()), place) from None

    def add(self, action: Action, place: Place) -> None:
        self.actions.append(action)
        self.places.append(place)

    def read(self, entry: str, place: Place) -> None:
        if self.claim is not None:
            raise self.error(AFTER_RESULT(), place)
        player = place.player
        if roll := _ROLL.fullmatch(entry):
            play = roll["play"].strip()
            self.read_roll(roll["dice"], play, Place(place.move, place.player, play))
        elif double := _DOUBLE.fullmatch(entry):
            self.read_double(self.read_number(double["stake"], THE_STAKE, place), place)
        elif entry.lower() in ("takes", "drops"):
            if self.offered is None or player == self.roller or self.ended:
                raise self.error(NO_DAVE_TO_ANSWER(entry=entry), place)
            if entry.lower() == "takes":
                self.stake = self.offered
                self.add(Take(), place)
            else:
                self.dropped = True
                self.add(Drop(), place)
            self.offered = None
        elif result := _RESULT.fullmatch(entry):
            points = self.read_number(result["points"], THE_POINTS, place)
            if result["word"].lower() == "wins":
                self.claim = Claim(player, points, bool(result["match"]))
            elif self.conceded is not None:
                raise self.error(RESIGNED_ALREADY(), place)
            else:
                self.conceded = (points, place)
                self.ended = True
        else:
            raise self.error(UNREADABLE_ENTRY(), place)

    def read_roll(self, dice_text: str, play_text: str, place: Place) -> None:
        player = place.player
        if self.ended:
            raise self.error(ROLL_AFTER_END(), place)
        if self.offered is not None:
            raise self.error(OFFERED_FIRST(), place)
        if self.roller is not None and player != self.roller:
            raise self.error(OTHER_ROLLER(roller=self.roller, player=player), place)
        high, low = sorted((int(dice_text[0]), int(dice_text[1])), reverse=True)
        if low < 1 or high > 6:
            raise self.error(NOT_DICE(dice=dice_text), place)
        if self.first is None:
            self.first = player
        self.roller = 3 - player
        if play_text == _UNRECORDED:
            self.unrecorded = place
            self.ended = True
            return
        try:
            play = Play.parse(play_text)
        except NotationError as error:
            raise self.error(error.reason, place) from None
        self.borne_off[player - 1] += sum(move.target == OFF for move in play.moves)
        self.add(Turn((high, low), play), place)

    def read_double(self, stake: int, place: Place) -> None:
        if self.ended or self.roller is None or place.player != self.roller:
            raise self.error(DAVE_BEFORE_ROLL(), place)
        expected = self.variant.dave.next_stake(self.stake)
        if stake != expected:
            raise self.error(NEXT_STAKE(expected=expected, stake=clipped(str(stake))), place)
        self.offered = stake
        self.add(Double(), place)

    def resign(self, player: int, points: int, place: Place) -> None:
        """Read ``points`` conceded as the smallest game value worth them at the stake.

        Sites write the points the winner gets, cut to what it needed to win the match, so the
        value is rounded up (and kept to the variant's highest); a result the replay then
        contradicts is a warning of ``check_match``.
        """
        value = min(self.variant.max_value, max(1, -(-points // self.stake)))
        if self.first is None:
            self.first = 3 - player
        first = self.opens or Colour.WHITE
        colour = first if player == self.first else first.other
        self.resigned = True
        self.add(Resign(colour, value), place)

    def finish(self, claim_place: Place | None) -> None:
        """A ``Wins`` line for a game that did not end on the board is the loser's resignation."""
        claim, conceded = self.claim, self.conceded
        finished = self.dropped or max(self.borne_off) >= CHECKERS
        if conceded is not None:
            # The Wins line names the winner; a Losses line on an unnumbered line may stand in
            # the wrong column (BackgammonGalaxy).
            points, place = conceded
            loser = 3 - claim.player if claim is not None else place.player
            self.resign(loser, points, place)
        elif claim is not None and claim_place is not None and not finished:
            self.resign(3 - claim.player, claim.points, claim_place)
        if self.unrecorded is not None and not self.resigned:
            raise self.error(UNRECORDED(), self.unrecorded)


def _read_game(
    variant: Variant,
    lines: Sequence[str],
    start: int,
    end: int,
    number: int,
    opens: Colour | None = None,
) -> tuple[GameRecord, tuple[str, str]]:
    reader = _GameReader(variant, number, opens)
    score, names, right_column, index = (0, 0), ("", ""), 30, start + 1
    while index < end and not lines[index].strip():
        index += 1
    if index < end:
        found = _score_line(lines[index])
        if found is None:
            example = "'name : n   name : m'"
            raise MatchFormatError(NO_SCORE_LINE(example=example), index + 1)
        names, scores, right_column = found
        score = (
            _number(scores[0], THE_SCORE, index + 1),
            _number(scores[1], THE_SCORE, index + 1),
        )
        index += 1
    claim_place: Place | None = None
    for line_index in range(index, end):
        line = lines[line_index]
        if not line.strip():
            continue
        for move, offset, rest in _numbered_parts(line, line_index + 1):
            for player, entry in _columns(rest, offset, right_column, line_index + 1):
                place = Place(move, player, entry)
                if _RESULT.fullmatch(entry) and entry.lower().startswith("wins"):
                    claim_place = place
                reader.read(entry, place)
    reader.finish(claim_place)
    first = reader.first or 1
    actions, places = tuple(reader.actions), tuple(reader.places)
    if opens is not None:  # said by the header, before the game's first roll
        actions, places = (Opens(opens), *actions), (Place(0, first, ""), *places)
    game = GameRecord(first, actions, score, reader.claim, places)
    return game, names


def _score_line(line: str) -> tuple[tuple[str, str], tuple[str, str], int] | None:
    """The names, the scores (as written) and the column where the second name starts (the right
    column of the game's lines) of a line ``name1 : n1   name2 : n2``; None if it is not one.

    The first name ends at the first colon followed by a number and a space, the second at the
    last colon, which only a number follows; either name may hold colons or be empty.
    """
    last = line.rfind(":")
    tail = _SCORE_AFTER_LAST.fullmatch(line, last + 1) if last > 0 else None
    if tail is None:
        return None
    colon = line.find(":")
    while 0 <= colon < last:
        head = _SCORE_AFTER_FIRST.match(line, colon + 1, last)
        if head is not None:
            name2 = line[head.end() : last].rstrip()
            right_column = head.end() if name2 else head.end("score") + 1
            names = (line[:colon].strip(), name2)
            return names, (head["score"], tail["score"]), right_column
        colon = line.find(":", colon + 1)
    return None


def _number(digits: str, what: Template, line: int) -> int:
    """A number of the file; one of more digits than int() reads is a format error."""
    try:
        return int(digits)
    except ValueError:  # sys.get_int_max_str_digits
        raise MatchFormatError(TOO_MANY_DIGITS(what=what()), line) from None


def _numbered_parts(line: str, number: int) -> Iterator[tuple[int, int, str]]:
    """The parts of a line as (line number or 0, column where the part starts, text).

    A line is normally one part, ``" 12) 64: 24/18 13/9     53: 8/3* 6/3"``. BackgammonGalaxy
    sometimes starts the next numbered line inside the right column
    (``" 24) 43: 21/18 18/14     24)  Losses 2 point     Wins 2 point"``): that is a part of its
    own, with its own two columns. ``number`` is the line's number in the file.
    """
    marks = list(_NUMBER_MARK.finditer(line))
    if not marks:
        yield 0, 0, line
        return
    if line[: marks[0].start()].strip():
        yield 0, 0, line[: marks[0].start()]
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        end = following.start() if following else len(line)
        yield _number(mark["number"], A_MOVE_NUMBER, number), mark.end(), line[mark.end() : end]


def _columns(rest: str, offset: int, right_column: int, line: int) -> Iterator[tuple[int, str]]:
    """The (player, entry) pairs of a line: one entry per column, the left one first.

    Entries are found by how they start, so a left entry that runs into the right column still
    splits; a lone entry belongs to the column its first character stands in.
    """
    starts = [found.start() for found in _ENTRY.finditer(rest)]
    if not starts:
        if rest.strip():
            raise MatchFormatError(UNREADABLE(text=quoted(rest.strip())), line)
        return
    if len(starts) > 2:
        raise MatchFormatError(TOO_MANY_ENTRIES(text=quoted(rest.strip())), line)
    if starts[0] and rest[: starts[0]].strip():
        raise MatchFormatError(UNREADABLE(text=quoted(rest[: starts[0]].strip())), line)
    entries = [rest[a:b].strip() for a, b in zip(starts, [*starts[1:], len(rest)], strict=True)]
    if len(entries) == 2:
        yield 1, entries[0]
        yield 2, entries[1]
    else:
        yield (2 if offset + starts[0] >= right_column - 2 else 1), entries[0]


# --- Checking ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameCheck:
    """The replayed result of one game, in match players: ``winner`` 1 or 2, None when none.
    It keeps the engine's whole outcome, so that a caller never replays the game again."""

    number: int
    winner: int | None
    outcome: Outcome
    #: Each turn's play as the engine made it (``games.rules.actions_as_made``), when the check
    #: was asked to keep them (``check_match(..., keep_plays=True)``).
    made: tuple[LegalPlay, ...] = ()

    @property
    def points(self) -> int:
        return self.outcome.points

    @property
    def ending(self) -> Ending:
        return self.outcome.ending

    #: The moves (as ``Place.move`` numbers them) of the plays the opponent accepted as made.
    accepted: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The game's report; ``accepted`` only when it has plays accepted as made."""
        report: dict[str, Any] = {
            "number": self.number,
            "winner": self.winner,
            "points": self.points,
            "ending": self.ending.value,
        }
        if self.accepted:
            report["accepted"] = list(self.accepted)
        return report


@dataclass(frozen=True, slots=True)
class MatchCheck:
    """The games replayed (up to the first error), warnings, and the first error if any."""

    games: tuple[GameCheck, ...]
    warnings: tuple[str, ...]
    error: RecordError | None

    @property
    def valid(self) -> bool:
        return self.error is None


def check_match(record: MatchRecord, *, keep_plays: bool = False) -> MatchCheck:
    """Replay every game; the first illegal action is the error, disagreements are warnings.

    A warning is a claimed result or a score line that the replay contradicts: the record is
    still legal play, only its bookkeeping is off. With ``keep_plays``, each game's check keeps
    its plays as the engine made them, to store them; they hold every position of the game, so
    a check that only judges the record (the corpus in 5 s) lets them go.
    """
    score = MatchScore(record.length, record.crawford)
    checks: list[GameCheck] = []
    warnings: list[str] = []
    for number, game in enumerate(record.games, start=1):
        if score.over:
            place = game.places[0] if game.places else Place(0, game.first, "")
            error = RecordError(
                MATCH_OVER(length=record.length),
                game=number, move=place.move, player=place.player, play=place.text,
            )  # fmt: skip
            return MatchCheck(tuple(checks), tuple(warnings), error)
        if game.score != tuple(score.points):
            warnings.append(
                f"game {number}: the score line says {game.score[0]}-{game.score[1]}, "
                f"the replay gives {score.points[0]}-{score.points[1]}"
            )
        try:
            replay = replay_game(record.variant, game.actions, crawford=score.start_game())
        except GameError as error:
            place = game.places[error.action] if game.places else Place(0, 1, error.play)
            failure = RecordError(
                error.reason, game=number, move=place.move, player=place.player, play=place.text
            )
            return MatchCheck(tuple(checks), tuple(warnings), failure)
        outcome = replay.outcome
        winner = None if outcome.winner is None else game.player(outcome.winner)
        places = game.places or tuple(
            Place(index, 0, "") for index in range(1, len(game.actions) + 1)
        )
        accepted = tuple(
            place.move
            for action, place in zip(game.actions, places, strict=True)
            if isinstance(action, Turn) and action.accepted
        )
        made = replay.made if keep_plays else ()
        checks.append(GameCheck(number, winner, outcome, made, accepted))
        score.add(game.player(Colour.WHITE), outcome)
        warnings.extend(_claim_warnings(number, game.claim, winner, outcome, score))
    return MatchCheck(tuple(checks), tuple(warnings), None)


def _claim_warnings(
    number: int, claim: Claim | None, winner: int | None, outcome: Outcome, score: MatchScore
) -> Iterator[str]:
    """A claimed result the replay contradicts. The game that ends a match may claim only the
    points its winner needed (as some sites write it)."""
    if claim is None:
        return
    needed = outcome.points
    if score.over and winner is not None and score.length is not None:
        needed = score.length - (score.points[winner - 1] - outcome.points)
    if claim.player != winner or claim.points not in (outcome.points, needed):
        replayed = (
            f"player {winner} wins {_points(outcome.points)}"
            if winner is not None
            else f"no winner ({outcome.ending.value})"
        )
        yield (
            f"game {number}: the record says player {claim.player} wins "
            f"{_points(claim.points)}, the replay gives {replayed}"
        )
    elif claim.match and not score.over:
        yield (
            f"game {number}: the record says the game ends the match, "
            f"the score is {score.points[0]}-{score.points[1]}"
        )


def _points(points: int) -> str:
    return f"{points} point{'' if points == 1 else 's'}"


# --- Writing ----------------------------------------------------------------------------------


def replay_record(record: MatchRecord) -> list[GameReplay]:
    """Every game replayed, the Crawford game known from the replayed score (``GameError`` at
    the first illegal action; ``check_match`` says where in the file)."""
    score = MatchScore(record.length, record.crawford)
    replays = []
    for game in record.games:
        replay = replay_game(record.variant, game.actions, crawford=score.start_game())
        score.add(game.player(Colour.WHITE), replay.outcome)
        replays.append(replay)
    return replays


def match_record(
    variant: Variant,
    players: tuple[str, str],
    games: Sequence[MatchGame],
    *,
    length: int | None,
    crawford: bool = True,
    headers: Sequence[tuple[str, str]] = (),
) -> MatchRecord:
    """A record of games played (each must be legal), with score lines and ``Wins`` lines filled."""
    score = MatchScore(length, crawford)
    records: list[GameRecord] = []
    for game in games:
        before = (score.points[0], score.points[1])
        outcome = replay_game(variant, game.actions, crawford=score.start_game()).outcome
        score.add(game.white, outcome)
        claim = None
        if outcome.winner is not None:
            winner = game.white if outcome.winner is Colour.WHITE else 3 - game.white
            claim = Claim(winner, outcome.points, score.over)
        first = game.white if _first_colour(game.actions) is Colour.WHITE else 3 - game.white
        records.append(GameRecord(first, game.actions, before, claim))
    return MatchRecord(variant, players, length, tuple(records), crawford, tuple(headers))


def write_match(record: MatchRecord) -> str:
    """The gnubg layout of a match record; ``read_match`` reads it back to the same games.

    Every game must be legal (``GameError`` otherwise): plays are written as the replay made them.
    """
    out = [f'; [{key} "{_header_value(value)}"]' for key, value in _headers(record)]
    for number, index, turn in _accepted_of(record):
        dice = f"{max(turn.dice)}{min(turn.dice)}"
        out.append(
            f"; Game {number}, action {index}: {dice}: {turn.play} was accepted by the opponent "
            "as made (seed 001): the rules do not allow it, and gnubg may refuse it"
        )
    out += ["", f" {record.length or 0} point match", ""]
    replays = replay_record(record)
    names = [_score_name(name) for name in record.players]
    for number, (game, replay) in enumerate(zip(record.games, replays, strict=True), start=1):
        out.append(f" Game {number}")
        score = f" : {game.score[0]}"
        room = _SCORE_LEFT - len(score)  # a space must stay before the second name
        name = names[0] if len(names[0]) <= room else names[0][: max(room - 1, 0)] + "…"
        left = f"{name}{score}"
        out.append(f" {left:<31}{names[1]} : {game.score[1]}")
        out += _game_lines(record.variant, game, replay.plays)
        out.append("")
    return "\n".join(out) + "\n"


#: The longest "name : n" before the second name of a score line, which starts in column 32:
#: the column of the right-hand entries of the game's lines follows from it.
_SCORE_LEFT = 30


def _one_line(text: str) -> str:
    """A name or header value kept on one line: a line break in it would start a line of the
    file (a header, a game) of its own."""
    return " ".join(text.splitlines())


def _header_value(value: str) -> str:
    """A header value as ``read_match`` reads it back: one line, no double quote (which ends
    the value; it is written as a single quote)."""
    return _one_line(value).replace('"', "'")


def _score_name(name: str) -> str:
    """A player's name on a score line (the headers keep the name as it is): one line, and a
    colon, which splits the score line, is written as a modifier letter colon (U+A789)."""
    return _one_line(name).replace(":", "\ua789")


def _headers(record: MatchRecord) -> list[tuple[str, str]]:
    variant = record.variant
    headers = [("Player 1", record.players[0]), ("Player 2", record.players[1])]
    headers += list(record.headers)
    if isinstance(variant, ShortNardy):
        if variant.koks and not variant.no_hit_and_hide:
            headers.append(("Variation", BACKGAMMON))
        else:
            headers += [
                ("Variation", ShortNardy.title),
                ("Koks", _on(variant.koks)),
                ("NoHitAndHide", _on(variant.no_hit_and_hide)),
            ]
    elif isinstance(variant, LongNardy):
        headers += [
            ("Variation", LongNardy.title),
            ("FederationDraw", _on(variant.federation_draw)),
            ("BlockCheck", variant.block_check.capitalize()),
        ]
        if variant.opening_roll:
            headers.append(("OpeningRoll", "On"))
    headers.append(("Crawford", _on(record.crawford)))
    accepted = _accepted_of(record)
    if accepted:
        headers.append((ACCEPTED, " ".join(f"{game}.{index}" for game, index, _ in accepted)))
    opens = [
        f"{number}.{game.actions[0].side.value}"
        for number, game in enumerate(record.games, start=1)
        if game.actions and isinstance(game.actions[0], Opens)
    ]
    if opens:
        headers.append((OPENS, " ".join(opens)))
    dave = variant.dave
    if not dave.enabled:
        headers.append(("Dave", "Off"))
    if dave.progression != "geometric":
        headers.append(("DaveProgression", dave.progression.capitalize()))
    if dave.max_stake is not None:
        headers.append(("CubeLimit", str(dave.max_stake)))
    return headers


def _on(flag: bool) -> str:
    return "On" if flag else "Off"


def _game_lines(variant: Variant, game: GameRecord, replayed: Sequence[Play]) -> list[str]:
    """Numbered lines of two columns; a ``Wins`` line that starts a line is not numbered.

    Plays are written as the replay made them, in gnubg's notation with every hit marked, so a
    record read from a dialect that never marks hits is written unambiguously.
    """
    plays = iter(replayed)
    entries: list[tuple[int, str]] = []
    stake, roller = 1, game.first
    for action in game.actions:
        if isinstance(action, Opens):  # said by the header; the columns say who rolled first
            continue
        if isinstance(action, Turn):
            dice = f"{max(action.dice)}{min(action.dice)}"
            entries.append((roller, f"{dice}: {next(plays)}".rstrip()))
            roller = 3 - roller
        elif isinstance(action, Double):
            stake = variant.dave.next_stake(stake)
            entries.append((roller, f" Doubles => {stake}"))
        elif isinstance(action, Take | Drop):
            entries.append((3 - roller, " Takes" if isinstance(action, Take) else " Drops"))
        elif game.claim is None:  # a resignation with no Wins line: write one
            winner = game.player(action.side.other)
            entries.append((winner, f" Wins {_points(action.value * stake)}"))
        elif game.claim.points != action.value * stake:  # keep what the loser conceded
            loser = game.player(action.side)
            entries.append((loser, f" Losses {_points(action.value * stake)}"))
    if game.claim is not None:
        match = " and the match" if game.claim.match else ""
        entries.append((game.claim.player, f" Wins {_points(game.claim.points)}{match}"))
    lines: list[list[Any]] = []  # [number, left, right]
    for player, text in entries:
        result = text.startswith((" Wins", " Losses"))
        if player == 2 and lines and lines[-1][2] is None:
            lines[-1][2] = text
        elif player == 1:
            lines.append([0 if result else len(lines) + 1, text, None])
        else:
            lines.append([0 if result else len(lines) + 1, "", text])
    written = []
    for count, left, right in lines:
        prefix = f"{count:3d}) " if count else "     "
        written.append(f"{prefix}{left:<27} {right or ''}".rstrip())
    return written

"""Moves and plays, and the gnubg-style notation they are written in.

A play is written in the mover's own numbering: ``24/18 13/9``, ``24/16`` (one checker, two dice),
``13/9(2)`` (repeated), ``6/off``, ``bar/22*`` (``*`` marks a hit), ``8/3*/1*`` (stops named).
The record dialect of BackgammonGalaxy writes the bar as ``25`` and off as ``0``; both are read.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from games.rules.errors import NotationError, Template, quoted
from games.rules.position import BAR, OFF

# Why a play or dice cannot be read (games.rules.errors).
NOT_TEXT = Template("play-not-text", "a play is text, not %(type)s")
UNREADABLE_MOVE = Template("unreadable-move", "cannot read %(token)s in play %(play)s")
NOT_TOWARD_HOME = Template(
    "not-toward-home", "%(token)s does not move toward home in play %(play)s"
)
REPEATS = Template("repeats", "a move repeats 1 to 4 times: %(token)s")
TOO_MANY_MOVES = Template("too-many-moves", "a roll moves at most 4 times: %(play)s")
NO_POINT_IN_PLAY = Template("no-point-in-play", "no point %(point)s in play %(play)s")
NOT_DICE = Template("not-dice", "dice are two numbers 1..6: %(dice)s")

_TOKEN = re.compile(r"(bar|\d{1,2})((?:/(?:off|\d{1,2})\*?)+)(?:\((\d)\))?", re.IGNORECASE)
_STOP = re.compile(r"/(off|\d{1,2})(\*?)", re.IGNORECASE)


class Move(NamedTuple):
    """One checker from ``source`` to ``target`` (25 = bar, 0 = off), by one die or several.

    A plain tuple, so that the move generator makes millions of them cheaply; the parser and
    ``check_play`` refuse moves that do not run from a higher point to a lower one.
    """

    source: int
    target: int
    hit: bool = False

    @property
    def distance(self) -> int:
        return self.source - self.target

    def __str__(self) -> str:
        return f"{_point_name(self.source)}/{_point_name(self.target)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """The moves of one roll, in the order written.

    Two plays are equal when they have the same effect: the same checkers leave and arrive at the
    same points (``24/18 18/13`` equals ``24/13``) with the same hits, so from one position they
    lead to the same position.
    """

    moves: tuple[Move, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read a play; an empty text (or gnubg's "Cannot Move") is the empty play."""
        if not isinstance(text, str):
            raise NotationError(NOT_TEXT(type=type(text).__name__))
        return _parse_play(text)

    @classmethod
    def _read(cls, text: str) -> Play:
        stripped = text.strip()
        if stripped == "" or stripped.lower() in ("cannot move", "-"):
            return cls(())
        moves: list[Move] = []
        for token in stripped.split():
            match = _TOKEN.fullmatch(token)
            if match is None:
                raise NotationError(UNREADABLE_MOVE(token=quoted(token), play=quoted(text)))
            source = _point_number(match.group(1), text)
            chain: list[Move] = []
            for stop in _STOP.finditer(match.group(2)):
                target = _point_number(stop.group(1), text)
                if target >= source:
                    raise NotationError(NOT_TOWARD_HOME(token=quoted(token), play=quoted(text)))
                chain.append(Move(source, target, bool(stop.group(2))))
                source = target
            repeat = int(match.group(3) or 1)
            if not 1 <= repeat <= 4:
                raise NotationError(REPEATS(token=quoted(token)))
            moves.extend(chain)
            # gnubg writes "6/1*(2)" for two checkers 6/1 of which the first hits the blot.
            moves.extend([move._replace(hit=False) for move in chain] * (repeat - 1))
        if len(moves) > 4:
            raise NotationError(TOO_MANY_MOVES(play=quoted(text)))
        return cls(tuple(moves))

    def __str__(self) -> str:
        return format_moves(self.moves)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"

    def balance(self) -> dict[int, int]:
        """How many checkers the play takes from (-) and brings to (+) each point, hits aside; a
        point a checker only passes through (a stop between two dice) is not in it."""
        balance: Counter[int] = Counter()
        for move in self.moves:
            balance[move.source] -= 1
            balance[move.target] += 1
        return {point: count for point, count in balance.items() if count}

    def _effect(self) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
        hits = sorted(move.target for move in self.moves if move.hit)
        return tuple(sorted(self.balance().items())), tuple(hits)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self._effect() == other._effect()

    def __hash__(self) -> int:
        return hash(self._effect())

    def __bool__(self) -> bool:
        return bool(self.moves)


# A match file writes the same few thousand plays again and again, and a Play never changes: the
# parsed ones are kept (a refused text raises each time, and is not kept).
_parse_play = functools.lru_cache(maxsize=8192)(Play._read)


def format_moves(moves: tuple[Move, ...] | list[Move]) -> str:
    """gnubg's way of writing a play: one checker's steps joined, repeats as ``(n)``.

    Steps of one checker are joined (``24/18 18/13`` → ``24/13``; a hit on the way stays visible:
    ``24/18*/13``); equal moves are counted; moves are listed from the highest point down.
    """
    chains: list[list[Move]] = []
    for move in moves:
        for chain in chains:
            if chain[-1].target == move.source:
                chain.append(move)
                break
        else:
            chains.append([move])
    texts = [_chain_text(chain) for chain in chains]
    ordered = sorted(
        zip(chains, texts, strict=True), key=lambda pair: (-pair[0][0].source, -pair[0][-1].target)
    )
    counts = Counter(texts)
    written: list[str] = []
    for _, text in ordered:
        if text in counts:
            count = counts.pop(text)
            written.append(f"{text}({count})" if count > 1 else text)
    return " ".join(written)


def _chain_text(chain: list[Move]) -> str:
    parts = [_point_name(chain[0].source)]
    for index, move in enumerate(chain):
        last = index == len(chain) - 1
        if last or move.hit:
            parts.append(_point_name(move.target) + ("*" if move.hit else ""))
    return "/".join(parts)


def _point_name(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def _point_number(name: str, text: str) -> int:
    lowered = name.lower()
    if lowered == "bar":
        return BAR
    if lowered == "off":
        return OFF
    number = int(lowered)
    if not 0 <= number <= BAR:
        raise NotationError(NO_POINT_IN_PLAY(point=number, play=quoted(text)))
    return number


def parse_dice(text: str | tuple[int, int] | list[int]) -> tuple[int, int]:
    """Read dice as ``"64"``, ``"6-4"``, ``"6 4"`` or a pair of numbers 1..6."""
    if type(text) is tuple and len(text) == 2 and _is_die(text[0]) and _is_die(text[1]):
        return text  # the common case, already a pair of dice
    if isinstance(text, str):
        digits = [c for c in text if not c.isspace() and c not in "-,"]
        # isdecimal, not isdigit: "²" is a digit that int() does not read.
        if len(digits) != 2 or not all(c.isdecimal() for c in digits):
            raise NotationError(NOT_DICE(dice=quoted(text)))
        values = [int(c) for c in digits]
    else:
        try:
            values = list(text)
        except TypeError:  # not a sequence at all (None, a number): JSON from a client
            values = []
    if len(values) != 2 or not all(_is_die(value) for value in values):
        raise NotationError(NOT_DICE(dice=quoted(text)))
    return values[0], values[1]


def _is_die(value: object) -> bool:
    return type(value) is int and 1 <= value <= 6

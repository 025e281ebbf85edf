"""The engine's errors: bad syntax is a NotationError, a rule broken is an IllegalPlayError."""

from __future__ import annotations

#: The most characters of a value an error message quotes: a 100 kB play is not echoed whole.
QUOTE_LIMIT = 200


def clipped(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as it is, or its first ``limit`` characters and an ellipsis when it is longer.

    >>> clipped("24/18 13/9")
    '24/18 13/9'
    >>> clipped("x" * 300)[-3:], len(clipped("x" * 300))
    ('xx…', 201)
    """
    return text if len(text) <= limit else text[:limit] + "…"


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as an error message shows it: ``repr`` of a text cut to ``limit`` characters
    (``'xxx…'``), of anything else cut after ``limit`` characters, or its type when it is nested
    too deeply to print (JSON from a client can be): a message about bad input neither repeats
    that input whole nor fails itself.

    >>> quoted("24/18 13/9")
    "'24/18 13/9'"
    >>> len(quoted("9" * 100_000))
    203
    """
    if isinstance(value, str):
        return repr(clipped(value, limit))
    try:
        return clipped(repr(value), limit)
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply to show>"


class RulesError(ValueError):
    """Base of every error the rules engine raises on user input."""


class NotationError(RulesError):
    """Text that cannot be read: a play, a Position ID, a position in JSON, dice."""


class IllegalPlayError(RulesError):
    """A well-formed play that the rules forbid in this position with these dice.

    ``reason`` is the rule that was broken, in words a player understands; ``play`` is the play as
    it was written.
    """

    def __init__(self, reason: str, *, play: str = "", dice: tuple[int, int] | None = None) -> None:
        self.reason = reason
        self.play = clipped(play)  # as written, but never more than QUOTE_LIMIT characters of it
        self.dice = dice
        super().__init__(reason)

"""The engine's errors: bad syntax is a NotationError, a rule broken is an IllegalPlayError."""

from __future__ import annotations


def shown(value: object) -> str:
    """``repr(value)`` for an error message, or its type when it is nested too deeply to print
    (JSON from a client can be): a message about bad input must not fail itself."""
    try:
        return repr(value)
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
        self.play = play
        self.dice = dice
        super().__init__(reason)

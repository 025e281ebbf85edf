"""The engine's errors: bad syntax is a NotationError, a rule broken is an IllegalPlayError.

Each reason an error gives is a ``Reason``: its English sentence (a command-line contract), which
also carries a stable code and the values it names. The site says a reason in its reader's
language by that code (``tournaments.reasons``); nothing reads the English back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Every template of a reason, by its code: each module declares its own at import.
TEMPLATES: dict[str, Template] = {}


@dataclass(frozen=True, slots=True)
class Template:
    """A kind of reason: its stable ``code`` and its English sentence with named values
    (``%(point)s``). ``count`` names the value whose number picks a plural form in other
    languages; ``plural`` is the English when that number is not 1 and English changes too.

    >>> HELD = Template("example-held", "point %(point)s is held by the opponent")
    >>> reason = HELD(point=5)
    >>> reason, reason.code, dict(reason.values)
    ('point 5 is held by the opponent', 'example-held', {'point': 5})
    >>> del TEMPLATES["example-held"]
    """

    code: str
    english: str
    plural: str = ""
    count: str = ""

    def __post_init__(self) -> None:
        if self.code in TEMPLATES:
            raise ValueError(f"two templates of reasons have the code {self.code!r}")
        if self.plural and not self.count:
            raise ValueError(f"{self.code}: a plural sentence needs the value that counts")
        TEMPLATES[self.code] = self

    def __call__(self, **values: Any) -> Reason:
        english = self.english
        if self.plural and values[self.count] != 1:
            english = self.plural
        return Reason(english % values, self.code, values)


class Reason(str):
    """A reason as its English sentence, with the code of its template and its values (a value
    may be a reason itself: ``line 7: …`` wraps the reason of that line)."""

    code: str
    values: Mapping[str, Any]

    def __new__(cls, english: str, code: str, values: Mapping[str, Any]) -> Reason:
        reason = super().__new__(cls, english)
        reason.code = code
        reason.values = values
        return reason

    def __getnewargs__(self) -> tuple[str, str, Mapping[str, Any]]:  # type: ignore[override]
        return str(self), self.code, self.values


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
    """Base of every error the rules engine raises on user input: ``reason`` says why, and
    ``said`` is the whole reason, where it happened included (its English is ``str(error)``)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)

    @property
    def said(self) -> str:
        return self.reason

    def __str__(self) -> str:
        return str(self.said)


class NotationError(RulesError):
    """Text that cannot be read: a play, a Position ID, a position in JSON, dice."""


class IllegalPlayError(RulesError):
    """A well-formed play that the rules forbid in this position with these dice.

    ``reason`` is the rule that was broken, in words a player understands; ``play`` is the play as
    it was written.
    """

    def __init__(self, reason: str, *, play: str = "", dice: tuple[int, int] | None = None) -> None:
        super().__init__(reason)
        self.play = clipped(play)  # as written, but never more than QUOTE_LIMIT characters of it
        self.dice = dice

"""The reasons of the rules engine and of the scoring, in the language of the interface.

``games.rules`` and ``tournaments.scoring`` are pure and speak English: their reasons are a
command-line contract ("the dice 3-1 cannot play 24/1", "point 5 is held by the opponent"). Each
is a ``Reason``: that English, with the code of its template and the values it names. The site
says it in its reader's language by the code, from the catalogue, with the same values (players,
points, dice and plays stay as they are; a value that is a reason itself, such as the reason a
``line 7: …`` wraps or the name of a colour, is said in turn). A text that is no ``Reason``
comes back unchanged, so English is always byte-identical to the source.
"""

from __future__ import annotations

from games.rules.errors import Reason, RulesError
from tournaments.reasons.catalogue import CATALOGUE


def reason_in_language(reason: str) -> str:
    """``reason`` (English, from the rules engine or the scoring) in the active language.

    The values in it stay as they are; a text that is not a ``Reason`` comes back unchanged.
    """
    if not isinstance(reason, Reason):
        return reason
    values = {
        name: reason_in_language(value) if isinstance(value, Reason) else value
        for name, value in reason.values.items()
    }
    return str(CATALOGUE[reason.code] % values)


def said_by(error: Exception) -> str:
    """The whole reason ``error`` gives (where it happened included), in the active language."""
    return reason_in_language(error.said if isinstance(error, RulesError) else str(error))

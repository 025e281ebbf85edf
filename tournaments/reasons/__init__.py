"""The reasons of the rules engine and of the scoring, in the language of the interface.

``games.rules`` and ``tournaments.scoring`` are pure and speak English: their reasons are a
command-line contract ("the dice 3-1 cannot play 24/1", "point 5 is held by the opponent"). The
site shows the same reasons to its users, so ``reason_in_language`` reads an English reason back
against one regular expression per template those modules can produce, and fills the matching
translatable template with the same values (players, points, dice, plays stay as they are). A
reason that wraps another (``game 2: …``, ``line 7: …``) translates the inner one too. A reason
that matches nothing comes back unchanged, so English is always byte-identical to the source.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from tournaments.reasons.catalogue import REASONS, Reason

#: Groups that hold a whole reason of their own: translated in turn.
_NESTED = frozenset({"reason"})

#: Groups whose English words have a translation of their own.
_COLOURS = {"white": pgettext_lazy("colour", "white"), "black": pgettext_lazy("colour", "black")}
_VARIANTS = {
    "Long Nardy": pgettext_lazy("variant in a sentence", "Long Nardy"),
    "Short Nardy": pgettext_lazy("variant in a sentence", "Short Nardy"),
}
_WORDS: dict[str, dict[str, Promise]] = {
    "colour": _COLOURS,
    "file": _VARIANTS,
    "tournament": _VARIANTS,
}


def _lookup(reason: str) -> tuple[Reason, re.Match[str]] | None:
    """The first template whose pattern matches the whole reason, with the match."""
    for entry in REASONS:
        found = entry.pattern.fullmatch(reason)
        if found is not None:
            return entry, found
    return None


def reason_in_language(reason: str) -> str:
    """``reason`` (English, from the rules engine or the scoring) in the active language.

    The values in it (players, points, dice, plays) stay as they are; a reason no template
    matches comes back unchanged.
    """
    looked_up = _lookup(reason)
    if looked_up is None:
        return reason
    entry, found = looked_up
    values: dict[str, object] = {}
    for name, value in found.groupdict().items():
        if name in _NESTED:
            values[name] = reason_in_language(value)
        elif name in _WORDS and value in _WORDS[name]:
            values[name] = str(_WORDS[name][value])
        elif name == entry.count:
            values[name] = int(value)
        else:
            values[name] = value
    return str(entry.template % values)


def reason_is_known(reason: str) -> bool:
    """Whether a template matches ``reason``, and the reasons it wraps, all the way down."""
    looked_up = _lookup(reason)
    if looked_up is None:
        return False
    found = looked_up[1]
    return all(reason_is_known(found[name]) for name in _NESTED if name in found.groupdict())

"""``{% said "withdrawn" entry.player %}``: a sentence said of a player, in the player's
grammatical gender (``tournaments.said``), its values (``name=…``) escaped and filled in."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.said import SAID

register = template.Library()


@register.simple_tag
def said(sentence: str, player: Any, **values: Any) -> SafeString:
    """The sentence ``sentence`` of ``SAID`` said of ``player`` (anything with a ``gender``:
    a ``Player``), with ``values`` put in."""
    text = conditional_escape(SAID[sentence].of(getattr(player, "gender", "")))
    if not values:
        return mark_safe(text)  # noqa: S308 - escaped above
    filled = {name: conditional_escape(value) for name, value in values.items()}
    return mark_safe(text % filled)  # noqa: S308 - the sentence and its values are escaped

"""Figures of a match's analysis as the page writes them."""

from __future__ import annotations

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()


@register.filter
def signed(value: float | None, decimals: int | str = 2) -> str:
    """``value|floatformat:decimals`` with its sign, + too (luck and results read as gains or
    losses); "—" for no value."""
    if value is None:
        return "—"
    written = str(floatformat(value, decimals))
    return f"+{written}" if round(value, abs(int(decimals))) > 0 else written

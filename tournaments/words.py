"""A tournament's values in words, as every page and the rules summary say them (translated):
the clock, a number of points, the tie-breaks' names, a region's name; and a name as a
spreadsheet cell."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from tournaments import regions
from tournaments.scoring.clock import TimeControl

#: The tie-breaks a tournament may name, in the order the form offers them, with their names.
TIEBREAK_NAMES = {
    "buchholz": pgettext_lazy("tie-break", "Buchholz"),
    "buchholz-cut-1": pgettext_lazy("tie-break", "Buchholz cut 1"),
    "median-buchholz": pgettext_lazy("tie-break", "Median Buchholz"),
    "sonneborn-berger": pgettext_lazy("tie-break", "Sonneborn–Berger"),
    "direct-encounter": pgettext_lazy("tie-break", "Direct encounter"),
    "wins": pgettext_lazy("tie-break", "Wins"),
    "game-points-difference": pgettext_lazy("tie-break", "Game points difference"),
    "rating": pgettext_lazy("tie-break", "Rating"),
}
TIEBREAKS = tuple(TIEBREAK_NAMES)

#: The brackets of an elimination event, as its rounds are titled.
BRACKET_NAMES = {
    "main": gettext_lazy("Main bracket"),
    "winners": gettext_lazy("Winners bracket"),
    "losers": gettext_lazy("Losers bracket"),
    "final": gettext_lazy("Grand final"),
    "consolation": gettext_lazy("Consolation bracket"),
    "last-chance": gettext_lazy("Last-chance bracket"),
    "third-place": gettext_lazy("Third-place match"),
}


def clock_text(control: TimeControl) -> str:
    """ "14 min + 8 s a move (delay)": the base time of each player and the allowance a move."""
    minutes, seconds = divmod(control.base_seconds, 60)
    if not minutes:
        base = _("%(seconds)s s") % {"seconds": seconds}
    elif not seconds:
        base = _("%(minutes)s min") % {"minutes": minutes}
    else:
        base = _("%(minutes)s min %(seconds)s s") % {"minutes": minutes, "seconds": seconds}
    kind = _("delay") if control.kind == "delay" else _("increment")
    return _("%(base)s + %(move)s s a move (%(kind)s)") % {
        "base": base,
        "move": control.per_move_seconds,
        "kind": kind,
    }


def points_text(value: Decimal) -> str:
    """A number of points as the reader's language writes it, without trailing zeros: 1, 0,5."""
    return number_format(value.normalize())


def spreadsheet_safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (OWASP "CSV injection"): text starting
    with = + - @ or a tab/CR gets a leading apostrophe."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def region_name(code: str) -> str:
    """The name of the subject of the Russian Federation ``code`` names, in the active language
    ("" for none)."""
    return regions.region_name(code, get_language() or "en")


def region_choices() -> list[tuple[str, str]]:
    """Every subject as (code, name), in the active language, sorted by name."""
    return regions.region_choices(get_language() or "en")

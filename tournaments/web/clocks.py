"""A tournament's time control in words, for its page and the organizer's form (the arithmetic
of the clocks is ``tournaments.scoring.clock``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.scoring.clock import PRESETS, Preset, TimeControl

#: The federation's events each preset comes from, as the organizer's form names them.
PRESET_TITLES = {
    "long": gettext_lazy("Long Nardy (Friendship Cup 2025)"),
    "short": gettext_lazy("Short Nardy (Friendship Cup 2025)"),
    "long-regional": gettext_lazy("Long Nardy (a 2026 regional championship)"),
    "long-blitz": gettext_lazy("Long Nardy blitz (Federation online cup 2025)"),
    "short-blitz": gettext_lazy("Short Nardy blitz (Federation online cup 2025)"),
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


def preset_of(control: TimeControl | None) -> Preset | None:
    """The preset whose control this is, if any."""
    return next((preset for preset in PRESETS if preset.control == control), None)


def preset_choices() -> list[tuple[str, str]]:
    return [
        (preset.name, f"{PRESET_TITLES[preset.name]}: {clock_text(preset.control)}")
        for preset in PRESETS
    ]

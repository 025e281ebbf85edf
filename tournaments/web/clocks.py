"""The clock's presets as the organizer's form offers them (the arithmetic of the clocks is
``tournaments.scoring.clock``; a time control in words, ``tournaments.words.clock_text``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from tournaments.scoring.clock import PRESETS, Preset, TimeControl
from tournaments.words import clock_text

#: The federation's events each preset comes from, as the organizer's form names them.
PRESET_TITLES = {
    "long": gettext_lazy("Long Nardy (Friendship Cup 2025)"),
    "short": gettext_lazy("Short Nardy (Friendship Cup 2025)"),
    "long-regional": gettext_lazy("Long Nardy (a 2026 regional championship)"),
    "long-blitz": gettext_lazy("Long Nardy blitz (Federation online cup 2025)"),
    "short-blitz": gettext_lazy("Short Nardy blitz (Federation online cup 2025)"),
}


def preset_of(control: TimeControl | None) -> Preset | None:
    """The preset whose control this is, if any."""
    return next((preset for preset in PRESETS if preset.control == control), None)


def preset_choices() -> list[tuple[str, str]]:
    return [
        (preset.name, f"{PRESET_TITLES[preset.name]}: {clock_text(preset.control)}")
        for preset in PRESETS
    ]

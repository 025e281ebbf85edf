"""The clock's presets and the presets of whole events as the organizer's form offers them (the
arithmetic of the clocks is ``tournaments.scoring.clock``, the events' settings
``tournaments.scoring.events``; a time control in words, ``tournaments.words.clock_text``)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from tournaments.models import Tournament
from tournaments.scoring.clock import PRESETS, Preset, TimeControl
from tournaments.scoring.events import EVENT_PRESETS, EventPreset
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


def event_preset_text(preset: EventPreset) -> str:
    """ "Long Nardy (Friendship Cup 2025): 14 min + 8 s a move (delay), match to 7 points,
    Swiss, out after 3 lost matches": the event and every setting its preset gives."""
    parts = [
        clock_text(preset.control),
        ngettext("match to %(n)s point", "match to %(n)s points", preset.match_length)
        % {"n": preset.match_length},
        str(Tournament.Format(preset.format).label),
    ]
    if preset.out_after_losses:
        parts.append(
            ngettext(
                "out after %(n)s lost match",
                "out after %(n)s lost matches",
                preset.out_after_losses,
            )
            % {"n": preset.out_after_losses}
        )
    return gettext("%(event)s: %(settings)s") % {
        "event": PRESET_TITLES[preset.name],
        "settings": ", ".join(parts),
    }


def event_preset_choices() -> list[tuple[str, str]]:
    return [(preset.name, event_preset_text(preset)) for preset in EVENT_PRESETS]

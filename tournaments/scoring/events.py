"""The presets of whole events: each sets what the federation's event it comes from set, its
game, clock, match length, format and elimination (``../shared/SPORT-RULES.md``, "Practice in
FNR events"). Pure: the organizer's form and the API fill a new tournament's settings from them,
and the organizer may change any of them afterwards (a preset is where the settings start, not a
rule). The clocks are the clock's presets (``tournaments.scoring.clock.PRESETS``); the titles,
in words, are the form's (``tournaments.web.clocks.PRESET_TITLES``).

>>> preset = event_preset("long-blitz")
>>> preset.settings()["match_length"], preset.settings()["format"]
(3, 'single-elimination')
>>> event_preset("long").settings()["swiss_out_after_losses"]
3
>>> missing = event_preset("short").missing_from({"match_games": 4, "format": "round-robin"})
>>> sorted(missing)
['first_stage', 'match_length', 'pairs', 'time_control', 'variant']
>>> missing["match_length"] is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tournaments.scoring.clock import PRESETS, TimeControl

Format = Literal["swiss", "single-elimination"]

SWISS: Format = "swiss"
KNOCKOUT: Format = "single-elimination"


@dataclass(frozen=True, slots=True)
class EventPreset:
    """A federation event's settings: its game, clock, match to ``match_length`` points, its
    ``format``, and in a Swiss the lost matches that put a player out (None: none do)."""

    name: str
    variant: Literal["long", "short"]
    control: TimeControl
    match_length: int
    format: Format
    out_after_losses: int | None = None

    def settings(self) -> dict[str, Any]:
        """The tournament's settings the preset gives, by their names (``Tournament`` fields):
        one stage, no pairs, a match to points (no fixed number of games), the clock as its
        JSON."""
        return {
            "variant": self.variant,
            "pairs": False,
            "time_control": self.control.as_json(),
            "match_length": self.match_length,
            "match_games": None,
            "format": self.format,
            "first_stage": "",
            "swiss_out_after_losses": self.out_after_losses,
        }

    def missing_from(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The settings the preset gives that ``given`` (the settings a request gives, by name)
        leaves out: what fills a new tournament made from the preset. A match's length is one
        setting of two fields: given a number of games alone, the match is of games (no points
        to reach). The elimination goes with the preset's format: given another format or a
        first stage, the preset puts nobody out."""
        missing = {name: value for name, value in self.settings().items() if name not in given}
        if given.get("format", self.format) != self.format or given.get("first_stage"):
            missing.pop("swiss_out_after_losses", None)
        if "match_games" in given:
            missing.pop("match_length", None)
            if "match_length" not in given:
                missing["match_length"] = None
        return missing


def _clock(name: str) -> TimeControl:
    return next(preset.control for preset in PRESETS if preset.name == name)


#: The events, each named as the clock's preset of its clock: Friendship Cup 2025 (long 14'+8"
#: to 7, short 18'+8" to 9, Swiss to 3 losses), the Tyumen regional championship 2026 (long
#: 19'+8" to 7, Swiss to 3 losses), the Federation's online cup 2025 (long-blitz 1'+10" to 3,
#: short-blitz 2'+10" to 5, knockout).
EVENT_PRESETS: tuple[EventPreset, ...] = (
    EventPreset("long", "long", _clock("long"), 7, SWISS, 3),
    EventPreset("short", "short", _clock("short"), 9, SWISS, 3),
    EventPreset("long-regional", "long", _clock("long-regional"), 7, SWISS, 3),
    EventPreset("long-blitz", "long", _clock("long-blitz"), 3, KNOCKOUT),
    EventPreset("short-blitz", "short", _clock("short-blitz"), 5, KNOCKOUT),
)
#: The presets' names, in the order above.
EVENT_PRESET_NAMES: tuple[str, ...] = tuple(preset.name for preset in EVENT_PRESETS)


def event_preset(name: str) -> EventPreset:
    """The preset of this name (``KeyError``: there is none)."""
    for preset in EVENT_PRESETS:
        if preset.name == name:
            return preset
    raise KeyError(name)

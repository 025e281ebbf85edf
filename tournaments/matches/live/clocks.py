"""The match clocks at the table: read from the draft (new before its first entry), the check
that a side's time has not run out before an entry (and that a flag fall is real), and the turn
of the clocks after each entry or undo. The arithmetic is ``tournaments.scoring.clock``."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from tournaments.errors import Conflict
from tournaments.matches.live.board import turn_clock
from tournaments.matches.live.drafts import side_name
from tournaments.matches.live.models import Draft
from tournaments.matches.live.recording import SIDE_NAMES, Entry, Flag, Recording
from tournaments.models import Match
from tournaments.scoring.clock import Clock


def clock_of(match: Match, draft: Draft | None) -> Clock | None:
    """The match clocks after the draft's last timed event (None: the tournament has no time
    control); new clocks before the first entry."""
    control = match.tournament.clock()
    if control is None:
        return None
    if draft is None or draft.clock is None:
        return Clock.new(control)
    return Clock.from_json(control, draft.clock)


def require_time(match: Match, clock: Clock, entry: Entry, now: datetime) -> None:
    """A flag fall is entered once that side's time ran out, by the server's clock; nothing
    else is entered after a flag fell (but the flag fall, an undo, or a judge's time)."""
    reading = clock.reading_at(now.timestamp())
    if isinstance(entry, Flag):
        side = SIDE_NAMES[entry.player]
        if reading.flagged != side:
            raise Conflict(
                _("%(name)s still has %(left)s on the clock: their flag has not fallen.")
                % {"name": side_name(match, side), "left": _minutes(reading.left(side))}
            )
    elif reading.flagged is not None:
        raise Conflict(
            _(
                "%(name)s's time ran out: record the flag fall (the match is lost on time), "
                "or a judge gives time."
            )
            % {"name": side_name(match, reading.flagged)}
        )


def turn_to(clock: Clock, recording: Recording, now: datetime) -> None:
    """After an entry (or an undo) at ``now``: the clock of who acts next runs (``board``)."""
    turn_clock(clock, recording, now.timestamp())


def _minutes(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"

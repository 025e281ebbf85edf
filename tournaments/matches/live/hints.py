"""The engine's practice hint at the table: in a casual Long Nardy tournament, the play the
engine would have made instead of the one just entered."""

from __future__ import annotations

from typing import Any

from games.engine.hint import hint as engine_hint
from games.rules import Position, Turn
from tournaments.matches.live.recording import Entry
from tournaments.models import Match, Tournament


def hints_given(tournament: Tournament) -> bool:
    """Whether the recorder gives the engine's practice hint in this tournament's matches: Long
    Nardy only, in a casual tournament (one that does not ask to be rated) that is not rated:
    a hint is help a rated match cannot have."""
    return (
        tournament.variant == Tournament.Variant.LONG and tournament.casual and not tournament.rated
    )


def hint_for(match: Match, before: Position, entry: Entry) -> dict[str, Any] | None:
    """For practice, in a match whose tournament gives hints (``hints_given``): the play the
    engine would have made instead of the play just entered, and the equity that lost (the
    recorder's answer only, never the shared state spectators see). The match is marked
    (``Match.hinted``) once it has had one."""
    playing = isinstance(entry, Turn) and not entry.accepted and entry.play.moves
    if not playing or not hints_given(match.tournament):
        return None
    assert isinstance(entry, Turn)
    found = engine_hint(before, entry.dice, entry.play)
    return None if found is None else {"best": found.best, "loss": found.loss}

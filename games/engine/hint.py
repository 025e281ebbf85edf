"""The practice hint of the recorder: after a play is entered, the play the engine would have
made and the equity the play made lost against it (0-ply: an entry is answered in a
millisecond or two)."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.search import Engine, engine
from games.rules import Play, Position, check_play
from games.rules.variants import LongNardy

Dice = tuple[int, int]
#: Equity lost below this is no hint: the play made was as good as the engine's.
CLOSE = 0.005


@dataclass(frozen=True, slots=True)
class Hint:
    best: str
    #: The equity the play made lost against ``best`` (cubeless: oyn 1, mars 2).
    loss: float


def hint(position: Position, dice: Dice, play: Play, found: Engine | None = None) -> Hint | None:
    """What the engine would have played instead of ``play`` (legal, of ``dice`` in
    ``position``); None when the play made was as good, or the only one."""
    if not isinstance(position.variant, LongNardy):
        return None
    made = check_play(position, dice, play)
    ranked = (found or engine()).rank(position, dice, plies=0, also=(made,))
    played = next((r for r in ranked if r.play == made), None)
    if len(ranked) < 2 or played is None:
        return None
    loss = ranked[0].equity - played.equity
    return Hint(str(ranked[0].play), round(loss, 3)) if loss >= CLOSE else None

"""Match clocks: each player's time for the whole match, worked out from the timed events of a
recording. Pure: no Django, no clock of its own (every moment is given, the server's).

A time control gives each player ``base_seconds`` for the match and an allowance a move:

* ``increment`` (Fischer, as chess clocks): the player's time runs from the start of their turn,
  and the allowance is added when the turn ends;
* ``delay`` (simple delay, as backgammon clocks): each turn the clock waits the allowance before
  the player's time runs; what the player does not use of it is lost.

The federation's events publish "14 min + 8 s" without saying which (``../shared/SPORT-RULES.md``):
both are offered, and the presets (``PRESETS``) name their choice, the delay of backgammon clocks.

The events, in time order: ``start`` (the clock of ``side`` runs), ``switch`` (the turn passes to
``side``: a play or a dave answer was entered), ``pause`` and ``resume`` (a judge stops and
restarts the running clock), ``adjust`` (a judge gives ``side`` ``seconds``, or takes them when
negative, never below zero) and ``stop`` (a game or the match ended: the clocks stand until the
next ``start``). A switch to the side already on turn changes nothing. A flag falls when the
running side's time reaches zero: the moment is worked out exactly, and from then on the clocks
stand still, unless a judge gives the fallen side time (what a flag fall means for the match is
the recording's business).

``clocks_at`` reads the clocks from all the events; a recording keeps a ``Clock`` instead, the
state after its last event as JSON, and takes each new event from there, so an entry's cost does
not grow with the match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Side = Literal["home", "away"]
Kind = Literal["increment", "delay"]
EventKind = Literal["start", "switch", "pause", "resume", "adjust", "stop"]

KINDS: tuple[Kind, ...] = ("increment", "delay")
SIDES: tuple[Side, ...] = ("home", "away")
#: The bounds a time control is checked against: up to 10 hours a player, 10 minutes a move.
MAX_BASE_SECONDS = 10 * 3600
MAX_PER_MOVE_SECONDS = 600
#: A clock of at most this much base time is a blitz clock, and makes its tournament one of the
#: blitz disciplines (``tournaments.disciplines``). The sport rules say only that blitz has a
#: shorter control; the federation's blitz events give 1 and 2 minutes a match, its classical
#: ones 14 to 19. The bound is chess's (FIDE: blitz is 10 minutes or less a player).
BLITZ_MOST_BASE_SECONDS = 10 * 60


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A clock per player for the whole match: ``base_seconds`` and ``per_move_seconds`` of
    ``kind`` increment or delay. Its JSON is the tournament's ``time_control`` (a contract)."""

    kind: Kind
    base_seconds: int
    per_move_seconds: int

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"the kind of a time control is increment or delay, not {self.kind!r}")
        for name, most in (
            ("base_seconds", MAX_BASE_SECONDS),
            ("per_move_seconds", MAX_PER_MOVE_SECONDS),
        ):
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value <= most:
                raise ValueError(f"{name} is a whole number of seconds from 0 to {most}")
        if self.base_seconds == 0:
            raise ValueError("base_seconds is at least 1: a clock needs time to start with")

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "base_seconds": self.base_seconds,
            "per_move_seconds": self.per_move_seconds,
        }

    @classmethod
    def from_json(cls, data: Any) -> TimeControl | None:
        """The time control of its JSON, None for null; a ``ValueError`` saying what is wrong."""
        if data is None:
            return None
        if not isinstance(data, Mapping):
            raise ValueError("a time control is null or an object")
        expected = {"kind", "base_seconds", "per_move_seconds"}
        if set(data) != expected:
            raise ValueError("a time control has exactly kind, base_seconds and per_move_seconds")
        return cls(data["kind"], data["base_seconds"], data["per_move_seconds"])


def is_blitz(control: TimeControl | None) -> bool:
    """Whether ``control`` is a blitz clock (no clock: not blitz)."""
    return control is not None and control.base_seconds <= BLITZ_MOST_BASE_SECONDS


@dataclass(frozen=True, slots=True)
class Preset:
    """A federation event's time control, named for the discipline it was used in."""

    name: str
    control: TimeControl


#: The controls of the federation's own events (SPORT-RULES.md, "Practice in FNR events"), each
#: with the delay of backgammon clocks: the events' "+ N s" does not say delay or increment.
#: Friendship Cup 2025 (long to 7, short to 9), a 2026 regional (long to 7), the Federation's
#: online cup 2025 (long-blitz to 3, short-blitz to 5); the form names them
#: (``tournaments.web.clocks.PRESET_TITLES``).
PRESETS: tuple[Preset, ...] = (
    Preset("long", TimeControl("delay", 14 * 60, 8)),
    Preset("short", TimeControl("delay", 18 * 60, 8)),
    Preset("long-regional", TimeControl("delay", 19 * 60, 8)),
    Preset("long-blitz", TimeControl("delay", 60, 10)),
    Preset("short-blitz", TimeControl("delay", 2 * 60, 10)),
)


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """What happened to the clocks at ``at`` (seconds, the server's time)."""

    at: float
    kind: EventKind
    side: Side | None = None
    seconds: float = 0.0

    def __post_init__(self) -> None:
        needs_side = self.kind in ("start", "switch", "adjust")
        if needs_side != (self.side in SIDES):
            raise ValueError(f"a {self.kind} event {'names' if needs_side else 'has no'} side")


@dataclass(frozen=True, slots=True)
class Clocks:
    """Each player's time left at a moment, the side whose clock runs (None: not started,
    paused, stopped or fallen), and the side whose flag fell, with its moment. ``delay_left``:
    the delay the running side still waits before its time runs (0 with an increment, or when
    no clock runs), what a page ticking the clocks needs besides them; not compared, as it
    follows from the rest and the moment."""

    home: float
    away: float
    running: Side | None
    paused: bool = False
    flagged: Side | None = None
    flagged_at: float | None = None
    delay_left: float = field(default=0.0, compare=False)

    def left(self, side: Side) -> float:
        return self.home if side == "home" else self.away

    def as_json(self) -> dict[str, Any]:
        """The live state's ``clocks`` (a contract): whole seconds left, rounded down."""
        return {"home": int(self.home), "away": int(self.away), "running": self.running}


def clocks_at(control: TimeControl, events: Iterable[ClockEvent], now: float) -> Clocks:
    """The clocks at ``now`` after ``events`` (in time order, none after ``now``)."""
    clock = Clock.new(control)
    for event in events:
        if event.at > now:
            raise ValueError("the clock's events are in time order, none after the moment asked")
        clock.apply(event)
    return clock.reading_at(now)


@dataclass(slots=True)
class Clock:
    """The clocks after the events so far: ``apply`` takes the next one, ``reading_at`` reads
    them at a later moment (changing nothing), and the JSON keeps them between two events."""

    control: TimeControl
    left: dict[Side, float] = field(default_factory=dict)
    on_turn: Side | None = None  # whose turn it is while the clocks run or are paused
    paused: bool = False
    turn_used: float = 0.0  # the running time of the turn so far (pauses left out)
    last: float = float("-inf")
    flagged: Side | None = None
    flagged_at: float | None = None

    @classmethod
    def new(cls, control: TimeControl) -> Clock:
        return cls(control, dict.fromkeys(SIDES, float(control.base_seconds)))

    def apply(self, event: ClockEvent) -> None:
        """Take the next event (none before the last one taken: ``ValueError``)."""
        if event.at < self.last:
            raise ValueError("the clock's events are in time order, none after the moment asked")
        self.run_until(event.at)
        if self.flagged is not None:
            revives = event.kind == "adjust" and event.side == self.flagged and event.seconds > 0
            if not revives:
                return
            self.flagged = self.flagged_at = None  # a judge gives time after the flag fell
        if event.kind == "start":
            if self.on_turn is None:
                self.on_turn, self.turn_used = event.side, 0.0
        elif event.kind == "switch":
            if self.on_turn is not None and event.side != self.on_turn:
                if self.control.kind == "increment":
                    self.left[self.on_turn] += self.control.per_move_seconds
                self.on_turn, self.turn_used = event.side, 0.0
        elif event.kind == "pause":
            self.paused = True
        elif event.kind == "resume":
            self.paused = False
        elif event.kind == "adjust":
            assert event.side is not None
            self.left[event.side] = max(0.0, self.left[event.side] + event.seconds)
        else:  # stop: the clocks stand until the next start
            self.on_turn, self.turn_used, self.paused = None, 0.0, False

    def run_until(self, moment: float) -> None:
        """Charge the side on turn for the running time from ``last`` to ``moment``."""
        since = self.last if self.last != float("-inf") else moment
        elapsed = moment - since
        self.last = moment
        side = self.on_turn
        if side is None or self.paused or self.flagged is not None:
            return
        used = self.turn_used + elapsed
        charged = self._charge(used) - self._charge(self.turn_used)
        if charged > 0 and charged >= self.left[side]:
            # The moment the time ran out: the running time of the turn at which the charge
            # reaches what was left.
            exhausted_at = self._running_time_for(self._charge(self.turn_used) + self.left[side])
            self.flagged, self.flagged_at = side, since + (exhausted_at - self.turn_used)
            self.left[side] = 0.0
        else:
            self.left[side] -= charged
        self.turn_used = used

    def _charge(self, turn_time: float) -> float:
        """The time a turn of ``turn_time`` running seconds costs its player."""
        if self.control.kind == "delay":
            return max(0.0, turn_time - self.control.per_move_seconds)
        return turn_time

    def _running_time_for(self, charge: float) -> float:
        """The running time of a turn at which its cost reaches ``charge`` (the least such)."""
        if self.control.kind == "delay":
            return charge + self.control.per_move_seconds
        return charge

    def reading_at(self, now: float) -> Clocks:
        """The clocks at ``now`` (no earlier than the last event), this clock left as it is."""
        clock = self.copy()
        clock.run_until(max(now, self.last))
        runs = clock.on_turn is not None and not (clock.paused or clock.flagged is not None)
        delay = self.control.per_move_seconds - clock.turn_used
        return Clocks(
            home=clock.left["home"],
            away=clock.left["away"],
            running=clock.on_turn if runs else None,
            paused=clock.paused,
            flagged=clock.flagged,
            flagged_at=clock.flagged_at,
            delay_left=max(0.0, delay) if runs and self.control.kind == "delay" else 0.0,
        )

    def copy(self) -> Clock:
        return Clock.from_json(self.control, self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "left": dict(self.left),
            "on_turn": self.on_turn,
            "paused": self.paused,
            "turn_used": self.turn_used,
            "last": None if self.last == float("-inf") else self.last,
            "flagged": self.flagged,
            "flagged_at": self.flagged_at,
        }

    @classmethod
    def from_json(cls, control: TimeControl, data: Mapping[str, Any]) -> Clock:
        left = data["left"]
        return cls(
            control,
            {"home": float(left["home"]), "away": float(left["away"])},
            data["on_turn"],
            data["paused"],
            float(data["turn_used"]),
            float("-inf") if data["last"] is None else float(data["last"]),
            data["flagged"],
            data["flagged_at"],
        )

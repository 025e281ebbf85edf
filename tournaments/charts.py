"""A player's rating history as plain chart geometry for a server-side SVG. Pure.

Time runs left to right in proportion (a month's pause between tournaments is a month of width),
the rating bottom to top on an axis stretched to round tick values (1,2,2.5,5 × 10ⁿ), so the
grid lines fall on numbers a reader can take in at a glance. ``{% rating_chart %}``
(``tournaments/templatetags/charts.py``) draws it and formats the numbers and dates in the
reader's language; this module only places them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal, TypeAlias

__all__ = [
    "Marker",
    "RatingChart",
    "ResponsiveChart",
    "XTick",
    "YTick",
    "rating_chart",
    "responsive_chart",
]

When: TypeAlias = datetime | date
TimeUnit: TypeAlias = Literal["day", "month", "year"]

PAD_LEFT = 52  # room for the rating labels
PAD_RIGHT = 24  # half a date label at the right end
PAD_TOP = 12
PAD_BOTTOM = 28  # the date labels
INSET = 8  # keeps the first and last dots off the axes
TARGET_Y_TICKS = 5
X_TICK_SPACING = 90  # at least this much width per date label
#: A phone's chart is drawn at half the width, then scaled up twice into the wide chart's frame:
#: on a phone's screen (about 330 px for the chart) its 11-unit labels stay 11 px high.
NARROW_SCALE = 2
NARROW_Y_TICKS = 4
DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class YTick:
    y: float
    value: float


@dataclass(frozen=True, slots=True)
class XTick:
    """A date on the time axis; ``unit`` says how much of it the label needs (day, month,
    year), since the tick spacing already says the rest."""

    x: float
    when: date
    unit: TimeUnit


@dataclass(frozen=True, slots=True)
class Marker:
    """One rated match: a dot at (x, y), the rating after it, when, and a plain-text label."""

    x: float
    y: float
    value: float
    when: When
    label: str


@dataclass(frozen=True, slots=True)
class RatingChart:
    width: int
    height: int
    plot_left: float
    plot_right: float
    plot_top: float
    plot_bottom: float
    #: The ``points`` attribute of the polyline, formatted for SVG (never localized).
    points: str
    markers: tuple[Marker, ...]
    y_ticks: tuple[YTick, ...]
    x_ticks: tuple[XTick, ...]
    #: The axis range (round numbers) and the data's own range (None without data).
    y_min: float
    y_max: float
    min_value: float | None
    max_value: float | None
    #: Decimals the tick labels need: 0 for steps of 10, 1 for 2.5, ...
    tick_decimals: int

    @property
    def empty(self) -> bool:
        """No rated match: nothing to draw."""
        return not self.markers

    @property
    def single(self) -> bool:
        """One point: a dot, no line."""
        return len(self.markers) == 1

    @property
    def has_line(self) -> bool:
        return len(self.markers) > 1

    @property
    def middle(self) -> tuple[float, float]:
        """The centre of the drawing (where an empty chart says so)."""
        return self.width / 2, self.height / 2


@dataclass(frozen=True, slots=True)
class ResponsiveChart:
    """One chart drawn twice in one frame (``wide``'s width and height): ``wide`` for a screen,
    ``narrow`` at 1/``scale`` of the size for a phone, to be scaled up ``scale`` times, so that
    its labels stay readable where the frame is drawn about 330 px wide."""

    wide: RatingChart
    narrow: RatingChart
    scale: int

    @property
    def empty(self) -> bool:
        return self.wide.empty


def responsive_chart(
    points: Sequence[tuple[When, float]], *, width: int = 640, height: int = 240
) -> ResponsiveChart:
    """The chart of ``points`` for a screen and for a phone (see ``ResponsiveChart``)."""
    return ResponsiveChart(
        wide=rating_chart(points, width=width, height=height),
        narrow=rating_chart(
            points,
            width=width // NARROW_SCALE,
            height=height // NARROW_SCALE,
            y_ticks=NARROW_Y_TICKS,
        ),
        scale=NARROW_SCALE,
    )


def rating_chart(
    points: Sequence[tuple[When, float]],
    *,
    width: int = 640,
    height: int = 240,
    y_ticks: int = TARGET_Y_TICKS,
) -> RatingChart:
    """The chart of ``points`` (when, rating), in any order; no points gives ``empty``; about
    ``y_ticks`` rating lines."""
    left, right = float(PAD_LEFT), float(width - PAD_RIGHT)
    top, bottom = float(PAD_TOP), float(height - PAD_BOTTOM)
    ordered = sorted(points, key=lambda point: _timestamp(point[0]))
    if not ordered:
        return RatingChart(
            width=width,
            height=height,
            plot_left=left,
            plot_right=right,
            plot_top=top,
            plot_bottom=bottom,
            points="",
            markers=(),
            y_ticks=(),
            x_ticks=(),
            y_min=0.0,
            y_max=0.0,
            min_value=None,
            max_value=None,
            tick_decimals=0,
        )
    values = [float(value) for _, value in ordered]
    low, high = min(values), max(values)
    tick_values, decimals = _nice_ticks(low, high, y_ticks)
    y_min, y_max = tick_values[0], tick_values[-1]

    def to_y(value: float) -> float:
        return bottom - (value - y_min) / (y_max - y_min) * (bottom - top)

    times = [_timestamp(when) for when, _ in ordered]
    start, end = times[0], times[-1]
    inner_left, inner_right = left + INSET, right - INSET

    def to_x(stamp: float) -> float:
        if end == start:
            return (left + right) / 2
        return inner_left + (stamp - start) / (end - start) * (inner_right - inner_left)

    markers = tuple(
        Marker(
            x=round(to_x(stamp), 1),
            y=round(to_y(value), 1),
            value=value,
            when=when,
            label=f"{_day(when).isoformat()}: {value:.2f}",
        )
        for (when, value), stamp in zip(ordered, times, strict=True)
    )
    x_ticks = tuple(
        XTick(round(to_x(stamp), 1), day, unit)
        for stamp, day, unit in _time_ticks(start, end, int(right - left) // X_TICK_SPACING)
    )
    return RatingChart(
        width=width,
        height=height,
        plot_left=left,
        plot_right=right,
        plot_top=top,
        plot_bottom=bottom,
        points=" ".join(f"{_number(m.x)},{_number(m.y)}" for m in markers),
        markers=markers,
        y_ticks=tuple(YTick(round(to_y(value), 1), value) for value in tick_values),
        x_ticks=x_ticks,
        y_min=y_min,
        y_max=y_max,
        min_value=low,
        max_value=high,
        tick_decimals=decimals,
    )


def _nice_ticks(low: float, high: float, target: int = TARGET_Y_TICKS) -> tuple[list[float], int]:
    """Round tick values from at or below ``low`` to at or above ``high``, and their decimals.

    A flat history (one point, or no change) gets a small band around its value, so that the
    line sits in the middle instead of on an axis.
    """
    if high - low < 1e-9:
        pad = max(abs(low) * 0.005, 1.0)
        low, high = low - pad, high + pad
    raw_step = (high - low) / (target - 1)
    magnitude = 10 ** math.floor(math.log10(raw_step))
    step = next(
        factor * magnitude
        for factor in (1.0, 2.0, 2.5, 5.0, 10.0)
        if factor * magnitude >= raw_step * 0.999
    )
    decimals = next(d for d in range(12) if abs(round(step, d) - step) < step * 1e-6)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [round(index * step, decimals + 2) for index in range(first, last + 1)], decimals


_STEPS: tuple[tuple[TimeUnit, int], ...] = (
    ("day", 1), ("day", 2), ("day", 7), ("day", 14),
    ("month", 1), ("month", 2), ("month", 3), ("month", 6),
    ("year", 1), ("year", 2), ("year", 5), ("year", 10), ("year", 20), ("year", 50),
)  # fmt: skip


#: The most days a period of each unit has: ``n`` of them in a row hold ``n`` round days.
_LONGEST_DAYS: dict[TimeUnit, int] = {"day": 1, "month": 31, "year": 366}


def _time_ticks(start: float, end: float, most: int) -> list[tuple[float, date, TimeUnit]]:
    """Midnights (UTC) on round days, months or years between ``start`` and ``end``: the
    finest step that gives at most ``most`` ticks. A history within a day or two gets its
    first and last dates instead."""
    most = max(most, 2)
    first_day, last_day = _utc_day(start), _utc_day(end)
    if end - start < 2 * DAY:
        if first_day == last_day:
            return [(start, first_day, "day")]
        return [(start, first_day, "day"), (end, last_day, "day")]
    span = (last_day - first_day).days
    for unit, step in _STEPS:
        if span // (_LONGEST_DAYS[unit] * step) > most:
            continue  # as many whole periods fit in the span: each holds a tick (none listed)
        candidates = _round_days(first_day, last_day, unit, step)
        inside = [day for day in candidates if start <= _midnight(day) <= end]
        if len(inside) <= most:
            return [(_midnight(day), day, unit) for day in inside]
    return []


def _round_days(first: date, last: date, unit: TimeUnit, step: int) -> list[date]:
    """The days from ``first`` to ``last`` that start a round period: a Monday for weeks."""
    if unit == "day":
        day = first
        while (day.toordinal() - 1) % step:  # ordinal 1 is a Monday
            day += timedelta(days=1)
        return [day + timedelta(days=step * n) for n in range((last - day).days // step + 1)]
    if unit == "month":
        months = []
        year, month = first.year, first.month
        while (year, month) <= (last.year, last.month):
            if (month - 1) % step == 0:
                months.append(date(year, month, 1))
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        return months
    return [date(year, 1, 1) for year in range(first.year, last.year + 1) if year % step == 0]


def _timestamp(when: When) -> float:
    """Seconds since the epoch; a naive datetime or a date counts as UTC."""
    if isinstance(when, datetime):
        return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()
    return _midnight(when)


def _midnight(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def _utc_day(stamp: float) -> date:
    return datetime.fromtimestamp(stamp, tz=UTC).date()


def _day(when: When) -> date:
    return _utc_day(_timestamp(when))


def _number(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text

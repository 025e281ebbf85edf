"""``{% rating_chart chart chart_id title %}``: a ``tournaments.charts.ResponsiveChart`` as
inline SVG, one ``<svg>`` holding two drawings in one frame: the wide one for a screen, and the
narrow one (half the size, scaled up twice) that a phone shows instead, so that its labels stay
11 px high. ``site.css`` says which one shows (``.rating-chart``).

Written out in Python, not as a template: a chart is a few hundred numbers, and Django's
template engine took most of a player page's drawing to print them. Geometry is printed as
plain numbers (SVG never reads a localized one); the labels are localized exactly as the
template's filters printed them (``Labels``): ratings as ``floatformat`` does (1500,5 in
Russian), dates as ``|date`` does, in the reader's language and time zone. A phone has no
pointer to hover a dot with: the narrow drawing's dots carry no tooltip.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils.dateformat import format as format_date
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext

from tournaments.charts import RatingChart, ResponsiveChart

register = template.Library()

#: The format characters of ``|date`` that print more than the day (a time, a time zone).
_TIME_OF_DAY = frozenset("aAfgGhHisueOPTZcrUI")
#: How much of a date an x tick's label shows, by the tick's unit.
_TICK_FORMATS = {"year": "Y", "month": "M Y", "day": "j M"}


@register.simple_tag
def rating_chart(chart: ResponsiveChart, chart_id: str = "", title: str = "") -> SafeString:
    """The chart as an ``<svg>`` titled ``title`` (default: "Rating history") and its range;
    ``chart_id`` names its title element (default: rating-chart)."""
    wide = chart.wide
    labels = Labels.current()
    name = escape(chart_id or "rating-chart")
    heading = escape(title or gettext("Rating history"))
    if not chart.empty:
        low, high = (
            labels.number(value, 2, whole=True) for value in (wide.min_value, wide.max_value)
        )
        heading += f": {low}–{high}"
    return mark_safe(  # noqa: S308 (every text in it is escaped or a number)
        f'<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {wide.width} {wide.height}" width="{wide.width}" height="{wide.height}" '
        f'role="img" aria-labelledby="{name}-title">'
        f'<title id="{name}-title">{heading}</title>'
        f'<g class="rating-chart-wide">{_drawing(wide, labels, tooltips=True)}</g>'
        f'<g class="rating-chart-narrow" transform="scale({chart.scale})">'
        f"{_drawing(chart.narrow, labels, tooltips=False)}</g></svg>"
    )


def _drawing(drawing: RatingChart, labels: Labels, *, tooltips: bool) -> str:
    """One drawing of the chart: its grid and labels, axes, line and dots."""
    left, right = drawing.plot_left, drawing.plot_right
    top, bottom = drawing.plot_top, drawing.plot_bottom
    axes = (
        f'<line class="rating-chart-axis" x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}"/>'
        f'<line class="rating-chart-axis" x1="{left}" y1="{top}" x2="{left}" y2="{bottom}"/>'
    )
    if drawing.empty:
        x, y = drawing.middle
        return (
            f'{axes}<text class="rating-chart-empty" x="{x}" y="{y}" text-anchor="middle">'
            f"{escape(gettext('No rated matches yet.'))}</text>"
        )
    parts = []
    for y_tick in drawing.y_ticks:
        parts.append(
            f'<line class="rating-chart-grid" x1="{left}" y1="{y_tick.y}" x2="{right}" '
            f'y2="{y_tick.y}"/><text class="rating-chart-label" x="{left}" dx="-6" '
            f'y="{y_tick.y}" dy="4" text-anchor="end">'
            f"{labels.number(y_tick.value, drawing.tick_decimals)}</text>"
        )
    for x_tick in drawing.x_ticks:
        parts.append(
            f'<line class="rating-chart-grid" x1="{x_tick.x}" y1="{top}" x2="{x_tick.x}" '
            f'y2="{bottom}"/><text class="rating-chart-label" x="{x_tick.x}" y="{bottom}" '
            f'dy="17" text-anchor="middle">'
            f"{labels.date(x_tick.when, _TICK_FORMATS[x_tick.unit])}</text>"
        )
    parts.append(axes)
    if drawing.has_line:
        parts.append(f'<polyline class="rating-chart-line" points="{drawing.points}"/>')
    radius = 5 if drawing.single else 3.5
    for marker in drawing.markers:
        tooltip = (
            f"<title>{labels.date(marker.when)}: {labels.number(marker.value, 2)}</title>"
            if tooltips
            else ""
        )
        parts.append(
            f'<circle class="rating-chart-dot" cx="{marker.x}" cy="{marker.y}" r="{radius}">'
            f"{tooltip}</circle>"
        )
    return "".join(parts)


@dataclass(frozen=True)
class Labels:
    """Numbers and dates in the reader's language exactly as ``floatformat`` and ``|date``
    print them, with the language's formats looked up once per chart, not once per label (the
    lookups were most of a chart's cost)."""

    decimal_separator: str
    date_format: str
    grouped: bool

    @classmethod
    def current(cls) -> Labels:
        return cls(
            decimal_separator=get_format("DECIMAL_SEPARATOR"),
            date_format=get_format("DATE_FORMAT"),
            grouped=settings.USE_THOUSAND_SEPARATOR,
        )

    def number(self, value: float, decimals: int, *, whole: bool = False) -> str:
        """``value|floatformat:decimals`` (``whole``: ``floatformat:"-decimals"``, which
        drops the decimals of a whole number): rounded half up from its shortest repr."""
        if self.grouped:  # the language's grouping: floatformat knows it
            return floatformat(value, f"-{decimals}" if whole else decimals)
        exact = Decimal(repr(value))
        if whole and exact == exact.to_integral_value():
            return str(int(exact))
        rounded = exact.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
        text = f"{abs(rounded) if rounded.is_zero() else rounded:f}"
        return text.replace(".", self.decimal_separator)

    #: The labels of the days drawn so far, by (day, format): a day's matches share one.
    days: dict[tuple[date, str], str] = field(default_factory=dict, compare=False)

    def date(self, when: date | datetime, format: str = "") -> str:
        """``when|date:format`` (default: the language's DATE_FORMAT), escaped."""
        format = format or self.date_format
        when = template_localtime(when)
        if _TIME_OF_DAY.intersection(format):  # not a label of the day alone
            return escape(format_date(when, format))
        day = when.date() if isinstance(when, datetime) else when
        label = self.days.get((day, format))
        if label is None:
            label = self.days[day, format] = escape(format_date(day, format))
        return label

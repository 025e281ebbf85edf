"""The rating chart's geometry: round ticks that cover the ratings, dots inside the plot in time
order, sensible date ticks, and no chart broken by having no point, one, or a flat history."""

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.charts import RatingChart, rating_chart

START = datetime(2025, 9, 1, 18, 30, tzinfo=UTC)


def history(values: list[float], every: timedelta = timedelta(days=3)) -> list[tuple]:
    return [(START + index * every, value) for index, value in enumerate(values)]


def assert_inside_plot(chart: RatingChart) -> None:
    for marker in chart.markers:
        assert chart.plot_left <= marker.x <= chart.plot_right
        assert chart.plot_top <= marker.y <= chart.plot_bottom
    for tick in chart.y_ticks:
        assert chart.plot_top <= tick.y <= chart.plot_bottom
    for tick in chart.x_ticks:
        assert chart.plot_left <= tick.x <= chart.plot_right


def test_the_y_ticks_are_round_evenly_spaced_and_cover_the_ratings():
    chart = rating_chart(history([1497.3, 1512.8, 1488.1, 1530.6, 1521.0]))
    values = [tick.value for tick in chart.y_ticks]
    assert values[0] <= chart.min_value == 1488.1
    assert values[-1] >= chart.max_value == 1530.6
    assert (chart.y_min, chart.y_max) == (values[0], values[-1])
    steps = {round(b - a, 6) for a, b in zip(values, values[1:], strict=False)}
    assert steps == {20.0} and chart.tick_decimals == 0
    assert values == [1480.0, 1500.0, 1520.0, 1540.0]
    assert 3 <= len(values) <= 8
    # Higher ratings are drawn higher: the first tick at the bottom, the last at the top.
    assert chart.y_ticks[0].y == chart.plot_bottom and chart.y_ticks[-1].y == chart.plot_top


def test_small_changes_get_ticks_with_decimals():
    chart = rating_chart(history([1500.0, 1500.4, 1500.9]))
    values = [tick.value for tick in chart.y_ticks]
    assert values == [1500.0, 1500.25, 1500.5, 1500.75, 1501.0]
    assert chart.tick_decimals == 2  # just enough to print every tick exactly


def test_the_dots_follow_time_left_to_right_and_value_bottom_to_top():
    points = history([1500.0, 1520.0, 1490.0, 1510.0])
    chart = rating_chart(list(reversed(points)))  # any order in, time order out
    assert [marker.value for marker in chart.markers] == [1500.0, 1520.0, 1490.0, 1510.0]
    xs = [marker.x for marker in chart.markers]
    assert xs == sorted(xs) and len(set(xs)) == 4
    by_value = sorted(chart.markers, key=lambda marker: marker.value)
    assert [m.y for m in by_value] == sorted((m.y for m in by_value), reverse=True)
    assert_inside_plot(chart)
    pairs = [pair.split(",") for pair in chart.points.split(" ")]
    assert [(float(x), float(y)) for x, y in pairs] == [(m.x, m.y) for m in chart.markers]
    assert chart.has_line and not chart.single and not chart.empty


def test_time_is_proportional():
    chart = rating_chart([(START, 1500.0), (START + timedelta(days=1), 1501.0),
                          (START + timedelta(days=10), 1502.0)])  # fmt: skip
    first, second, last = (marker.x for marker in chart.markers)
    assert (second - first) == pytest.approx((last - first) / 10, abs=0.1)


def test_no_points_make_an_empty_chart():
    chart = rating_chart([])
    assert chart.empty and not chart.has_line and not chart.single
    assert chart.markers == () and chart.points == ""
    assert chart.min_value is None and chart.max_value is None


def test_one_point_is_a_dot_in_the_middle_with_ticks_around_it():
    chart = rating_chart([(START, 1496.88)])
    assert chart.single and not chart.has_line and not chart.empty
    (dot,) = chart.markers
    assert dot.x == (chart.plot_left + chart.plot_right) / 2
    assert chart.y_min < 1496.88 < chart.y_max
    assert chart.plot_top < dot.y < chart.plot_bottom
    assert [(tick.when, tick.unit) for tick in chart.x_ticks] == [(START.date(), "day")]
    assert dot.label == "2025-09-01: 1496.88"


def test_a_flat_history_sits_inside_a_band():
    chart = rating_chart(history([1500.0] * 5))
    assert chart.y_min < 1500.0 < chart.y_max
    assert len({marker.y for marker in chart.markers}) == 1
    assert_inside_plot(chart)


@pytest.mark.parametrize(
    ("span", "unit"),
    [
        (timedelta(hours=5), "day"),
        (timedelta(days=9), "day"),
        (timedelta(days=60), "day"),
        (timedelta(days=200), "month"),
        (timedelta(days=800), "month"),
        (timedelta(days=365 * 6), "year"),
    ],
)
def test_the_date_ticks_suit_the_span(span, unit):
    chart = rating_chart([(START, 1500.0), (START + span / 2, 1510.0), (START + span, 1505.0)])
    ticks = chart.x_ticks
    assert 1 <= len(ticks) <= 6
    assert {tick.unit for tick in ticks} == {unit}
    assert [tick.x for tick in ticks] == sorted(tick.x for tick in ticks)
    assert [tick.when for tick in ticks] == sorted({tick.when for tick in ticks})
    assert_inside_plot(chart)
    if unit == "month":
        assert all(tick.when.day == 1 for tick in ticks)
    if unit == "year":
        assert all((tick.when.month, tick.when.day) == (1, 1) for tick in ticks)


def test_dates_and_naive_datetimes_count_as_utc():
    chart = rating_chart(
        [(date(2025, 9, 1), 1500.0), (datetime(2025, 9, 11), 1510.0), (START.date(), 1490.0)]
    )
    assert [marker.value for marker in chart.markers] == [1500.0, 1490.0, 1510.0]
    assert chart.markers[0].x == chart.markers[1].x  # the same day


def test_a_wider_chart_gets_more_room():
    points = history([1500.0, 1510.0, 1505.0])
    narrow, wide = rating_chart(points, width=320, height=160), rating_chart(points, width=960)
    assert (narrow.width, narrow.height, wide.width) == (320, 160, 960)
    assert narrow.plot_right < wide.plot_right
    assert_inside_plot(narrow)
    assert_inside_plot(wide)


@settings(deadline=None)  # a slow example on a busy machine is no failure
@given(
    st.lists(
        st.tuples(
            st.datetimes(
                min_value=datetime(2000, 1, 1),
                max_value=datetime(2040, 1, 1),
                timezones=st.just(UTC),
            ),
            st.floats(min_value=0, max_value=5000, allow_nan=False),
        ),
        max_size=40,
    )
)
def test_any_history_stays_inside_the_plot_with_ticks_covering_it(points):
    chart = rating_chart(points)
    assert chart.empty == (not points)
    assert len(chart.markers) == len(points)
    assert_inside_plot(chart)
    xs = [marker.x for marker in chart.markers]
    assert xs == sorted(xs)
    if points:
        assert chart.y_min <= min(value for _, value in points)
        assert chart.y_max >= max(value for _, value in points)
        assert len(chart.y_ticks) >= 2
        assert len(chart.x_ticks) <= 7

"""The chart's SVG (``{% rating_chart %}``): its labels print exactly as Django's ``floatformat``
and ``|date`` filters print them in the reader's language and time zone, and its drawings hold
what a screen and a phone each show."""

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.template.defaultfilters import floatformat
from django.test import override_settings
from django.utils import timezone, translation
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.charts import responsive_chart
from tournaments.templatetags.charts import Labels, rating_chart

LANGUAGES = ["en", "ru"]
START = datetime(2025, 12, 31, 22, 30, tzinfo=UTC)


@pytest.mark.parametrize("language", LANGUAGES)
@settings(deadline=None)  # a slow example on a busy machine is no failure
@given(
    # Ratings, PRs and points (floatformat prints some floats under 1e-150 as they came).
    value=st.floats(min_value=-1e7, max_value=1e7).filter(lambda v: v == 0 or abs(v) > 1e-9)
    | st.integers(-5000, 5000),
    decimals=st.integers(0, 3),
    whole=st.booleans(),
)
@example(value=0.125, decimals=2, whole=False)  # half up from the shortest repr, as floatformat
@example(value=2.675, decimals=2, whole=False)
@example(value=-0.001, decimals=2, whole=False)  # no "-0.00"
@example(value=1500.0, decimals=2, whole=True)
@example(value=1e-7, decimals=3, whole=True)
def test_a_number_label_is_what_floatformat_prints(language, value, decimals, whole):
    with translation.override(language):
        expected = floatformat(float(value), f"-{decimals}" if whole else decimals)
        assert Labels.current().number(float(value), decimals, whole=whole) == expected


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("zone", ["UTC", "Asia/Vladivostok", "America/Los_Angeles"])
@pytest.mark.parametrize("format", ["", "Y", "M Y", "j M", "H:i", "j E Y, H:i"])
def test_a_date_label_is_what_the_date_filter_prints(language, zone, format):
    moments = [START + timedelta(hours=7 * step) for step in range(12)]
    days = [date(2026, month, 1) for month in (1, 5, 9)] if "H" not in format else []
    # The template engine gives the filter the moment in the current time zone.
    template = Template("{{ when|date:format }}")
    with translation.override(language), timezone.override(ZoneInfo(zone)):
        labels = Labels.current()  # one for all: the days' labels it keeps are shared
        for when in [*moments, *days, *moments]:
            expected = template.render(Context({"when": when, "format": format or "DATE_FORMAT"}))
            assert labels.date(when, format) == expected, (when, format)


def test_the_localized_labels_in_a_russian_chart():
    history = [(START + timedelta(days=30 * step), 1490.25 + 12.5 * step) for step in range(4)]
    with translation.override("ru"):
        svg = rating_chart(responsive_chart(history), "rating-fibs-long")
    assert svg.startswith('<svg class="rating-chart"')
    # The range in the title and the dots' tooltips with a decimal comma, the dates in Russian.
    assert '<title id="rating-fibs-long-title">История рейтинга: 1490,25–1527,75</title>' in svg
    assert "<title>31 декабря 2025 г.: 1490,25</title>" in svg
    assert ">Мар 2026</text>" in svg
    # Geometry is never localized: SVG reads only a decimal point.
    for attribute in re.findall(r' (?:x|y|x1|y1|x2|y2|cx|cy)="([^"]*)"', svg):
        assert re.fullmatch(r"\d+(\.\d+)?", attribute), attribute


def test_the_phone_drawing_has_no_tooltips_and_both_have_every_dot():
    history = [(START + timedelta(days=step), 1500.0 + step) for step in range(5)]
    svg = rating_chart(responsive_chart(history))
    wide, narrow = svg.split('<g class="rating-chart-narrow" transform="scale(2)">')
    assert wide.count('<circle class="rating-chart-dot"') == 5
    assert narrow.count('<circle class="rating-chart-dot"') == 5
    assert wide.count("<title") == 6 and "<title" not in narrow  # the chart's own + 5 dots
    assert wide.count("<polyline") == narrow.count("<polyline") == 1


def test_a_single_point_is_a_bigger_dot_and_no_chart_says_so():
    single = rating_chart(responsive_chart([(START, 1500.0)]))
    assert 'r="5"' in single and "<polyline" not in single
    with translation.override("ru"):
        empty = rating_chart(responsive_chart([]), "pr-history", "PR")
    assert "Рейтинговых матчей пока нет." in empty and "circle" not in empty
    assert '<title id="pr-history-title">PR</title>' in empty  # no range without a point


def test_the_texts_it_is_given_are_escaped_in_a_template():
    template = Template("{% load charts %}{% rating_chart chart chart_id title %}")
    page = template.render(
        Context({"chart": responsive_chart([]), "chart_id": 'x"><b', "title": "<script>"})
    )
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert 'aria-labelledby="x&quot;&gt;&lt;b-title"' in page


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_with_grouped_thousands_the_numbers_are_floatformats_own():
    with translation.override("ru"):
        assert Labels.current().number(1500.5, 2) == floatformat(1500.5, 2) == "1\xa0500,50"

"""The server's SVG plots: every y label differs from the others and stands where its value is.

Before, ticks split the range evenly and were printed rounded, so a narrow range (one rated
game: a flat line) read ``-132, -132, -133, -134, -134``.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from spades.server.svgplot import DAY, line_chart, time_ticks

LABEL = re.compile(r'<text x="40" y="([-0-9.]+)" text-anchor="end" fill="#555">([^<]*)</text>')


def _labels(values: list[float]) -> list[tuple[float, str]]:
    svg = line_chart([("", values)], title="t", x_label="x", empty="none")
    return [(float(y), text) for y, text in LABEL.findall(svg)]


def test_one_rated_game_gets_distinct_whole_labels() -> None:
    labels = [text for _y, text in _labels([-133.0])]
    assert labels == ["-135", "-134", "-133", "-132", "-131"]


@given(st.lists(st.floats(-5000, 5000, allow_nan=False).map(lambda v: round(v, 2)), min_size=1, max_size=30))
def test_labels_differ_and_are_in_order(values: list[float]) -> None:
    labels = _labels(values)
    assert 2 <= len(labels) <= 7
    texts = [text for _y, text in labels]
    assert len(set(texts)) == len(texts), texts
    numbers = [float(t) for t in texts]
    assert numbers == sorted(numbers)
    ys = [y for y, _t in labels]
    assert ys == sorted(ys, reverse=True)  # higher values drawn higher
    # Each label is where its value is: the labels' positions are linear in their values.
    if len(labels) >= 3:
        (y0, v0), (y1, v1) = (ys[0], numbers[0]), (ys[-1], numbers[-1])
        for y, v in zip(ys, numbers, strict=True):
            assert abs(y - (y0 + (v - v0) * (y1 - y0) / (v1 - v0))) < 0.2


POINT = re.compile(r'<polyline points="([^"]+)"')
DATE = re.compile(r'<text x="([-0-9.]+)" y="170" text-anchor="\w+" fill="#555">(\d{4}-\d\d-\d\d)</text>')


def test_a_rating_over_time_is_drawn_against_dates() -> None:
    """Games on days 0, 1 and 30: the month without games is a long stretch of the line, and
    the axis is labelled with dates, not a count of games."""
    start = 1_780_000_000.0
    times = [start, start + DAY, start + 30 * DAY]
    svg = line_chart([("standard", [10.0, 12.0, 11.0])], title="t", x_label="date", empty="", times=times)
    xs = [float(p.split(",")[0]) for p in POINT.findall(svg)[0].split()]
    assert abs((xs[1] - xs[0]) - (xs[2] - xs[0]) / 30) < 0.1  # positions linear in time
    dates = [label for _x, label in DATE.findall(svg)]
    assert dates[0] == "2026-05-28" and dates[-1] == "2026-06-27"
    assert dates == sorted(dates) and len(set(dates)) == len(dates)


@given(st.floats(1e9, 2e9), st.floats(0, 400 * DAY))
def test_time_ticks_are_distinct_and_in_order(t0: float, span: float) -> None:
    ticks = time_ticks(t0, t0 + span)
    labels = [label for _t, label in ticks]
    assert 1 <= len(ticks) <= 5
    assert len(set(labels)) == len(labels)
    assert [t for t, _l in ticks] == sorted(t for t, _l in ticks)


def test_times_must_match_the_values() -> None:
    import pytest

    with pytest.raises(ValueError, match="one value per time"):
        line_chart([("", [1.0, 2.0])], title="t", x_label="x", empty="", times=[1.0])

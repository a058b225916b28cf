"""The bounded summaries and the timeline at their limits: what TopN says it wants is what it
keeps, ties, a capacity of one, a month shown by day and a day more by week, the most points
a chart shows, and a mean rounded half up."""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screen_analysis.insight.exact import ExactSum
from screen_analysis.insight.timeline import (
    DAILY_UP_TO_DAYS,
    EPOCH,
    MAX_BUCKETS,
    MAX_POINTS,
    Timeline,
    TimelineBuilder,
)
from screen_analysis.insight.top_k import SpaceSaving, TopN


@settings(max_examples=80, deadline=None)
@given(keys=st.lists(st.integers(min_value=-5, max_value=5), max_size=25), n=st.integers(1, 4))
def test_top_n_wants_exactly_what_it_would_keep(keys: list[int], n: int) -> None:
    top: TopN[tuple[int, int]] = TopN(n, lambda item: item[0])
    for order, key in enumerate(keys):
        before = top.items()
        wanted = top.wants(key)
        top.add((key, order))
        assert wanted == ((key, order) in top.items()), (before, key)
    expected = sorted(enumerate(keys), key=lambda p: (-p[1], p[0]))[:n]  # ties: earlier first
    assert top.items() == [(key, order) for order, key in expected]


def test_space_saving_keeps_one_string_with_a_capacity_of_one() -> None:
    counter = SpaceSaving(1)
    for key in ("a", "b", "b"):
        counter.add(key)
    assert counter.top(5) == [("b", 3)] and counter.error("b") == 1
    with pytest.raises(ValueError, match=r"^capacity must be at least 1$"):
        SpaceSaving(0)


def test_the_most_counted_come_first_and_ties_go_by_text() -> None:
    counter = SpaceSaving(8)
    for key in ("b", "a", "c", "c", "b", "a", "d", "c"):
        counter.add(key)
    assert counter.top(3) == [("c", 3), ("a", 2), ("b", 2)]


def _days(count: int, start: date = EPOCH) -> TimelineBuilder:
    timeline = TimelineBuilder()
    for day in range(count):
        timeline.add(start + timedelta(days=day), 60)
    return timeline


def test_a_month_reads_by_day_and_a_day_more_by_week() -> None:
    assert _days(DAILY_UP_TO_DAYS).result().unit == "day"
    assert len(_days(DAILY_UP_TO_DAYS).result().points) == DAILY_UP_TO_DAYS
    assert _days(DAILY_UP_TO_DAYS + 1).result().unit == "week"


def test_a_chart_shows_120_weeks_at_most_before_it_widens() -> None:
    assert _days(MAX_POINTS * 7).result().unit == "week"
    assert len(_days(MAX_POINTS * 7).result().points) == MAX_POINTS
    assert _days(MAX_POINTS * 7 + 1).result().unit == "4 weeks"


def test_buckets_fold_when_one_more_would_pass_the_limit() -> None:
    assert _days(MAX_BUCKETS).width == 1
    assert _days(MAX_BUCKETS + 1).width == 7


def test_an_empty_timeline_is_a_day_wide_and_has_no_point() -> None:
    assert TimelineBuilder().result() == Timeline("day", 1, ())


def test_a_mean_rounds_half_up_and_zero_has_no_sign() -> None:
    total = ExactSum()
    total.add(0.05)
    assert total.mean_to_tenth(1) == 0.1  # .05 is half a tenth: up
    total.add(-0.05)
    zero = total.mean_to_tenth(2)
    assert zero == 0 and math.copysign(1, zero) == 1  # "0.0", never "-0.0"
    negative = ExactSum()
    negative.add(-0.25)
    assert negative.mean_to_tenth(1) == -0.3  # half away from zero, as the API rounds

"""Laws of the overview's aggregates, and the edges the other tests left out: the aggregates
of a union are the combination of its parts', a timeline folds a long span into wider
buckets without losing a score, and the sentences every output shares."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.insight.test_aggregates import analysis

from screen_analysis.api.models import Analysis
from screen_analysis.insight.aggregates import OverviewBuilder, weights_note
from screen_analysis.insight.compare import compare
from screen_analysis.insight.projects import MAX_TRACKED, ProjectTally
from screen_analysis.insight.timeline import MAX_BUCKETS, MAX_POINTS, TimelineBuilder
from screen_analysis.insight.top_k import SpaceSaving

SCORES = st.one_of(
    st.none(),
    st.integers(min_value=-50, max_value=150),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    st.sampled_from([float("nan"), float("inf"), 1e308, -1e308, 10**400]),
)
ITEMS = st.lists(
    st.tuples(st.sampled_from(["completed", "failed", "pending", "odd"]), SCORES),
    max_size=30,
)


def _items(drawn: list[tuple[str, object]], offset: int = 0) -> list[Analysis]:
    return [
        analysis(offset + n, status=status, score=score, project_id=f"proj_{n % 3}")
        for n, (status, score) in enumerate(drawn)
    ]


@settings(max_examples=60, deadline=None)
@given(first=ITEMS, second=ITEMS)
@example(first=[("completed", 1e308), ("completed", 1)], second=[("completed", -1e308)])
def test_the_aggregates_of_a_union_are_the_combination_of_its_parts(
    first: list[tuple[str, object]], second: list[tuple[str, object]]
) -> None:
    part_a, part_b = _items(first), _items(second, offset=100)
    a, b, union = OverviewBuilder(), OverviewBuilder(), OverviewBuilder()
    a.add_page(part_a)
    b.add_page(part_b)
    union.add_page(part_a + part_b)
    ra, rb, ru = a.result(), b.result(), union.result()
    assert ru.seen == ra.seen + rb.seen and ru.scored == ra.scored + rb.scored
    counts_a, counts_b = dict(ra.status_counts), dict(rb.status_counts)
    for status, count in ru.status_counts:
        assert count == counts_a.get(status, 0) + counts_b.get(status, 0)
    assert ru.histogram == tuple(x + y for x, y in zip(ra.histogram, rb.histogram, strict=True))
    for field in ("out_of_range", "not_finite", "no_score", "criteria_not_finite"):
        assert getattr(ru, field) == getattr(ra, field) + getattr(rb, field)
    if ru.scored:
        sums = [
            Fraction(r.mean_score) * r.scored if r.scored and r.mean_score is not None else 0
            for r in (ra, rb)
        ]
        assert ru.mean_score is not None
        # Each part's mean is a rounded float, so its sum is known only to within its own
        # size times float's precision: 1e308 and 1 averaged lose the 1 that the union,
        # summed exactly, keeps. The union's mean may differ from the parts' by that much.
        known_to = sum(abs(part) for part in sums) / ru.scored + abs(Fraction(ru.mean_score))
        assert abs(Fraction(ru.mean_score) - sum(sums) / ru.scored) <= known_to * Fraction(
            1, 2**50
        ) + Fraction(1, 10**9)
    else:
        assert ru.mean_score is None and ru.avg_score is None


def test_a_long_span_folds_into_wider_buckets_and_keeps_every_score() -> None:
    timeline = TimelineBuilder()
    start = date(2000, 1, 3)
    for day in range(MAX_BUCKETS + 904):  # past the bucket limit: folded into weeks
        timeline.add(start + timedelta(days=day), 50 + day % 2)
    assert timeline.width == 7 and len(timeline._buckets) <= MAX_BUCKETS
    result = timeline.result()
    assert result.unit == "52 weeks" and len(result.points) <= MAX_POINTS
    assert sum(p.count for p in result.points) == MAX_BUCKETS + 904
    assert all(p.start.weekday() == 0 for p in result.points)
    assert result.points[0].mean == 50.5  # the same days, the same mean


def test_dates_centuries_apart_fold_as_far_as_needed() -> None:
    timeline = TimelineBuilder()
    days = [date(1, 1, 1) + timedelta(days=n * 97) for n in range(8000)]
    for day in days:
        timeline.add(day, 70)
    assert len(timeline._buckets) <= MAX_BUCKETS and timeline.width == 364
    points = timeline.result().points
    assert sum(p.count for p in points) == len(days) and {p.mean for p in points} <= {70, None}
    assert points[0].start == date(1, 1, 1)  # its bucket would begin before the calendar does


ZERO_TIME = datetime(1, 1, 1, tzinfo=UTC)  # what some servers send for "no date"


def test_an_analysis_dated_0001_01_01_among_recent_ones_is_counted_not_a_crash() -> None:
    """A "zero" creation time beside recent ones once raised OverflowError from the timeline
    (a bucket starting before year 1), and with it the overview, the report and `check`."""
    builder = OverviewBuilder(by_project=True)
    builder.add(analysis(1, created_at=ZERO_TIME, score=40))
    builder.add(analysis(2, score=80))
    result = builder.result()
    assert sum(p.count for p in result.timeline.points) == 2
    assert result.timeline.points[0].start == date(1, 1, 1)
    assert result.projects is not None and result.projects.rows[0].analyses == 2
    alone = OverviewBuilder(by_project=True)
    alone.add(analysis(1, created_at=ZERO_TIME))
    table = alone.result().projects
    assert table is not None and table.first_week == date(1, 1, 1)


def test_a_point_on_the_last_day_of_the_calendar_is_still_under_way() -> None:
    timeline = TimelineBuilder()
    timeline.add(date(9999, 12, 31), 70)
    assert timeline.result().partial(None, now=datetime(2026, 11, 1, tzinfo=UTC)) == (True,)


def test_a_day_is_counted_in_utc_whatever_the_zone_it_is_given_in() -> None:
    timeline = TimelineBuilder()
    timeline.add(date(2026, 10, 30), 70)
    timeline.add(date(2026, 10, 31), 70)
    result = timeline.result()
    late = datetime(2026, 11, 1, 1, 0, tzinfo=timezone(timedelta(hours=2)))  # 23:00 UTC
    assert result.partial(None, now=late) == (False, True)  # 31 October still lasts
    naive = datetime(2026, 11, 1, 1, 0)  # taken as UTC: 31 October is over
    assert result.partial(None, now=naive) == (False, False)


def test_the_day_now_falls_on_is_taken_in_utc_on_a_machine_in_another_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    timeline = TimelineBuilder()
    timeline.add(date(2026, 10, 31), 70)
    late = datetime(2026, 10, 31, 20, 0, tzinfo=UTC)  # 1 November in Tokyo
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert timeline.result().partial(None, now=late) == (True,)
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_weights_note_for_each_source() -> None:
    assert weights_note("project weights") == "Weights: set by the project."
    assert weights_note("platform defaults") == (
        "Weights: platform defaults (the project sets none)."
    )
    assert weights_note("weights per project") == "Weights differ by project."
    assert weights_note("anything else") == "Weights differ by project."


def test_criteria_left_out_are_said() -> None:
    builder = OverviewBuilder()
    builder.add(analysis(1, breakdown={"visual_clarity": float("nan"), "color_contrast": 1e400}))
    builder.add(analysis(2))
    result = builder.result()
    assert result.criteria_left_out() == (
        "2 criterion scores beyond ±1.8e308 or not numbers left out"
    )
    assert OverviewBuilder().result().criteria_left_out() == ""


def test_a_projects_row_counts_its_failures_and_the_table_says_its_weeks() -> None:
    tally = ProjectTally()
    when = datetime(2026, 10, 5, tzinfo=UTC)
    tally.add("proj_a", True, None, False, when)
    tally.add("proj_a", False, 70, True, when)
    table = tally.result()
    (row,) = table.rows
    assert (row.analyses, row.failed, row.scored, row.avg_score) == (2, 1, 1, 70.0)
    assert table.describe() == (
        "Weeks: the mean score of each week from 17 Aug, on one scale for every row (65–75)."
        " Change: the last 4 weeks' mean against the 4 before."
    )
    assert ProjectTally().result().describe() == "No scores 0–100 to show a trend."


def test_projects_past_the_tracked_ones_are_counted_as_left_out() -> None:
    tally = ProjectTally()
    for n in range(MAX_TRACKED + 2):
        tally.add(f"proj_{n:04d}", False, 70, True, None)
    table = tally.result()
    assert table.left_out == (
        "988 projects with fewer analyses and 2 analyses of projects beyond the first 1,000"
        " left out"
    )


def test_a_count_that_was_never_evicted_is_exact() -> None:
    counter = SpaceSaving(2)
    for key in ("a", "a", "b", "c"):
        counter.add(key)
    assert counter.error("a") == 0  # tracked from its first sighting
    assert counter.error("c") == 1  # took b's place, and its one count
    assert counter.error("never") == 0 and dict(counter.top(2)) == {"a": 2, "c": 2}


def test_a_comparison_keeps_both_analyses_and_counts_both_sides_left_out() -> None:
    a = Analysis.model_validate({"id": "ana_a", "score": float("nan"), "breakdown": {}})
    b = Analysis.model_validate(
        {"id": "ana_b", "score": 1e400, "breakdown": {"visual_clarity": float("inf")}}
    )
    result = compare(a, b)
    assert result.a is a and result.b is b and result.overall.name == "Overall"
    assert result.not_finite == 3
    assert result.left_out() == "3 scores beyond ±1.8e308 or not numbers left out"

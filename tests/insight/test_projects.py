"""The table of projects: rows by the number of analyses, eight weekly means aligned on the
newest week any project has, the change between their halves, one scale for every row."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from screen_analysis.insight.projects import ProjectTally
from screen_analysis.insight.timeline import TimelineBuilder

MONDAY = datetime(2026, 10, 5, 12, tzinfo=UTC)


def test_rows_go_by_analyses_then_by_id_with_no_project_first() -> None:
    tally = ProjectTally()
    for project, count in (("proj_c", 2), ("proj_b", 3), ("Proj_A", 2), (None, 2)):
        for _ in range(count):
            tally.add(project, False, None, False, None)
    assert [row.project_id for row in tally.result().rows] == ["proj_b", None, "Proj_A", "proj_c"]
    empty = ProjectTally().result()
    assert (empty.low, empty.high) == (0.0, 100.0)  # no week scored: the whole scale


def test_eight_weekly_means_end_on_the_newest_week_of_any_project() -> None:
    tally = ProjectTally()
    for weeks_ago in range(10):  # ten weeks: the two oldest fall out of the trend
        when = MONDAY - timedelta(weeks=weeks_ago)
        tally.add("proj_a", False, 50 + weeks_ago, True, when)
        tally.add("proj_a", False, 60 + weeks_ago, True, when + timedelta(days=6))
    tally.add("proj_b", False, 80, True, MONDAY + timedelta(weeks=1))
    tally.add("proj_b", False, 250, False, MONDAY)  # outside 0–100: in no week
    table = tally.result()
    a, b = sorted(table.rows, key=lambda row: row.project_id or "")
    assert table.first_week == date(2026, 8, 24)  # the Monday seven weeks before the newest
    assert a.weeks == (61.0, 60.0, 59.0, 58.0, 57.0, 56.0, 55.0, None)
    # Change: the last four weeks' mean (three had scores) less the four weeks' before.
    assert a.change == 56 - 59.5
    assert b.weeks == (None,) * 7 + (80.0,) and b.change is None
    assert (b.analyses, b.scored, b.avg_score) == (2, 2, 165.0)
    assert (table.low, table.high) == (55.0, 80.0)


def test_a_week_older_than_the_eight_kept_is_left_out_a_newer_one_pushes_one_out() -> None:
    tally = ProjectTally()
    for weeks_ago in range(8):
        tally.add("proj_a", False, 50, True, MONDAY - timedelta(weeks=weeks_ago))
    tally.add("proj_a", False, 10, True, MONDAY - timedelta(weeks=9))  # older: not kept
    tally.add("proj_a", False, 90, True, MONDAY + timedelta(weeks=1))  # newer: kept
    (row,) = tally.result().rows
    assert row.weeks == (50.0,) * 7 + (90.0,) and row.scored == 10


def test_a_steady_project_is_drawn_on_a_scale_of_ten_points_about_its_middle() -> None:
    tally = ProjectTally()
    tally.add("proj_a", False, 71, True, MONDAY)
    tally.add("proj_a", False, 73, True, MONDAY - timedelta(weeks=1))
    table = tally.result()
    assert (table.low, table.high) == (67.0, 77.0)
    assert ProjectTally().result().first_week is None


def test_the_timeline_folds_a_span_of_millennia_into_its_widest_buckets() -> None:
    timeline = TimelineBuilder()
    for year in range(1, 10_000, 2):
        timeline.add(date(year, 6, 1), 60)
    assert timeline.width == 3640 and len(timeline._buckets) <= 4096
    assert sum(p.count for p in timeline.result().points) == 5000

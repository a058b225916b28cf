"""The overview at its edges: the histogram's first and last bins, the screens kept beyond
the first ten, what a listed screen keeps of its analysis, first and last times in any zone,
statuses as sent, and every count that is more than one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from tests.insight.test_aggregates import analysis

from screen_analysis.api.models import Criterion, InvalidAnalysis, Project
from screen_analysis.insight.aggregates import OverviewBuilder, ScreenRef

WHEN = datetime(2026, 10, 5, 9, 30, tzinfo=UTC)


def overview_of(*items: object, **options: object):
    builder = OverviewBuilder(**options)  # type: ignore[arg-type]
    builder.add_page(items)  # type: ignore[arg-type]
    return builder.result()


def test_the_histogram_holds_0_and_100_in_its_first_and_last_bins() -> None:
    scores = [0, 9.99, 10, 55, 95, 99.9, 100]
    result = overview_of(*(analysis(n, score=s) for n, s in enumerate(scores)))
    assert result.histogram == (2, 1, 0, 0, 0, 1, 0, 0, 0, 3)
    assert result.out_of_range == 0 and result.scored == 7
    edges = overview_of(analysis(1, score=-0.01), analysis(2, score=100.01))
    assert edges.histogram == (0,) * 10 and edges.out_of_range == 2


def test_the_best_and_worst_ten_are_kept_beyond_the_first_ten() -> None:
    result = overview_of(*(analysis(n, score=n) for n in range(1, 13)))
    assert [ref.score for ref in result.best] == list(range(12, 2, -1))
    assert [ref.score for ref in result.worst] == list(range(1, 11))
    zero = overview_of(analysis(1, score=0), analysis(2, score=0.5))
    assert [r.score for r in zero.best] == [0.5, 0] and [r.score for r in zero.worst] == [0, 0.5]


def test_a_listed_screen_keeps_what_finds_and_shows_it_again() -> None:
    item = analysis(
        7,
        project_id="proj_7",
        label=None,
        score=64.5,
        created_at=WHEN,
        image_url="https://img.example/7.png",
    )
    (ref,) = overview_of(item).best
    assert ref == ScreenRef(
        id="ana_7",
        project_id="proj_7",
        label="",
        status="completed",
        score=64.5,
        created_at=WHEN,
        image_url="https://img.example/7.png",
        error_message=None,
    )


def test_failures_are_newest_first_in_any_zone_and_undated_last() -> None:
    plus_two = timezone(timedelta(hours=2))
    failures = [
        analysis(1, status="failed", error_message="a", created_at=WHEN),
        analysis(2, status="failed", error_message="b", created_at=None),
        analysis(3, status="failed", error_message="c", created_at=datetime(2026, 10, 5, 10)),
        analysis(4, status="failed", error_message="d", created_at=WHEN.astimezone(plus_two)),
        analysis(5, status="failed", error_message="e", created_at=WHEN + timedelta(hours=2)),
    ]
    result = overview_of(*failures)
    assert [r.id for r in result.failures] == ["ana_5", "ana_3", "ana_1", "ana_4", "ana_2"]
    assert result.failures[0].status == "failed" and result.failures[0].error_message == "e"
    assert result.failures[0].score is None


def test_first_and_last_are_the_extremes_in_any_zone() -> None:
    plus_two = timezone(timedelta(hours=2))
    result = overview_of(
        analysis(1, created_at=datetime(2026, 10, 5, 10, 0)),  # naive: UTC
        analysis(2, created_at=datetime(2026, 10, 5, 11, 0, tzinfo=plus_two)),  # 09:00 UTC
        analysis(3, created_at=None),
        analysis(4, created_at=datetime(2026, 10, 5, 12, 0, tzinfo=plus_two)),  # 10:00 UTC
    )
    assert result.first_at == datetime(2026, 10, 5, 9, 0, tzinfo=UTC)
    assert result.last_at == datetime(2026, 10, 5, 10, 0, tzinfo=UTC)
    assert result.last_at.tzinfo is not None and result.seen == 4
    assert result.timeline.points[0].count == 3


def test_statuses_are_counted_as_sent_cut_to_forty_characters() -> None:
    odd = "x" * 50
    result = overview_of(
        analysis(1, status=odd), analysis(2, status=odd + "y"), analysis(3, status=None)
    )
    counts = dict(result.status_counts)
    assert counts["x" * 40] == 2 and counts["—"] == 1 and counts["completed"] == 0


def test_every_count_counts_past_one() -> None:
    result = overview_of(
        analysis(1, score=None),
        analysis(2, score=None),
        analysis(3, breakdown={"visual_clarity": float("nan")}),
        analysis(4, breakdown={"visual_clarity": float("inf")}),
        InvalidAnalysis("bad", "ana_bad"),
        InvalidAnalysis("worse", "ana_worse"),
    )
    assert result.no_score == 2 and result.criteria_not_finite == 2 and result.invalid == 2
    assert result.expected is None and result.projects is None
    assert OverviewBuilder().result().invalid == 0


def test_feedback_is_counted_with_its_whitespace_folded() -> None:
    result = overview_of(
        analysis(1, feedback=["Make  the\nbutton larger."]),
        analysis(2, feedback=["Make the button larger.", "  "]),
    )
    assert result.feedback == (("Make the button larger.", 2),)


def test_the_lowest_ten_are_kept_whatever_order_they_come_in() -> None:
    result = overview_of(*(analysis(n, score=n) for n in range(12, 0, -1)))
    assert [ref.score for ref in result.worst] == list(range(1, 11))


def test_failures_are_ordered_in_utc_on_a_machine_in_another_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        result = overview_of(
            analysis(1, status="failed", created_at=datetime(2026, 10, 5, 10, 0)),  # UTC
            analysis(2, status="failed", created_at=datetime(2026, 10, 5, 5, 0, tzinfo=UTC)),
        )
        assert [r.id for r in result.failures] == ["ana_1", "ana_2"]
    finally:
        monkeypatch.undo()
        time.tzset()


def test_statuses_past_eight_unknown_ones_are_counted_as_other() -> None:
    result = overview_of(*(analysis(n, status=f"odd_{n}") for n in range(11)))
    counts = dict(result.status_counts)
    assert [f"odd_{n}" in counts for n in range(11)] == [True] * 8 + [False] * 3
    assert counts["other"] == 3


def test_each_criterion_has_its_mean_count_weight_and_the_weakest_is_the_lowest() -> None:
    project = Project.model_validate(
        {"id": "proj_x", "name": "X", "default_criteria": {"cta_effectiveness": 0.3}}
    )
    zeros = {c.value: 0.5 for c in Criterion} | {"visual_clarity": 0}
    result = overview_of(
        analysis(1, breakdown=zeros), analysis(2, breakdown=zeros), project=project
    )
    by_name = {c.criterion.value: c for c in result.criteria}
    assert by_name["visual_clarity"].count == 2 and by_name["visual_clarity"].mean == 0
    assert by_name["cta_effectiveness"].weight == 0.3 and by_name["color_contrast"].weight is None
    assert result.weakest is not None and result.weakest.criterion is Criterion.VISUAL_CLARITY
    assert result.complete is True and OverviewBuilder().result(complete=False).complete is False


def test_eight_feedback_sentences_are_shown_at_most() -> None:
    result = overview_of(analysis(1, feedback=[f"Sentence {n}." for n in range(12)]))
    assert len(result.feedback) == 8


def test_a_projects_row_counts_only_its_failed_analyses_as_failed() -> None:
    result = overview_of(analysis(1, status="failed"), analysis(2), analysis(3), by_project=True)
    assert result.projects is not None
    (row,) = result.projects.rows
    assert (row.analyses, row.failed, row.scored) == (3, 1, 2)

"""The overview's aggregates agree with the reference server's own numbers."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from fractions import Fraction

import pytest

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import STATUSES, Analysis, Criterion, Project
from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.runner import DemoServer
from screen_analysis.insight import OverviewBuilder, collect_overview
from screen_analysis.insight.collect import fill
from screen_analysis.secret import SecretStr


def client_for(server: DemoServer) -> ScreenAnalysisClient:
    return ScreenAnalysisClient(server.base_url, SecretStr(server.api_key), max_retries=0)


async def test_each_project_matches_the_server(demo_server: DemoServer) -> None:
    async with client_for(demo_server) as client:
        for stored in demo_server.store.projects():
            project = await client.get_project(stored.id)
            overview = await collect_overview(client, project_id=stored.id)
            assert overview.seen == project.analysis_count == overview.expected
            assert overview.avg_score == project.avg_score
            counts = dict(overview.status_counts)
            for status in STATUSES:
                page = await client.list_analyses(project_id=stored.id, status=status, limit=1)
                assert counts[status.value] == page.total
            assert overview.scored == counts["completed"]
            assert sum(overview.histogram) + overview.out_of_range == overview.scored
            assert sum(p.count for p in overview.timeline.points) == overview.scored


async def test_all_projects_and_status_filter(demo_server: DemoServer) -> None:
    async with client_for(demo_server) as client:
        everything = await collect_overview(client)
        failed = await collect_overview(client, status="failed")
    assert everything.seen == everything.expected == 300
    assert everything.scope == "All projects" and everything.weights_source == "weights per project"
    assert failed.seen == dict(everything.status_counts)["failed"] == len(failed.failures) or (
        len(failed.failures) == 10
    )
    assert all(ref.error_message for ref in failed.failures)
    created = [ref.created_at for ref in failed.failures]
    assert created == sorted(created, reverse=True)  # type: ignore[type-var]


async def test_the_stories_show(demo_now: datetime) -> None:
    config = DemoConfig(analyses=5000, seed=42, now=demo_now)
    with DemoServer(config) as server:
        improving, declining = server.store.projects()[:2]
        async with client_for(server) as client:
            up = await collect_overview(client, project_id=improving.id)
            down = await collect_overview(client, project_id=declining.id)
    assert up.weakest is not None and up.weakest.criterion is Criterion.CTA_EFFECTIVENESS
    assert up.weights_source == "project weights"
    assert down.weights_source == "platform defaults"
    assert all(c.weight is None for c in down.criteria)
    assert up.timeline.unit == "week"
    scored = [p.mean for p in up.timeline.points if p.mean is not None]
    assert scored[-1] - scored[0] > 12
    fell = [p.mean for p in down.timeline.points if p.mean is not None]
    assert fell[0] - fell[-1] > 12


def analysis(n: int, **fields: object) -> Analysis:
    base: dict[str, object] = {
        "id": f"ana_{n}",
        "project_id": "proj_x",
        "status": "completed",
        "label": f"screen {n}",
        "score": 70,
        "breakdown": {c.value: 70 for c in Criterion},
        "feedback": ["Fine."],
        "created_at": datetime(2026, 10, 1 + n % 20, tzinfo=UTC),
    }
    base.update(fields)
    return Analysis.model_validate(base)


def test_hostile_numbers_are_not_scores() -> None:
    builder = OverviewBuilder()
    builder.add_page(
        [
            analysis(1, score=float("nan")),
            analysis(3, score=10**400),
            analysis(4, score=-5, breakdown={"visual_clarity": float("inf"), "other": 3}),
            analysis(5, status="exploded", label="<script>alert(1)</script>"),
        ]
    )
    result = builder.result()
    assert result.seen == 4 and result.scored == 1 and result.out_of_range == 1
    assert result.not_finite == 2 and result.criteria_not_finite == 1  # counted, and said:
    assert result.mean_left_out() == "2 scores beyond ±1.8e308 or not numbers left out"
    assert result.chart_left_out() == (
        "1 score outside 0–100 and 2 scores beyond ±1.8e308 or not numbers left out"
    )
    assert dict(result.status_counts)["exploded"] == 1


def test_scores_outside_0_to_100_count_in_the_mean_not_in_the_charts() -> None:
    builder = OverviewBuilder()
    scores = [250, -3, 50, 60, None]
    builder.add_page([analysis(n, score=s) for n, s in enumerate(scores)])
    result = builder.result()
    assert result.scored == 4 and result.out_of_range == 2 and result.no_score == 1
    assert result.avg_score == 89.3  # (250 − 3 + 50 + 60) / 4, half up
    assert sum(result.histogram) == 2 and sum(p.count for p in result.timeline.points) == 2
    assert result.chart_left_out() == (
        "2 scores outside 0–100 and 1 completed analysis without a score left out"
    )
    assert result.mean_left_out() == "1 completed analysis without a score left out"


@pytest.mark.parametrize(
    "scores",
    [[1e308, 1e308], [1e308, 50, -1e308, 60], [-1e308, 60, 1e308, 50], [10**300, 1, -(10**300)]],
)
def test_huge_scores_give_exact_means(scores: list[float]) -> None:
    builder = OverviewBuilder()
    items = [analysis(n, score=s, breakdown={"visual_clarity": s}) for n, s in enumerate(scores)]
    builder.add_page(items)
    result = builder.result()  # no InvalidOperation, no overflow to infinity
    exact = sum((Fraction(s) for s in scores), Fraction(0)) / len(scores)
    assert result.mean_score == float(exact)
    assert result.avg_score is not None and abs(result.avg_score - float(exact)) <= max(
        0.05, float(exact) * 1e-15
    )
    assert result.criteria[0].mean == float(exact)


async def test_all_projects_carry_each_projects_trend(demo_now: datetime) -> None:
    config = DemoConfig(analyses=5000, seed=42, now=demo_now)
    with DemoServer(config) as server:
        improving, declining = server.store.projects()[:2]
        async with client_for(server) as client:
            everything = await collect_overview(client)
            one = await collect_overview(client, project_id=improving.id)
        ids = {p.id for p in server.store.projects()}
        stats = server.store.get_project(improving.id)
    table = everything.projects
    assert table is not None and one.projects is None
    rows = {row.project_id: row for row in table.rows}
    assert set(rows) == ids
    assert sum(row.analyses for row in table.rows) == everything.seen
    up, down = rows[improving.id], rows[declining.id]
    assert up.change is not None and up.change > 8
    assert down.change is not None and down.change < -5
    steady = [row.change for pid, row in rows.items() if pid not in (improving.id, declining.id)]
    assert all(change is not None and abs(change) < 4 for change in steady)
    assert len(up.weeks) == 8 and up.weeks[-1] == max(w for w in up.weeks if w is not None)
    assert stats is not None and up.avg_score == stats["avg_score"]
    assert table.left_out == ""


def test_a_table_of_projects_is_bounded_and_says_what_it_leaves_out() -> None:
    builder = OverviewBuilder(by_project=True)
    for n in range(30):
        builder.add(analysis(n, project_id=f"proj_{n % 15:02d}"))
    table = builder.result().projects
    assert table is not None and len(table.rows) == 12
    assert table.left_out == "3 projects with fewer analyses left out"


def test_since_leaves_older_analyses_out() -> None:
    builder = OverviewBuilder(since=datetime(2026, 10, 10, tzinfo=UTC))
    builder.add_page([analysis(n) for n in range(20)], total=20)
    result = builder.result()
    assert builder.received == 20 and result.seen == 11 and result.expected == 20


def test_memory_is_bounded_by_summaries_not_by_analyses() -> None:
    project = Project(id="proj_x", name="X", default_criteria=None)
    builder = OverviewBuilder(project)
    for n in range(20_000):
        builder.add(
            analysis(
                n,
                created_at=datetime(2000 + n % 900, 1 + n % 12, 1, tzinfo=UTC),
                feedback=[f"sentence {n}", "Common."],
                status="failed" if n % 3 == 0 else "completed",
                error_message="boom",
            )
        )
    result = builder.result()
    assert len(builder._feedback) <= 256 and len(builder._timeline._buckets) <= 4096
    assert result.feedback[0] == ("Common.", pytest.approx(13_334, abs=300))
    assert len(result.failures) == 10 and len(result.best) == 10
    assert len(result.timeline.points) <= 120
    assert result.weights_source == "platform defaults"


def test_overview_is_a_frozen_snapshot() -> None:
    builder = OverviewBuilder()
    builder.add(analysis(1))
    first = builder.result()
    builder.add(analysis(2, score=10))
    assert first.scored == 1 and builder.result().scored == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.seen = 3  # type: ignore[misc]


async def test_the_overview_counts_a_row_that_slid_across_pages_once(
    fresh_demo_server: DemoServer,
) -> None:
    for ids, cursor in ((["a", "b"], "A"), (["b", "c"], None)):
        data = [{"id": i, "project_id": "proj_1", "status": "pending"} for i in ids]
        fresh_demo_server.faults.inject(200, body={"data": data, "next_cursor": cursor, "total": 3})
    builder = OverviewBuilder(None)
    key = SecretStr(fresh_demo_server.api_key)
    async with ScreenAnalysisClient(fresh_demo_server.base_url, key) as client:
        await fill(client, builder)
    overview = builder.result()
    assert dict(overview.status_counts)["pending"] == overview.seen == 3

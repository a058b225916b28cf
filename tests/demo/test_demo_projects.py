"""GET /v1/projects/{id}: fields, 404, and statistics computed as documented."""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import httpx
import pytest

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.runner import DemoServer
from screen_analysis.demo.store import DemoStore, average

Walk = Callable[..., list[dict[str, Any]]]
CRITERIA = {
    "visual_clarity",
    "visual_hierarchy",
    "color_contrast",
    "cta_effectiveness",
    "brand_consistency",
}


def test_project_fields(api: httpx.Client, demo_server: DemoServer) -> None:
    projects = [api.get(f"/v1/projects/{p.id}").json() for p in demo_server.store.projects()]
    assert len(projects) == 8
    for project in projects:
        assert set(project) == {
            "id", "name", "description", "default_criteria", "analysis_count", "avg_score",
            "created_at", "updated_at",
        }  # fmt: skip
        assert project["id"].startswith("proj_") and project["name"]
        assert project["created_at"] <= project["updated_at"]
        criteria = project["default_criteria"]
        if criteria is not None:
            assert set(criteria) == CRITERIA
            assert sum(criteria.values()) == pytest.approx(1.0)
    assert any(p["default_criteria"] is None for p in projects)
    assert any(p["default_criteria"] is not None for p in projects)
    assert any(p["description"] is None for p in projects)


def test_stats_match_the_listing(api: httpx.Client, walk: Walk, demo_server: DemoServer) -> None:
    for stored in demo_server.store.projects():
        items = walk(api, project_id=stored.id, limit=100)
        scores = [i["score"] for i in items if i["status"] == "completed"]
        project = api.get(f"/v1/projects/{stored.id}").json()
        assert project["analysis_count"] == len(items)
        expected = Decimal(sum(scores)) / len(scores)
        assert project["avg_score"] == float(expected.quantize(Decimal("0.1"), ROUND_HALF_UP))


def test_unknown_project_is_404(api: httpx.Client) -> None:
    response = api.get("/v1/projects/proj_doesnotexist")
    assert response.status_code == 404
    assert response.json()["error"]["type"] == "not_found"
    assert response.json()["error"]["param"] == "id"


def test_avg_score_is_null_without_completed_analyses(demo_now: Any) -> None:
    store = DemoStore.build(DemoConfig(analyses=2, projects=8, seed=1, now=demo_now))
    try:
        projects = [store.get_project(p.id) for p in store.projects()]
        assert all(p is not None and p["avg_score"] is None for p in projects)
        assert sum(p["analysis_count"] for p in projects if p is not None) == 2
    finally:
        store.close()


@pytest.mark.parametrize(
    ("score_sum", "count", "expected"),
    [(0, 0, None), (149, 2, 74.5), (223, 3, 74.3), (1, 8, 0.1), (5, 40, 0.1), (3, 40, 0.1)],
)
def test_average_rounds_half_up_to_one_decimal(
    score_sum: int, count: int, expected: float | None
) -> None:
    assert average(score_sum, count) == expected

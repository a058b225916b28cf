"""GET /v1/analyses: the Rules of API.md, order, filters, limits and field values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from screen_analysis.demo.runner import DemoServer

STATUSES = ("pending", "processing", "completed", "failed")


Walk = Callable[..., list[dict[str, Any]]]


def sort_key(item: dict[str, str]) -> tuple[str, str]:
    return item["created_at"], item["id"]


def test_page_shape_and_default_limit(api: httpx.Client) -> None:
    body = api.get("/v1/analyses").json()
    assert set(body) == {"data", "next_cursor", "total"}
    assert len(body["data"]) == 20
    assert body["total"] == 300


def test_rule_1_total_counts_every_match_not_only_the_page(api: httpx.Client, walk: Walk) -> None:
    for status in STATUSES:
        body = api.get("/v1/analyses", params={"status": status, "limit": 1}).json()
        assert body["total"] == len(walk(api, status=status, limit=100))
    assert (
        sum(api.get("/v1/analyses", params={"status": s}).json()["total"] for s in STATUSES) == 300
    )


def test_rule_2_next_cursor_is_a_string_until_the_last_page(api: httpx.Client) -> None:
    first = api.get("/v1/analyses", params={"limit": 100}).json()
    assert isinstance(first["next_cursor"], str) and first["next_cursor"]
    everything = api.get("/v1/analyses", params={"status": "pending", "limit": 100}).json()
    assert everything["next_cursor"] is None
    assert len(everything["data"]) == everything["total"]


def test_rule_2_exact_multiple_of_the_page_size_ends_with_null(api: httpx.Client) -> None:
    pages = []
    params: dict[str, str | int] = {"limit": 100}
    while True:
        body = api.get("/v1/analyses", params=params).json()
        pages.append(body)
        if body["next_cursor"] is None:
            break
        params["after"] = body["next_cursor"]
    assert [len(p["data"]) for p in pages] == [100, 100, 100]


def test_rule_3_iteration_yields_every_analysis_once_newest_first(
    api: httpx.Client, walk: Walk
) -> None:
    items = walk(api, limit=7)
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids)) == 300
    assert [sort_key(i) for i in items] == sorted((sort_key(i) for i in items), reverse=True)


def test_rule_4_filters_combine(api: httpx.Client, walk: Walk, demo_server: DemoServer) -> None:
    everything = walk(api, limit=100)
    for project in demo_server.store.projects():
        for status in STATUSES:
            expected = [
                i for i in everything if i["project_id"] == project.id and i["status"] == status
            ]
            got = walk(api, project_id=project.id, status=status, limit=100)
            assert got == expected
            total = api.get(
                "/v1/analyses", params={"project_id": project.id, "status": status}
            ).json()["total"]
            assert total == len(expected)


def test_unknown_project_filter_matches_nothing(api: httpx.Client) -> None:
    body = api.get("/v1/analyses", params={"project_id": "proj_nope"}).json()
    assert body == {"data": [], "next_cursor": None, "total": 0}


@pytest.mark.parametrize("limit", ["1", "100", "42", "007"])
def test_valid_limits(api: httpx.Client, limit: str) -> None:
    body = api.get("/v1/analyses", params={"limit": limit}).json()
    assert len(body["data"]) == int(limit)


@pytest.mark.parametrize("limit", ["0", "101", "-1", "abc", "1.5", "", " 5", "1e2", "99999999"])
def test_invalid_limits_are_400_naming_limit(api: httpx.Client, limit: str) -> None:
    response = api.get("/v1/analyses", params={"limit": limit})
    assert response.status_code == 400
    assert response.json()["error"] == {
        "type": "invalid_request",
        "message": "limit must be an integer from 1 to 100",
        "param": "limit",
    }


@pytest.mark.parametrize("status", ["done", "", "COMPLETED", "completed "])
def test_invalid_status_is_400_naming_status(api: httpx.Client, status: str) -> None:
    response = api.get("/v1/analyses", params={"status": status})
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["type"], error["param"]) == ("invalid_request", "status")
    assert "pending, processing, completed, failed" in error["message"]


def test_repeated_and_empty_parameters_are_refused(api: httpx.Client) -> None:
    twice = api.get("/v1/analyses?status=failed&status=pending")
    assert twice.status_code == 400 and twice.json()["error"]["param"] == "status"
    empty = api.get("/v1/analyses", params={"project_id": ""})
    assert empty.status_code == 400 and empty.json()["error"]["param"] == "project_id"


def test_field_values_follow_the_status(api: httpx.Client, walk: Walk) -> None:
    items = walk(api, limit=100)
    assert set(Counter(i["status"] for i in items)) == set(STATUSES)
    for item in items:
        assert item["id"].startswith("ana_") and item["project_id"].startswith("proj_")
        assert item["image_url"].endswith(f"/v1/images/{item['id']}.png")
        if item["status"] in ("pending", "processing"):
            assert (item["score"], item["breakdown"], item["error_message"]) == (None, None, None)
            assert (item["feedback"], item["completed_at"]) == ([], None)
        elif item["status"] == "failed":
            assert item["error_message"] and item["completed_at"]
            assert (item["score"], item["breakdown"], item["feedback"]) == (None, None, [])
        else:
            assert item["error_message"] is None and item["completed_at"] > item["created_at"]
            assert isinstance(item["score"], int) and item["feedback"]
            assert all(0 <= v <= 100 and isinstance(v, int) for v in item["breakdown"].values())


def test_in_flight_analyses_are_the_newest(api: httpx.Client, walk: Walk) -> None:
    statuses = [i["status"] for i in walk(api, limit=100)]
    in_flight = [s in ("pending", "processing") for s in statuses]
    count = sum(in_flight)
    assert count > 0 and all(in_flight[:count]) and not any(in_flight[count:])

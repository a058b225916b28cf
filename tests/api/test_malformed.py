"""Bodies that are not what the API documents: one clear error, or one invalid item."""

from __future__ import annotations

import json

import pytest
from tests.api.support import MakeClient, RecordedSleep, logged_requests

from screen_analysis.api import (
    Analysis,
    APIConnectionError,
    InvalidAnalysis,
    InvalidResponseError,
)
from screen_analysis.demo.runner import DemoServer

pytestmark = pytest.mark.usefixtures("fresh_validators")

REQUEST = "GET /v1/analyses?limit=20"


def good(analysis_id: str, **fields: object) -> dict[str, object]:
    return {
        "id": analysis_id,
        "project_id": "proj_1",
        "status": "completed",
        "image_url": "https://example.com/a.png",
        "label": "Checkout",
        "score": 80,
        "breakdown": {"visual_clarity": 80},
        "feedback": ["Fine."],
        "error_message": None,
        "created_at": "2026-01-01T00:00:00Z",
        "completed_at": "2026-01-01T00:01:00Z",
        **fields,
    }


@pytest.mark.parametrize(
    ("body", "headers", "expected"),
    [
        (
            "<html><head><title>Down for maintenance</title></head></html>",
            {"content-type": "text/html; charset=utf-8"},
            "body is not JSON (text/html): Down for maintenance",
        ),
        ("plain words", {}, "body is not JSON (text/plain): plain words"),
        ('{"data": [{"id": "ana_1"', {}, "malformed or truncated JSON"),
        (b"\xff\xfe{}", {}, "body is not JSON"),
        ('{"data": [], "total": NaN}', {}, "malformed or truncated JSON"),
        ([], {}, "expected a JSON object, got a list"),
        ("null", {}, "expected a JSON object, got null"),
        ({"total": 0}, {}, "not a valid page: data: field required"),
        (
            {"data": {"id": "x"}, "total": 1},
            {},
            "not a valid page: data: should be a list, not an object",
        ),
        pytest.param("[" * 50_000 + "]" * 50_000, {}, "nested too deeply", id="deep-nesting"),
    ],
)
async def test_a_body_that_is_not_a_page_is_one_clear_error_and_not_retried(
    fresh_demo_server: DemoServer,
    make_client: MakeClient,
    sleeps: RecordedSleep,
    body: object,
    headers: dict[str, str],
    expected: str,
) -> None:
    fresh_demo_server.faults.inject(200, headers=headers, body=body, count=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidResponseError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    text = str(caught.value)
    assert text.startswith(f"{REQUEST}: invalid response: ")
    assert expected in text and "\n" not in text and len(text) < 300
    assert len(await logged_requests(fresh_demo_server, 1)) == 1
    assert sleeps.delays == []


@pytest.mark.parametrize(
    ("fields", "total", "odd_total"),
    [
        ({}, None, "the server sent no total"),
        ({"total": -1}, None, "the server's total is negative (-1)"),
        ({"total": True}, None, "the server's total is a boolean, not a whole number"),
        ({"total": 1.5}, None, "the server's total (1.5) is not a whole number"),
        ({"total": [3]}, None, "the server's total is a list, not a whole number"),
        ({"total": "3"}, 3, None),
        ({"total": 3.0}, 3, None),
        ({"total": 10**30}, 10**30, None),
    ],
)
async def test_a_total_that_is_no_count_is_unknown_and_the_page_stays(
    fresh_demo_server: DemoServer,
    make_client: MakeClient,
    fields: dict[str, object],
    total: int | None,
    odd_total: str | None,
) -> None:
    body = {"data": [good("ana_1")], "next_cursor": None, **fields}
    fresh_demo_server.faults.inject(200, body=body)
    page = await make_client(fresh_demo_server).list_analyses()
    assert [item.id for item in page.items] == ["ana_1"]
    assert (page.total, page.odd_total) == (total, odd_total)


async def test_a_next_cursor_that_is_no_string_ends_the_listing_said_so(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    body = {"data": [good("ana_1")], "total": 2, "next_cursor": 12}
    fresh_demo_server.faults.inject(200, body=body)
    walk = make_client(fresh_demo_server).iter_pages()
    first = await anext(walk)
    assert [item.id for item in first.items] == ["ana_1"]
    assert first.odd_cursor == "the server's next_cursor is a number, not a string"
    with pytest.raises(InvalidResponseError, match="no further page can be asked for"):
        await anext(walk)


@pytest.mark.parametrize(("status", "body"), [(204, b""), (200, b""), (200, b"  \n")])
async def test_an_empty_answer_is_an_invalid_response(
    fresh_demo_server: DemoServer, make_client: MakeClient, status: int, body: bytes
) -> None:
    fresh_demo_server.faults.inject(status, body=body)
    with pytest.raises(InvalidResponseError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert str(caught.value) == f"{REQUEST}: invalid response: empty body (status {status})"
    assert caught.value.status_code == status and caught.value.attempts == 1  # never retried


async def test_one_invalid_item_does_not_blank_the_page(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    data = [
        good("ana_1"),
        good("ana_2", score="high", breakdown=[1]),
        {"no_id": True},
        "a string",
        good("ana_3", status="archived", new_field={"x": 1}),
        good("ana_4", status="pending", score=None, breakdown=None, completed_at=None),
    ]
    fresh_demo_server.faults.inject(200, body={"data": data, "total": 6, "next_cursor": None})
    page = await make_client(fresh_demo_server).list_analyses()
    kinds = [type(item).__name__ for item in page.items]
    assert (
        kinds
        == ["Analysis", "InvalidAnalysis", "InvalidAnalysis", "InvalidAnalysis"] + ["Analysis"] * 2
    )
    bad = page.items[1]
    assert isinstance(bad, InvalidAnalysis) and bad.id == "ana_2"
    assert "score" in bad.reason and "\n" not in bad.reason
    assert isinstance(page.items[2], InvalidAnalysis) and page.items[2].id is None
    assert page.items[3] == InvalidAnalysis(
        reason="item is a string, not an object", raw="a string"
    )
    unknown = page.items[4]
    assert isinstance(unknown, Analysis) and unknown.status == "archived"
    assert unknown.known_status is None
    assert page.raw_items == data
    assert [a.id for a in page.analyses] == ["ana_1", "ana_3", "ana_4"]


async def test_an_empty_next_cursor_means_the_end(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(
        200, body={"data": [good("ana_1")], "total": 1, "next_cursor": ""}
    )
    pages = [p async for p in make_client(fresh_demo_server).iter_pages()]
    assert [a.id for p in pages for a in p.items] == ["ana_1"]


async def test_a_missing_next_cursor_is_the_last_page(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(200, body={"data": [good("ana_1")], "total": 1})
    page = await make_client(fresh_demo_server).list_analyses()
    assert page.next_cursor is None and page.total == 1


async def test_an_invalid_project_is_an_invalid_response(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(200, body={"id": "proj_1", "analysis_count": "many"})
    with pytest.raises(InvalidResponseError) as caught:
        await make_client(fresh_demo_server).get_project("proj_1")
    text = str(caught.value)
    assert text.startswith("GET /v1/projects/proj_1: invalid response: not a valid project: ")
    assert "name: field required" in text


async def test_a_project_field_of_the_wrong_kind_is_unknown_and_flagged(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    body = {"id": "proj_1", "name": "P", "analysis_count": "many", "created_at": [1]}
    fresh_demo_server.faults.inject(200, body=body)
    project = await make_client(fresh_demo_server).get_project("proj_1")
    assert (project.id, project.name, project.analysis_count, project.created_at) == (
        "proj_1",
        "P",
        None,
        None,
    )
    assert project.flagged is not None
    assert project.flagged.startswith("analysis_count: should be a whole number")
    assert "created_at" in project.flagged
    dumped = project.model_dump(mode="json")
    assert (dumped["analysis_count"], dumped["created_at"]) == ("many", [1])  # as sent


async def test_a_body_shorter_than_its_content_length_is_a_connection_error(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    body = json.dumps({"data": [good("ana_1")], "total": 1}).encode()
    fresh_demo_server.faults.inject(
        200,
        headers={"content-type": "application/json", "content-length": str(len(body) + 500)},
        body=body,
        count=3,
    )
    with pytest.raises(APIConnectionError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    text = str(caught.value)
    assert text.startswith(f"{REQUEST}: connection failed: ")
    assert text.endswith("(after 3 attempts)") and "\n" not in text
    assert len(sleeps.delays) == 2

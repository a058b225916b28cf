"""Pagination over the wire: the reference server's cursors, and queued pages that loop or
repeat themselves."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.api.support import MakeClient, logged_requests

from screen_analysis.api import PaginationLoopError, ScreenAnalysisClient
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


def item(analysis_id: str) -> dict[str, Any]:
    return {"id": analysis_id, "project_id": "proj_1", "status": "pending"}


def page(ids: list[str], cursor: str | None) -> dict[str, Any]:
    return {"data": [item(i) for i in ids], "next_cursor": cursor, "total": 9}


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    page_size=st.integers(min_value=1, max_value=100), status=st.sampled_from([None, "completed"])
)
def test_any_page_size_walks_the_server_once_in_order(
    demo_server: DemoServer, page_size: int, status: str | None
) -> None:
    async def walk() -> tuple[list[str], list[str]]:
        key = SecretStr(demo_server.api_key)
        async with ScreenAnalysisClient(demo_server.base_url, key) as client:
            walked = [a.id async for a in client.iter_analyses(status=status, page_size=page_size)]
            reference = [a.id async for a in client.iter_analyses(status=status, page_size=100)]
        return walked, reference  # type: ignore[return-value]

    walked, reference = asyncio.run(walk())
    assert walked == reference and len(set(walked)) == len(walked)


async def test_a_to_b_to_a_from_the_wire_stops_with_one_line(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    for body in (page(["a1"], "A"), page(["b1"], "B"), page(["c1"], "A")):
        fresh_demo_server.faults.inject(200, body=body)
    seen = []
    iterator = make_client(fresh_demo_server).iter_analyses(page_size=1)
    with pytest.raises(PaginationLoopError) as caught:
        async for analysis in iterator:
            seen.append(analysis.id)
    assert seen == ["a1", "b1", "c1"]
    assert str(caught.value) == (
        "GET /v1/analyses?limit=1&after=B: pagination loop: "
        "next_cursor 'A' repeats a cursor already followed (page 3)"
    )
    queries = [r.query for r in await logged_requests(fresh_demo_server, 3)]
    assert queries == [{"limit": "1"}, {"limit": "1", "after": "A"}, {"limit": "1", "after": "B"}]


async def test_a_cursor_pointing_at_itself_from_the_wire(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(200, body=page(["a1"], "A"))
    fresh_demo_server.faults.inject(200, body=page(["a1"], "A"), count=5)
    with pytest.raises(PaginationLoopError, match="repeats the cursor just sent"):
        [p async for p in make_client(fresh_demo_server).iter_pages()]
    assert len(await logged_requests(fresh_demo_server, 2)) == 2


async def test_duplicates_across_pages_from_the_wire_are_skipped_and_counted(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(200, body=page(["a", "b", "c"], "A"))
    fresh_demo_server.faults.inject(200, body=page(["c", "d", "a"], "B"))
    fresh_demo_server.faults.inject(200, body=page(["e"], None))
    iterator = make_client(fresh_demo_server).iter_analyses()
    assert [a.id async for a in iterator] == ["a", "b", "c", "d", "e"]
    assert iterator.skipped_duplicates == 2 and iterator.total == 9


async def test_a_server_error_mid_iteration_is_retried_and_iteration_continues(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    iterator = client.iter_analyses(page_size=50)
    first = [await anext(iterator) for _ in range(50)]
    fresh_demo_server.faults.inject(503)
    rest = [a async for a in iterator]
    assert len({a.id for a in first + rest}) == 300

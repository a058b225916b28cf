"""Pagination over the wire: the reference server's cursors, and queued pages that loop or
repeat themselves."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.api.support import MakeClient, logged_requests

from screen_analysis.api import (
    AnalysisItem,
    AnalysisPage,
    PaginationLoopError,
    ScreenAnalysisClient,
)
from screen_analysis.api.pagination import Walk
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


def item(analysis_id: str) -> dict[str, Any]:
    return {"id": analysis_id, "project_id": "proj_1", "status": "pending"}


def page(ids: list[str], cursor: str | None) -> dict[str, Any]:
    return {"data": [item(i) for i in ids], "next_cursor": cursor, "total": 9}


async def rows(walk: Walk[AnalysisPage]) -> list[AnalysisItem]:
    """Every row of the walk's pages, in order."""
    async with walk:
        return [analysis async for walked in walk for analysis in walked.items]


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
            walked = await rows(client.iter_pages(status=status, limit=page_size))
            reference = await rows(client.iter_pages(status=status, limit=100))
        return [a.id or "" for a in walked], [a.id or "" for a in reference]

    walked, reference = asyncio.run(walk())
    assert walked == reference and len(set(walked)) == len(walked)


async def test_a_to_b_to_a_from_the_wire_stops_with_one_line(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    for body in (page(["a1"], "A"), page(["b1"], "B"), page(["c1"], "A")):
        fresh_demo_server.faults.inject(200, body=body)
    seen = []
    walk = make_client(fresh_demo_server).iter_pages(limit=1)
    with pytest.raises(PaginationLoopError) as caught:
        async for walked in walk:
            seen += [analysis.id for analysis in walked.items]
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
    walk = make_client(fresh_demo_server).iter_pages()
    assert [a.id for a in await rows(walk)] == ["a", "b", "c", "d", "e"]
    assert walk.skipped_duplicates == 2 and walk.total == 9


async def test_a_server_error_mid_iteration_is_retried_and_iteration_continues(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    walk = client.iter_pages(limit=50)
    first = (await anext(walk)).items
    fresh_demo_server.faults.inject(503)
    rest = await rows(walk)
    assert len(first) == 50 and len({a.id for a in first + rest}) == 300

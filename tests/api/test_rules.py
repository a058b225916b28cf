"""Each rule and limit of API.md, against the reference server over loopback."""

from __future__ import annotations

import pytest
from tests.api.support import MakeClient, RecordingTransport, logged_requests

from screen_analysis import __version__
from screen_analysis.api import Analysis, AnalysisStatus, Project
from screen_analysis.demo.runner import DemoServer

STATUSES = ["pending", "processing", "completed", "failed"]


async def test_default_page_is_20_and_total_counts_everything(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    page = await make_client(demo_server).list_analyses()
    assert len(page.items) == 20
    assert page.total == 300
    assert all(isinstance(item, Analysis) for item in page.items)
    assert len(page.raw_items) == 20 and page.raw_items[0]["id"] == page.items[0].id


@pytest.mark.parametrize("limit", [1, 37, 100])
async def test_limit_bounds_are_accepted(
    demo_server: DemoServer, make_client: MakeClient, limit: int
) -> None:
    page = await make_client(demo_server).list_analyses(limit=limit)
    assert len(page.items) == limit


async def test_rule_1_total_counts_matches_across_pages_not_the_page(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(demo_server)
    projects = {item.project_id for item in (await client.list_analyses(limit=100)).analyses}
    project_id = sorted(p for p in projects if p)[0]
    page = await client.list_analyses(project_id=project_id, status="completed", limit=3)
    walk = client.iter_pages(project_id=project_id, status="completed", limit=100)
    everything = [a async for p in walk for a in p.items]
    assert page.total == len(everything)
    assert len(page.items) == min(3, page.total)


async def test_rules_2_and_3_cursor_until_null(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(demo_server)
    pages = [page async for page in client.iter_pages(limit=70)]
    assert [len(p.items) for p in pages] == [70, 70, 70, 70, 20]
    assert all(p.next_cursor for p in pages[:-1]) and pages[-1].next_cursor is None
    ids = [item.id for p in pages for item in p.items]
    assert len(ids) == len(set(ids)) == 300


async def test_iteration_follows_the_server_order(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(demo_server)
    one_page = await client.list_analyses(limit=100)
    walked = [a.id async for p in client.iter_pages(limit=7, max_items=100) for a in p.items]
    assert walked == [a.id for a in one_page.items]


@pytest.mark.parametrize("status", STATUSES)
async def test_rule_4_status_filter(
    demo_server: DemoServer, make_client: MakeClient, status: str
) -> None:
    walk = make_client(demo_server).iter_pages(status=status, limit=100)
    items = [a async for p in walk for a in p.items]
    assert items and all(isinstance(a, Analysis) and a.status == status for a in items)


async def test_rule_4_filters_combine_and_totals_add_up(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(demo_server)
    everything = [a async for p in client.iter_pages(limit=100) for a in p.items]
    assert len(everything) == 300
    project_id = everything[0].project_id
    assert isinstance(project_id, str)
    totals = 0
    for status in AnalysisStatus:
        page = await client.list_analyses(project_id=project_id, status=status, limit=1)
        expected = [a for a in everything if a.project_id == project_id and a.status == status]
        assert page.total == len(expected)
        totals += page.total
    project = await client.get_project(project_id)
    assert isinstance(project, Project)
    assert project.analysis_count == totals


async def test_after_starts_from_the_cursor(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(demo_server)
    first = await client.list_analyses(limit=5)
    second = await client.list_analyses(limit=5, after=first.next_cursor)
    both = await client.list_analyses(limit=10)
    assert [a.id for a in first.items + second.items] == [a.id for a in both.items]


async def test_get_project(demo_server: DemoServer, make_client: MakeClient) -> None:
    client = make_client(demo_server)
    analysis = (await client.list_analyses(limit=1)).analyses[0]
    assert analysis.project_id
    project = await client.get_project(analysis.project_id)
    assert project.id == analysis.project_id and project.name


async def test_requests_carry_bearer_key_user_agent_and_exact_query(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    await client.list_analyses(project_id="proj_x", status="failed", limit=5, after=None)
    record = (await logged_requests(fresh_demo_server, 1))[-1]
    assert record.status == 200
    assert record.query == {"project_id": "proj_x", "status": "failed", "limit": "5"}


async def test_max_items_stops_early(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    items = [a async for p in client.iter_pages(limit=10, max_items=25) for a in p.items]
    assert len(items) == 25
    assert len(await logged_requests(fresh_demo_server, 3)) == 3


async def test_headers_bearer_key_and_user_agent(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    transport = RecordingTransport()
    client = make_client(demo_server, transport=transport, user_agent="tests/1")
    await client.get_project((await client.list_analyses(limit=1)).analyses[0].project_id or "")
    for request in transport.sent:
        assert request.headers["authorization"] == f"Bearer {demo_server.api_key}"
        assert request.headers["user-agent"] == f"screen-analysis/{__version__} tests/1"
        assert request.headers["accept"] == "application/json"

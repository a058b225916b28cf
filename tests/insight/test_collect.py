"""The overview from the API: every page of the scope asked (its status, its start), progress
after each page, and the names of the projects it shows, one look-up each."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from tests.insight.test_aggregates import analysis, client_for

from screen_analysis.demo.runner import DemoServer
from screen_analysis.insight import OverviewBuilder, collect_overview
from screen_analysis.insight.collect import project_names


async def test_the_status_filter_is_the_listings(demo_server: DemoServer) -> None:
    async with client_for(demo_server) as client:
        everything = await collect_overview(client)
        failed = await collect_overview(client, status="failed")
    counts = dict(failed.status_counts)
    assert failed.seen == counts["failed"] == dict(everything.status_counts)["failed"] > 0
    assert failed.seen == failed.expected and failed.scored == 0
    assert all(n == 0 for status, n in counts.items() if status != "failed")


async def test_since_leaves_the_older_analyses_of_the_listing_out(
    demo_server: DemoServer, demo_now: datetime
) -> None:
    since = demo_now - timedelta(days=30)
    async with client_for(demo_server) as client:
        recent = await collect_overview(client, since=since)
    assert 0 < recent.seen < recent.expected == 300
    assert recent.first_at is not None and recent.first_at >= since


async def test_progress_is_told_after_each_page(demo_server: DemoServer) -> None:
    told: list[tuple[int, int | None]] = []
    project = demo_server.store.projects()[0]
    async with client_for(demo_server) as client:
        overview = await collect_overview(
            client,
            project_id=project.id,
            page_size=7,
            on_page=lambda builder, total: told.append((builder.seen, total)),
        )
    assert len(told) == math.ceil(overview.seen / 7) >= 2
    assert [seen for seen, _ in told][-1] == overview.seen
    assert {total for _, total in told} == {overview.seen}
    assert overview.projects is None  # one project: no table of projects


async def test_the_projects_shown_are_named_one_look_up_each(demo_server: DemoServer) -> None:
    async with client_for(demo_server) as client:
        everything = await collect_overview(client)
        names = await project_names(client, everything)
    stored = {p.id: p.name for p in demo_server.store.projects()}
    assert names == stored
    looked_up = [r for r in demo_server.request_log if r.path.startswith("/v1/projects/")]
    assert len(looked_up) >= len(stored)


async def test_a_project_that_cannot_be_found_keeps_its_id(demo_server: DemoServer) -> None:
    project = demo_server.store.projects()[0]
    builder = OverviewBuilder(by_project=True)
    builder.add(analysis(1, project_id=project.id, status="failed"))
    builder.add(analysis(2, project_id="proj_gone", score=10))
    builder.add(analysis(3, project_id=None, score=20))
    async with client_for(demo_server) as client:
        names = await project_names(client, builder.result())
    assert names == {project.id: project.name}


async def test_one_projects_overview_names_it_without_a_look_up(demo_server: DemoServer) -> None:
    project = demo_server.store.projects()[1]
    async with client_for(demo_server) as client:
        overview = await collect_overview(client, project_id=project.id)
        before = len(demo_server.request_log)
        names = await project_names(client, overview)
    assert names == {project.id: project.name}
    assert len(demo_server.request_log) == before


async def test_a_project_in_the_table_is_named_though_none_of_its_screens_is_listed(
    demo_server: DemoServer,
) -> None:
    first, second = demo_server.store.projects()[:2]
    builder = OverviewBuilder(by_project=True)
    builder.add(analysis(1, project_id=first.id, status="pending"))  # in a row, on no list
    builder.add(analysis(2, project_id=second.id, score=50))
    async with client_for(demo_server) as client:
        names = await project_names(client, builder.result())
    assert names == {first.id: first.name, second.id: second.name}

"""Lazy paging of the main screen, checked against the reference server's request log."""

from __future__ import annotations

from pathlib import Path

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.demo.runner import DemoServer

from .conftest import answered, connection_to, make_app, page_requests, settled, wait_until


async def test_pages_load_on_demand_each_cursor_once_and_stop_at_the_end(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    # No refresh: it would ask for the first page again while the test counts pages.
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert len(screen.table.items) == 100
        assert [q.get("after") for q in page_requests(server)] == [None]
        assert screen.table.has_focus

        while not screen.pager.done:
            await pilot.press("end")
            await settled(pilot)
        for _ in range(3):  # more End presses at the end ask for nothing
            await pilot.press("end")
        await settled(pilot)

        queries = page_requests(server)
        afters = [q.get("after") for q in queries]
        assert afters[0] is None and len(afters) == 3
        assert len(set(afters)) == len(afters), "a cursor was requested twice"
        ids = [item.id for item in screen.table.items]
        assert len(ids) == 300 == len(set(ids))
        assert screen.status_line.status.state == "end"
        assert screen.status_line.status.loaded == 300


async def test_fast_filter_switching_under_jitter_shows_only_the_last_view(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    server.faults.latency_ms = 10
    server.faults.latency_jitter_ms = 120
    app = make_app(tmp_path, connection_to(server))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        for key in "2354135245":
            await pilot.press(key)
        await pilot.press("4")
        screen = await settled(pilot)
        await answered(pilot, server)  # late answers, if any were to land, have landed now
        items = list(screen.table.items)
        assert items, "the completed view is empty"
        assert all(isinstance(i, Analysis) and i.status is AnalysisStatus.COMPLETED for i in items)
        assert len({i.id for i in items}) == len(items)
        assert screen.status_filter.current is AnalysisStatus.COMPLETED
        assert (
            screen.status_line.status.total == screen.status_filter.counts[AnalysisStatus.COMPLETED]
        )


async def test_a_failure_while_paging_keeps_the_rows_and_r_retries(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    app = make_app(tmp_path, connection_to(server), max_retries=0, refresh_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        server.faults.inject(503, matching="after=")  # the next page's, whatever else asks
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.status_line.status.state == "error")
        status = screen.status_line.status
        assert "503" in status.error
        assert len(screen.table.items) == 100

        await pilot.press("r")
        await settled(pilot)
        ids = [item.id for item in screen.table.items]
        assert len(ids) == 200 == len(set(ids))
        assert screen.status_line.status.state == "idle"
        afters = [q.get("after") for q in page_requests(server)]
        assert afters[1] == afters[2], "the retry asks for the same page"
        assert len(afters) == 3


async def test_changing_project_shows_only_that_projects_rows(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        project_id = screen.sidebar.project_ids[0]
        screen.choose_project(project_id)
        await settled(pilot)
        items = list(screen.table.items)
        assert items and all(isinstance(i, Analysis) and i.project_id == project_id for i in items)
        assert project_id in app.remembered.ids

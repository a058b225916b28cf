"""`L` loads the rest of the view with progress, Esc stops it keeping what arrived, and the
pages go through the feed (each cursor once)."""

from __future__ import annotations

from pathlib import Path

from screen_analysis.demo.runner import DemoServer

from .conftest import connection_to, make_app, settled, wait_until


async def test_load_all_brings_every_row_each_page_once(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("L")
        await wait_until(pilot, lambda: screen.feed.done and not screen.load_all.running)
        assert len(screen.table.items) == 300 == len({i.id for i in screen.table.items})
        cursors = [
            r.query.get("after")
            for r in fresh_demo_server.request_log
            if r.path == "/v1/analyses" and r.query.get("limit") == "100"
        ]
        assert len(cursors) == len(set(cursors)) == 3
        assert any("Loaded all 300" in n.message for n in app._notifications)
        assert screen.status_line.status.state == "end"


async def test_escape_stops_loading_the_rest_and_keeps_what_arrived(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        fresh_demo_server.faults.latency_ms = 400
        await pilot.press("L")
        await wait_until(pilot, lambda: screen.load_all.running)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.load_all.running)
        fresh_demo_server.faults.latency_ms = 0
        assert not screen.feed.done and len(screen.table.items) < 300
        assert any("Stopped with" in n.message for n in app._notifications)
        screen.load_more()  # paging goes on from where it stopped
        await wait_until(pilot, lambda: len(screen.table.items) > 100 and not screen.busy)

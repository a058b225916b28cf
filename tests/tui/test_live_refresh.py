"""Auto-refresh against the live simulation, driven step by step with `LiveSimulator.tick`:
rows change in place and flash, new rows arrive at the top, totals follow, the cursor and the
scroll position stay, errors back off, `p` pauses, stale answers are dropped."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.demo.store import iter_all
from screen_analysis.tui.feed import RefreshSchedule, ViewKey, newer_than
from screen_analysis.tui.screens.main import MainScreen

from ..conftest import DEMO_NOW, demo_config
from .conftest import connection_to, make_app, settled, wait_until

INTERVAL = 0.2


@pytest.fixture
def live_server() -> Iterator[tuple[DemoServer, LiveSimulator]]:
    """A server whose live simulation only moves when the test calls `tick`."""
    with DemoServer(demo_config(analyses=120)) as server:
        yield server, LiveSimulator(server.config, server.store)


async def refreshed(pilot: Pilot[Any], screen: MainScreen, rounds: int = 1) -> None:
    """Wait until `rounds` more refreshes have finished (and their follow-up requests)."""
    for _ in range(rounds):
        await wait_until(pilot, lambda: screen.refreshing)
        await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
    await pilot.pause()


def status_of(screen: MainScreen, analysis_id: str) -> object:
    index = screen.table.index_of(analysis_id)
    assert index is not None
    item = screen.table.items[index]
    assert isinstance(item, Analysis)
    return item.status


# --- The schedule (headless) ---------------------------------------------------------------


def test_schedule_doubles_on_errors_up_to_the_cap_and_resets() -> None:
    schedule = RefreshSchedule(5.0, cap_s=60.0)
    assert schedule.label() == "auto-refresh 5s"
    seen = []
    for _ in range(6):
        schedule.failed()
        seen.append(schedule.interval_s)
    assert seen == [10.0, 20.0, 40.0, 60.0, 60.0, 60.0]
    assert schedule.label() == "refresh failed, retry in 60s"
    schedule.succeeded()
    assert schedule.interval_s == 5.0
    assert not schedule.toggle()
    assert schedule.label() == "auto-refresh paused (p)"
    assert schedule.toggle()
    assert RefreshSchedule(0).label() == "auto-refresh off"
    assert not RefreshSchedule(0).enabled


def test_newer_than_stops_at_the_top_row_and_keeps_the_filter() -> None:
    def row(minute: int, status: str) -> Analysis:
        created = DEMO_NOW + timedelta(minutes=minute)
        return Analysis(id=f"ana_{minute}", status=status, created_at=created)

    fetched = [row(3, "pending"), row(2, "completed"), row(1, "pending"), row(0, "pending")]
    top = fetched[2]
    assert [i.id for i in newer_than(fetched, top, ViewKey())] == ["ana_3", "ana_2"]
    pending = ViewKey(status=AnalysisStatus.PENDING)
    assert [i.id for i in newer_than(fetched, top, pending)] == ["ana_3"]
    assert len(newer_than(fetched, None, ViewKey())) == 4


# --- In the app ----------------------------------------------------------------------------


async def test_visible_rows_change_in_place_and_flash_without_moving_cursor_or_scroll(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=INTERVAL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        table = screen.table
        in_flight = [
            i.id
            for i in table.items[:30]
            if isinstance(i, Analysis) and i.status in ("pending", "processing")
        ]
        assert len(in_flight) >= 2, "the seeded data has pending and processing rows on top"
        # One row down from the top, so nothing is inserted above: only in-place updates.
        await pilot.press(*["down"] * 5)
        table.scroll_to(y=1, animate=False, immediate=True)
        await pilot.pause()
        cursor, scroll, highlighted = table.cursor_row, table.scroll_y, table.highlighted_item
        assert scroll == 1
        visible_in_flight = [
            table.items[i].id for i in table.visible_rows if table.items[i].id in in_flight
        ]
        assert visible_in_flight
        simulator.tick(DEMO_NOW + timedelta(seconds=60))
        await refreshed(pilot, screen)
        for analysis_id in visible_in_flight:
            assert status_of(screen, analysis_id) in ("completed", "failed"), analysis_id
        assert table.cursor_row == cursor
        assert table.scroll_y == scroll
        assert table.highlighted_item is not None and highlighted is not None
        assert table.highlighted_item.id == highlighted.id
        assert table._flashing, "changed rows are highlighted briefly"
        assert "auto-refresh 0.2s" in screen.status_line.render().plain


async def test_new_analyses_arrive_at_the_top_and_totals_follow(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=INTERVAL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        table = screen.table
        await pilot.press("down", "down")
        await pilot.pause()
        first = table.highlighted_item
        assert first is not None
        before = screen.status_filter.counts[None]
        seeded = {row["id"] for row in iter_all(server.store)}
        simulator.tick(DEMO_NOW + timedelta(seconds=30))
        arrived = {row["id"] for row in iter_all(server.store)} - seeded
        assert arrived
        await refreshed(pilot, screen, rounds=2)
        assert screen.status_filter.counts[None] > before
        top_ids = {i.id for i in table.items[:10]}
        assert arrived & top_ids, "new analyses are shown at the top"
        highlighted = table.highlighted_item
        assert highlighted is not None and highlighted.id == first.id, "the cursor stays put"
        assert table.scroll_y == 0
        assert len(set(i.id for i in table.items)) == len(table.items), "no duplicates"
        assert screen.feed.total == screen.status_filter.counts[None]


async def test_a_stale_refresh_is_dropped(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        simulator.tick(DEMO_NOW + timedelta(seconds=60))
        server.faults.latency_ms = 300
        screen.refresher.refresh_now()
        await pilot.press("4")  # another view while the refresh is under way
        await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
        server.faults.latency_ms = 0
        assert screen.view.status == AnalysisStatus.COMPLETED
        assert all(
            isinstance(i, Analysis) and i.status == "completed" for i in screen.table.items
        ), "nothing from the old view's refresh reached the table"


async def test_errors_back_off_and_recover(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, _simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=INTERVAL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        server.faults.error_rate = 1.0
        await wait_until(pilot, lambda: screen.schedule.failures >= 2)
        assert screen.schedule.interval_s == INTERVAL * 2**screen.schedule.failures
        assert "refresh failed, retry in" in screen.status_line.render().plain
        assert not app._notifications, "a failing background refresh does not pop up"
        server.faults.error_rate = 0.0
        await wait_until(pilot, lambda: screen.schedule.failures == 0, timeout=15)
        assert "auto-refresh 0.2s" in screen.status_line.render().plain


async def test_p_pauses_and_resumes(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=INTERVAL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("p")
        await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
        assert "paused" in screen.status_line.render().plain
        requests = len(server.request_log)
        await pilot.pause(INTERVAL * 4)
        assert len(server.request_log) == requests, "no refresh while paused"
        await pilot.press("p")
        simulator.tick(DEMO_NOW + timedelta(seconds=30))
        await refreshed(pilot, screen)
        assert len(server.request_log) > requests
        assert "auto-refresh 0.2s" in screen.status_line.render().plain


async def test_refresh_never_overlaps_itself(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, _simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        server.faults.latency_ms = 150  # each refresh outlasts the interval
        most = 0
        for _ in range(40):
            running = [w for w in app.workers if w.group == "auto-refresh" and w.is_running]
            most = max(most, len(running))
            await pilot.pause(0.02)
        server.faults.latency_ms = 0
        assert most == 1
        await wait_until(pilot, lambda: not screen.refreshing)


def test_live_simulation_is_deterministic_for_a_seed_and_clock(
    live_server: tuple[DemoServer, LiveSimulator],
) -> None:
    _server, simulator = live_server
    other = DemoServer(demo_config(analyses=120))
    with other:
        twin = LiveSimulator(other.config, other.store)
        at: datetime = DEMO_NOW + timedelta(seconds=45)
        assert simulator.tick(at) == twin.tick(at)


async def test_on_the_first_row_at_the_top_the_cursor_follows_the_newest(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=INTERVAL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        old_top = screen.table.items[0]
        simulator.tick(DEMO_NOW + timedelta(seconds=30))
        await refreshed(pilot, screen, rounds=2)
        table = screen.table
        assert table.cursor_row == 0 and table.scroll_y == 0
        newest = table.highlighted_item
        assert newest is not None and newest.id != old_top.id

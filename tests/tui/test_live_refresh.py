"""Auto-refresh against the live simulation, driven step by step: the simulation moves only
with `LiveSimulator.tick`, and rounds run when the test asks (`AnalysesPane.refresh_now`),
so nothing waits on a timer. Rows change in place and flash, new rows arrive above without
moving the analysis picked or its line, counts follow, errors back off, `p` pauses, stale
answers are dropped."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.browse import RefreshSchedule, ViewKey, newer_than
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.demo.store import iter_all
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.table import flash

from ..conftest import DEMO_NOW, demo_config
from .conftest import connection_to, make_app, settled, wait_until


@pytest.fixture
def live_server() -> Iterator[tuple[DemoServer, LiveSimulator]]:
    """A server whose live simulation only moves when the test calls `tick`."""
    with DemoServer(demo_config(analyses=120)) as server:
        yield server, LiveSimulator(server.config, server.store)


async def refresh_round(pilot: Pilot[Any], screen: MainScreen) -> None:
    """Run one auto-refresh round now and wait until it and what it asked after are done."""
    screen.pane.refresh_now()
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
    now = [100.0]
    schedule = RefreshSchedule(5.0, cap_s=60.0, clock=lambda: now[0])
    assert schedule.label() == "auto-refresh 5s"
    assert schedule.due  # nothing ran yet
    schedule.started()
    assert not schedule.due
    now[0] += 5
    assert schedule.due
    seen = []
    for _ in range(6):
        schedule.failed()
        seen.append(schedule.interval_s)
    assert seen == [10.0, 20.0, 40.0, 60.0, 60.0, 60.0]
    assert schedule.label() == "refresh failed · retry in 60 s"
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


def test_live_simulation_is_deterministic_for_a_seed_and_clock(
    live_server: tuple[DemoServer, LiveSimulator],
) -> None:
    _server, simulator = live_server
    other = DemoServer(demo_config(analyses=120))
    with other:
        twin = LiveSimulator(other.config, other.store)
        at: datetime = DEMO_NOW + timedelta(seconds=45)
        assert simulator.tick(at) == twin.tick(at)


# --- In the app ----------------------------------------------------------------------------


async def test_visible_rows_change_in_place_and_flash_without_moving_cursor_or_scroll(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flash, "FLASH_SECONDS", 600.0)  # still lit however long the round took
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        table = screen.table
        in_flight = [
            i.id
            for i in table.items[:30]
            if isinstance(i, Analysis) and i.status in ("pending", "processing")
        ]
        assert len(in_flight) >= 2, "the seeded data has pending and processing rows on top"
        await pilot.press(*["down"] * 5)
        cursor, scroll, highlighted = table.cursor_row, table.scroll_y, table.highlighted_item
        simulator.tick(DEMO_NOW + timedelta(seconds=60))
        seeded = {i.id for i in table.items}
        await refresh_round(pilot, screen)
        for analysis_id in in_flight:
            assert status_of(screen, analysis_id) in ("completed", "failed"), analysis_id
        arrived = len([i for i in table.items if i.id not in seeded])
        assert table.cursor_row == cursor + arrived
        assert table.scroll_y == scroll + arrived, "the view holds still"
        assert table.highlighted_item is not None and highlighted is not None
        assert table.highlighted_item.id == highlighted.id
        assert table.flashing, "changed rows are highlighted briefly"


async def test_new_analyses_arrive_above_and_the_counts_follow(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        table = screen.table
        await pilot.press("down", "down")
        picked = table.highlighted_item
        line = table.cursor_row - int(table.scroll_y)
        assert picked is not None
        before = screen.status_filter.counts[None]
        projects_before = {p: screen.sidebar.entry(p) for p in screen.sidebar.project_ids}
        seeded = {row["id"] for row in iter_all(server.store)}
        simulator.tick(DEMO_NOW + timedelta(seconds=30))
        arrived = {row["id"] for row in iter_all(server.store)} - seeded
        assert arrived
        await refresh_round(pilot, screen)
        assert {i.id for i in table.items[: len(arrived)]} == arrived, "new rows on top"
        highlighted = table.highlighted_item
        assert highlighted is not None and highlighted.id == picked.id, "the pick stays"
        assert table.cursor_row - int(table.scroll_y) == line, "on its line of the screen"
        assert f"↑ {len(arrived)} new" in screen.status_line.render().plain
        assert len({i.id for i in table.items}) == len(table.items), "no duplicates"
        assert screen.status_filter.counts[None] == before + len(arrived) == screen.pager.total
        pending = screen.status_filter.counts[AnalysisStatus.PENDING]
        assert pending == server.store.count_analyses(None, "pending")
        moved = [p for p in screen.sidebar.project_ids if screen.sidebar.entry(p) is not None]
        changed = [p for p in moved if screen.sidebar.entry(p) != projects_before.get(p)]
        assert changed, "the sidebar's counts were read again"
        await pilot.press("home")
        assert table.cursor_row == 0 and "new" not in screen.status_line.render().plain


async def test_the_detail_holds_the_analysis_picked_for_a_minute_of_arrivals(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        await pilot.press("4", "home")
        await wait_until(pilot, lambda: not screen.busy and bool(screen.table.items))
        await pilot.press("enter")
        detail = screen.detail
        picked = detail.item
        assert picked is not None and detail.display
        detail.scroll_to(y=3, animate=False, immediate=True)
        scroll = detail.scroll_y
        for second in range(5, 65, 5):  # a round every 5 s, as with --demo
            simulator.tick(DEMO_NOW + timedelta(seconds=second))
            await refresh_round(pilot, screen)
            assert detail.item is not None and detail.item.id == picked.id
            assert detail.scroll_y == scroll, "the reader's place in the detail stays"
        await pilot.press("escape")
        highlighted = screen.table.highlighted_item
        assert highlighted is not None and highlighted.id == picked.id


async def test_on_the_first_row_arrivals_do_not_take_the_cursor(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        table = screen.table
        picked = table.highlighted_item
        assert picked is not None and table.cursor_row == 0
        simulator.tick(DEMO_NOW + timedelta(seconds=30))
        await refresh_round(pilot, screen)
        highlighted = table.highlighted_item
        assert highlighted is not None and highlighted.id == picked.id
        assert table.cursor_row - int(table.scroll_y) == 0, "still on the first line shown"
        assert table.unseen_above == table.cursor_row > 0


async def test_a_stale_refresh_is_dropped(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        simulator.tick(DEMO_NOW + timedelta(seconds=60))
        server.faults.latency_ms = 300
        screen.pane.refresh_now()
        await pilot.press("4")  # another view while the refresh is under way
        await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
        server.faults.latency_ms = 0
        assert screen.view.status == AnalysisStatus.COMPLETED
        assert all(
            isinstance(i, Analysis) and i.status == "completed" for i in screen.table.items
        ), "nothing from the old view's refresh reached the table"


async def test_errors_back_off_quietly_and_recover(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, _simulator = live_server
    # 15 s: no round of the timer's own comes while the test runs its rounds, however slow
    # the machine; twice doubled, it reaches the 60 s cap.
    app = make_app(tmp_path, connection_to(server), refresh_interval=15)
    said: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        monkeypatch.setattr(app, "notify", lambda message, **_kw: said.append(message))
        server.faults.error_rate = 1.0
        await refresh_round(pilot, screen)
        await refresh_round(pilot, screen)
        assert screen.schedule.failures == 2 and screen.schedule.interval_s == 60
        assert "refresh failed · retry in 60 s" in screen.status_line.refresh_state
        assert said == [], "a failing background refresh does not pop up"
        server.faults.error_rate = 0.0
        await refresh_round(pilot, screen)
        assert screen.schedule.failures == 0
        assert "auto-refresh 15s" in screen.status_line.refresh_state


async def test_p_pauses_and_resumes(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, _simulator = live_server
    # 15 s: the timer's own round never runs while the test looks at the armed one.
    app = make_app(tmp_path, connection_to(server), refresh_interval=15)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert screen.pane.refresh_armed
        await pilot.press("p")
        assert not screen.pane.refresh_armed, "no round is waiting while paused"
        assert "paused" in screen.status_line.refresh_state
        await pilot.press("p")
        assert screen.pane.refresh_armed
        assert "auto-refresh 15s" in screen.status_line.refresh_state


async def test_the_terminal_losing_focus_holds_refreshes(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, _simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        app.app_focus = False
        await pilot.pause()
        assert not screen.pane.refresh_armed
        assert "terminal not focused" in screen.status_line.refresh_state
        requests = len(server.request_log)
        app.app_focus = True  # a round fell due meanwhile: it runs at once
        await wait_until(pilot, lambda: len(server.request_log) > requests)
        await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
        assert screen.pane.refresh_armed


async def test_refresh_never_overlaps_itself(
    tmp_path: Path, live_server: tuple[DemoServer, LiveSimulator]
) -> None:
    server, _simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        server.faults.latency_ms = 150
        before = len(server.request_log)
        for _ in range(5):
            screen.pane.refresh_now()
        await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
        server.faults.latency_ms = 0
        rounds = [r for r in server.request_log[before:] if r.query.get("limit") == "100"]
        assert len(rounds) == 1, "one round at a time"

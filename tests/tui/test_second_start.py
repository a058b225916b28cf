"""A second start of the app: the cache's rows at once, then the server's, without hiding
what arrived in between; and the app reopens where the user left (project, status tab, the
analysis picked). Two runs of the app in the same home, the reference server on loopback,
its live simulation moved by the test (`LiveSimulator.tick`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.demo.runner import DemoServer
from screen_analysis.state import Place, RememberedPlace
from screen_analysis.tui.feed import ViewKey

from ..conftest import demo_config
from .conftest import (
    arrive,
    cache_at,
    connection_to,
    make_app,
    notes_of,
    settled,
    wait_until,
)


async def test_arrivals_between_two_starts_are_on_top_or_counted(tmp_path: Path) -> None:
    """The issue's repro: a cached start, the total went up by eight, and the top row was
    an older analysis with no word of the newer ones. Now the rows that arrived are either
    the top rows on screen or counted ("↑ 8 new (Home)"), and Home shows them."""
    cache = cache_at(tmp_path / "c.db")
    with DemoServer(demo_config(analyses=150)) as server:
        app = make_app(tmp_path, connection_to(server), open_cache=cache)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot)
        arrived = arrive(server, 8)
        total = server.store.count_analyses(None, None)
        app = make_app(tmp_path, connection_to(server), open_cache=cache)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            await wait_until(pilot, lambda: screen.feed.total == total and not screen.busy)
            table, line = screen.table, screen.status_line.render().plain
            on_top = [i.id for i in table.items[int(table.scroll_y) :][: len(arrived)]]
            said = f"↑ {len(arrived)} new (Home)" in line
            assert on_top == arrived or said, (line, on_top, arrived)
            await pilot.press("home")
            assert [i.id for i in table.items[: len(arrived)]] == arrived
            assert int(table.scroll_y) == 0 and isinstance(table.highlighted_item, Analysis)


async def test_the_app_reopens_where_it_was_left(tmp_path: Path, demo_server: DemoServer) -> None:
    """The project, the status tab and the analysis picked (by id: the rows above it may
    have changed) come back at the next start in the same home."""
    project = demo_server.store.projects()[1].id
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        screen.choose_project(project)
        await pilot.press("4")  # Completed
        screen = await settled(pilot)
        await pilot.press("down", "down", "down")
        picked = screen.table.highlighted_id
        assert picked is not None and screen.table.cursor_row == 3
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert screen.view == ViewKey(project, AnalysisStatus.COMPLETED)
        assert screen.status_filter.current == AnalysisStatus.COMPLETED
        marked = [str(screen.sidebar.prompt_of(i)) for i in screen.sidebar.option_ids[:2]]
        assert not marked[0].startswith("▸") and marked[1].startswith("▸")  # All, the project
        assert screen.table.highlighted_id == picked
        assert screen.detail.item is not None and screen.detail.item.id == picked


async def test_a_pick_that_is_gone_opens_the_view_on_its_top_row(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    project = demo_server.store.projects()[0].id
    gone = Place(project, "failed", "ana_000000000000000000000000")
    RememberedPlace(tmp_path / "state.json", "demo").remember(gone)
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, pytest.MonkeyPatch())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert screen.view == ViewKey(project, AnalysisStatus.FAILED)
        table = screen.table
        assert table.cursor_row == 0 and int(table.scroll_y) == 0 and table.unseen_above == 0
        assert table.highlighted_id == table.items[0].id
        assert "new" not in screen.status_line.render().plain and not notes

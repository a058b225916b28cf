"""Every part of the main screen tells the same story: the tab's total and the status
line's agree, offline is said at every width in one wording (the detail too, and the tabs
mark their totals alike whether the server went away or was never there), an empty view
says so in a sentence, a search that found nothing among the loaded rows offers to load the
rest. Against the reference server on loopback; a server that is gone is a closed port."""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from pathlib import Path

import pytest

from screen_analysis.config import Connection
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.numbers import format_count
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.graphics import Graphics
from screen_analysis.tui.widgets.analysis_detail import DetailText

from ..conftest import DEMO_NOW, demo_config
from .conftest import (
    arrive,
    cache_at,
    connection_to,
    make_app,
    notes_of,
    offline_screen,
    settled,
    wait_until,
)

GONE = "http://127.0.0.1:9"  # nothing listens: connection refused
HALFCELL = Graphics("halfcell")


async def first_run(folder: Path, server: DemoServer) -> Connection:
    """The app once, online: its first view kept in the cache; the connection to the same
    server once it is gone."""
    app = make_app(folder, connection_to(server), open_cache=cache_at(folder / "c.db"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
    return dataclasses.replace(connection_to(server), base_url=GONE)


def offline_app(folder: Path, gone: Connection) -> ScreenAnalysisApp:
    """The app on the cache `first_run` left in `folder`, its server `gone`; on the real
    clock, as the cache's times are (so the data is from today: "data from 10:42 UTC")."""
    return make_app(
        folder, gone, open_cache=cache_at(folder / "c.db"), max_retries=0, clock=now_utc
    )


async def test_the_tab_and_the_status_line_say_the_same_total(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    """The issue's "All 5,002" over "of 5,003": analyses arrived, `L` read the rest, and
    the pages it read carried the new total to the status line but not to the tab."""
    app = make_app(tmp_path, connection_to(fresh_demo_server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        arrive(fresh_demo_server, 3)
        total = fresh_demo_server.store.count_analyses(None, None)
        await pilot.press("L")
        await wait_until(pilot, lambda: screen.feed.done and not screen.busy)
        shown = format_count(total)
        assert f"of {shown}" in screen.status_line.render().plain
        assert f"All {shown}" in screen.status_filter.render().plain


async def test_offline_at_120_columns_with_the_sidebar_the_line_says_when_and_retry(
    tmp_path: Path,
) -> None:
    """At 120×40 with the sidebar open, the status line once ended "· offline": the time
    of the data and the retry gave way before the counts. Now the counts give way first."""
    with DemoServer(demo_config(analyses=150)) as server:
        gone = await first_run(tmp_path, server)
    app = offline_app(tmp_path, gone)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await offline_screen(pilot)
        await pilot.press("b")  # the sidebar, folded by default below 130 columns
        await wait_until(pilot, lambda: not screen.sidebar.folded)
        await pilot.pause()
        line = screen.status_line
        shown = line.render().plain.rstrip()
        assert len(shown) <= line.content_size.width
        assert re.fullmatch(r"offline · data from \d\d:\d\d · retry in \d+ s", shown), shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_offline_the_detail_says_so_too(tmp_path: Path, size: tuple[int, int]) -> None:
    """At 80×24 the detail takes the place of the table and its status line: it says
    offline itself, in the words the status line starts with."""
    with DemoServer(demo_config(analyses=150)) as server:
        gone = await first_run(tmp_path, server)
    app = offline_app(tmp_path, gone)
    async with app.run_test(size=size) as pilot:
        screen = await offline_screen(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.detail.display and bool(screen.detail.item))
        mark = str(screen.detail.border_subtitle)
        assert re.fullmatch(r"offline · data from \d\d:\d\d UTC", mark), mark
        assert mark in screen.status_line.render().plain or size == (80, 24)


async def test_totals_are_marked_alike_when_the_server_goes_and_when_it_was_never_there(
    tmp_path: Path,
) -> None:
    """Offline from the start, the tabs showed the kept totals unmarked; when the server
    went away during a run, they were marked "~". Now marked in both, as the line's."""
    with DemoServer(demo_config(analyses=150)) as server:
        gone = await first_run(tmp_path, server)
        app = make_app(tmp_path, connection_to(server), open_cache=cache_at(tmp_path / "c.db"))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            assert "~" not in screen.status_filter.render().plain
            app.current.replace(app.make_client(gone))
            screen.pane.refresh_now()
            await wait_until(pilot, lambda: screen.pane.offline)
            await pilot.pause()
            during = screen.status_filter.render().plain
    app = offline_app(tmp_path, gone)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await offline_screen(pilot)
        await wait_until(pilot, lambda: bool(screen.status_filter.counts))
        await pilot.pause()
        at_start = screen.status_filter.render().plain
        line = screen.status_line.render().plain
    for tabs in (during, at_start):
        assert "All ~150" in tabs, tabs
    assert "of ~150" in line, line


async def test_a_view_that_empties_says_so_in_its_own_sentence(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    """Pending after the queue drained kept its old rows ("Loaded 1 of 0"), and an empty
    view said nothing of itself. A refresh that finds the view empty reads it again, and
    the view says, in one sentence of its own, that it is empty."""
    server = fresh_demo_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("2")
        screen = await settled(pilot)
        assert screen.table.items, "the seeded data has pending analyses"
        simulator, seconds = LiveSimulator(server.config, server.store), 0
        while server.store.count_analyses(None, "pending") > 0:
            seconds += 1
            simulator.tick(DEMO_NOW + timedelta(seconds=seconds))
        screen.pane.refresh_now()
        await wait_until(pilot, lambda: not screen.table.items and not screen.busy)
        words = "Nothing is waiting to be scored on this server: the queue is empty."
        assert screen.table.empty_message == words
        table = screen.table
        assert any(words in table.render_line(y).text for y in range(table.size.height))


async def test_the_detail_says_how_to_see_the_image_with_the_keys_as_bound(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(
        tmp_path, connection_to(demo_server), keymap={"open-image": "O"}, graphics=HALFCELL
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: screen.detail.item is not None)
        body = screen.detail.query_one("#detail-body", DetailText).text.splitlines()
        image = next(i for i, line in enumerate(body) if line.startswith("Image"))
        assert body[image] == "Image      on the API server"
        assert body[image + 1].split() == ["i", "full", "screen", "·", "O", "in", "a", "browser"]


async def test_a_search_that_found_nothing_loaded_offers_to_load_the_rest(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), refresh_interval=0)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert not screen.feed.done
        await pilot.press("slash", *"no such label", "enter")
        loaded = format_count(len(screen.table.items))
        offer = f"{loaded} of 300 rows are loaded; L loads the rest, then n finds again"
        await wait_until(pilot, lambda: notes.any(offer))
        await pilot.press("L")
        await wait_until(pilot, lambda: screen.feed.done and not screen.busy)
        notes.clear()
        await pilot.press("n")
        await wait_until(pilot, lambda: notes.any("No loaded row has a label containing"))
        assert not notes.any("loads the rest"), "every row is loaded: nothing to offer"

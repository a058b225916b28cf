"""A second start of the app: the cache's rows at once, then the server's, without hiding
what arrived in between; and the app reopens where the user left (project, status tab, the
analysis picked). Two runs of the app in the same home, the reference server on loopback,
its live simulation moved by the test (`LiveSimulator.tick`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from screen_analysis.api.models import Analysis
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer

from ..conftest import DEMO_NOW, demo_config
from .conftest import cache_at, connection_to, make_app, settled, wait_until


def arrive(server: DemoServer, count: int) -> list[str]:
    """Let the live simulation run until at least `count` analyses arrived; their ids,
    newest first (as the server lists them)."""
    simulator = LiveSimulator(server.config, server.store)
    before = server.store.count_analyses(None, None)
    seconds = 0
    while server.store.count_analyses(None, None) < before + count:
        seconds += 5
        simulator.tick(DEMO_NOW + timedelta(seconds=seconds))
    arrived = server.store.count_analyses(None, None) - before
    return [row["id"] for row in server.store.list_analyses(None, None, arrived, None)[0]]


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

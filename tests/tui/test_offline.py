"""The local cache in the app: a second start paints the last view before the server
answers, works offline on it (browse, filter on what is kept, detail, compare), comes back
by itself, and never shows a rejected key what was kept. Real SQLite files, the reference
server on loopback; a server that is gone is a closed port."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.config import Connection
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.compare import CompareScreen
from screen_analysis.tui.screens.login import LoginScreen
from screen_analysis.tui.screens.main import MainScreen

from ..conftest import demo_config
from .conftest import connection_to, make_app, settled, wait_until

GONE = "http://127.0.0.1:9"  # nothing listens: connection refused


def cache_at(path: Path) -> Callable[[Connection], LocalCache]:
    """The app's cache opener, on a file of the test's (the demo's scope: "demo")."""

    def open_cache(connection: Connection) -> LocalCache:
        return LocalCache(CacheScope("demo", connection.profile or ""), path=path)

    return open_cache


async def first_run(tmp_path: Path, server: DemoServer, keys: tuple[str, ...] = ()) -> list[str]:
    """The app once, online: its view kept in the cache; the ids it showed."""
    app = make_app(tmp_path, connection_to(server), open_cache=cache_at(tmp_path / "c.db"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        for key in keys:
            await pilot.press(key)
            screen = await settled(pilot)
        shown = [i.id or "" for i in screen.table.items]
    return shown  # the app closed its cache on exit: every write is in


async def offline_screen(pilot: Pilot[Any]) -> MainScreen:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    await wait_until(pilot, lambda: screen.pane.offline and bool(screen.table.items))
    return screen


async def test_offline_the_last_view_is_there_and_every_read_only_feature_works(
    tmp_path: Path,
) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        seen = await first_run(tmp_path, server, ("1",))
        gone = dataclasses.replace(connection_to(server), base_url=GONE)
    app = make_app(tmp_path, gone, open_cache=cache_at(tmp_path / "c.db"), max_retries=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await offline_screen(pilot)
        assert [i.id for i in screen.table.items] == seen
        line = screen.status_line.render().plain
        assert "offline — data from" in line and "retrying in 30 s" in line
        assert app.screen is screen, "no error screen: the cache stands in"
        await pilot.press("down", "enter")
        assert screen.detail.item is screen.table.highlighted_item
        await pilot.press("escape", "m", "down", "c")  # compare two kept analyses
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("4")  # filter on what is kept, saying so
        await wait_until(pilot, lambda: "with this status" in screen.status_line.render().plain)
        kept = screen.table.items
        assert kept and all(isinstance(i, Analysis) for i in kept)
        assert all(i.status == AnalysisStatus.COMPLETED for i in kept)  # type: ignore[union-attr]


async def test_offline_retries_bring_the_view_back(tmp_path: Path) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        await first_run(tmp_path, server)
    with DemoServer(demo_config(analyses=150)) as again:
        app = make_app(tmp_path, connection_to(again), open_cache=cache_at(tmp_path / "c.db"))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            assert not screen.pane.offline
            again.faults.error_rate = 0.0
            gone_client = dataclasses.replace(connection_to(again), base_url=GONE)
            app.current.replace(app.make_client(gone_client))  # the network goes away
            screen.pane.refresh_now()
            await wait_until(pilot, lambda: screen.pane.offline)
            assert "offline" in screen.status_line.render().plain
            app.current.replace(app.make_client(connection_to(again)))  # and comes back
            await pilot.press("r")  # a retry at once (else in 30 s)
            await wait_until(pilot, lambda: not screen.pane.offline and not screen.busy)
            assert "offline" not in screen.status_line.render().plain


async def test_a_second_start_paints_the_cache_before_the_server_answers(tmp_path: Path) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        seen = await first_run(tmp_path, server)
        server.faults.latency_ms = 400
        app = make_app(tmp_path, connection_to(server), open_cache=cache_at(tmp_path / "c.db"))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await wait_until(pilot, lambda: bool(screen.table.items))
            assert "refreshing…" in screen.status_line.render().plain
            assert [i.id for i in screen.table.items] == seen
            await pilot.press("down", "down")  # the reader moves on the kept rows
            picked = screen.table.highlighted_id
            await wait_until(pilot, lambda: "refreshing" not in screen.status_line.render().plain)
            assert screen.table.highlighted_id == picked, "the server's answer keeps the pick"
            server.faults.latency_ms = 0


async def test_a_refused_key_never_sees_the_cache(tmp_path: Path) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        await first_run(tmp_path, server)
        server.faults.latency_ms = 200
        wrong = connection_to(server, api_key="sk-test-wrong-key-123456")
        app = make_app(tmp_path, wrong, open_cache=cache_at(tmp_path / "c.db"))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
            main = app.screen_stack[1]
            assert isinstance(main, MainScreen)
            assert list(main.table.items) == [], "the rows kept for the old key are gone"


@pytest.mark.parametrize("setting", ["config", "flag"])
def test_cache_off_writes_no_file(tmp_path: Path, setting: str, demo_server: DemoServer) -> None:
    from screen_analysis.cli.launch import cache_opener
    from screen_analysis.config import load_settings

    config = tmp_path / "config.toml"
    config.write_text("cache = false\n" if setting == "config" else "")
    settings = load_settings(config_path=config, no_cache=setting == "flag")
    assert not settings.cache and cache_opener(settings) is None

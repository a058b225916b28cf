"""How the app looks, at 80×24 and 120×40 (the main view also at 200×50), with the suite's
seeded data and a fixed clock.

Regenerate with `uv run pytest tests/tui --snapshot-update` and look at the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.dialogs.error import ErrorScreen
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.welcome import WelcomeScreen

from ..conftest import Serve, demo_config
from .conftest import NeverAnswers, connection_to, make_app, settled, wait_until

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
MAIN_SIZES = [*SIZES, pytest.param((200, 50), id="200x50")]
Compare = Callable[..., bool]


@pytest.fixture
def empty_project_server(served: Serve) -> DemoServer:
    """A server whose projects have no analyses yet."""
    return served(demo_config(analyses=0))


def after_load(*keys: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Wait for the data, press `keys`, wait again."""

    async def run(pilot: Pilot[Any]) -> None:
        await settled(pilot)
        for key in keys:
            await pilot.press(key)
            await settled(pilot)
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_loading(snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any) -> None:
    app = make_app(tmp_path, connection_to(demo_server), transport=NeverAnswers())
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", MAIN_SIZES)
def test_loaded(snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    assert snap_compare(app, terminal_size=size, run_before=after_load())


@pytest.mark.parametrize("size", MAIN_SIZES)
def test_sorted_by_score_sidebar_toggled(
    snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any
) -> None:
    """s sorts the loaded rows by score (▼, status line says so); b folds or unfolds."""
    app = make_app(tmp_path, connection_to(demo_server))
    assert snap_compare(app, terminal_size=size, run_before=after_load("s", "b"))


@pytest.mark.parametrize("size", SIZES)
def test_detail_of_a_completed_analysis(
    snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    assert snap_compare(app, terminal_size=size, run_before=after_load("4", "down", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_detail_of_a_failed_analysis(
    snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    assert snap_compare(app, terminal_size=size, run_before=after_load("5", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_empty_project(
    snap_compare: Compare, tmp_path: Path, empty_project_server: DemoServer, size: Any
) -> None:
    project_id = empty_project_server.store.projects()[0].id
    app = make_app(tmp_path, connection_to(empty_project_server), projects=(project_id,))

    async def choose(pilot: Pilot[Any]) -> None:
        screen = await settled(pilot)
        screen.choose_project(project_id)
        await settled(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=choose)


@pytest.mark.parametrize("size", SIZES)
def test_error(snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any) -> None:
    unreachable = dataclasses.replace(connection_to(demo_server), base_url="http://127.0.0.1:9")
    app = make_app(tmp_path, unreachable)

    async def wait(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ErrorScreen))
        main = pilot.app.screen_stack[-2]
        assert isinstance(main, MainScreen)
        await wait_until(pilot, lambda: main.pane.offline)  # the status line says so too
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=wait)


@pytest.mark.parametrize("size", SIZES)
def test_paging_error(
    snap_compare: Compare, tmp_path: Path, fresh_demo_server: DemoServer, size: Any
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), max_retries=0)

    async def fail(pilot: Pilot[Any]) -> None:
        screen = await settled(pilot)
        # For the next page only: an auto-refresh due meanwhile (every 5 s with the demo, as
        # long as a loaded machine may take to get here) asks for the first page.
        fresh_demo_server.faults.inject(503, matching="after=")
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.status_line.status.state == "error")
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=fail)


@pytest.mark.parametrize("size", SIZES)
def test_welcome(snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any) -> None:
    app = make_app(tmp_path, None, start_demo=lambda: connection_to(demo_server))

    async def wait(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, WelcomeScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=wait)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any) -> None:
    app = make_app(tmp_path, connection_to(demo_server))

    async def open_help(pilot: Pilot[Any]) -> None:
        await settled(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=open_help)

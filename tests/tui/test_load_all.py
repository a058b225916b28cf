"""`L` loads the rest of the view with progress, Esc stops it keeping what arrived, and the
pages go through the pager (each cursor once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from screen_analysis.demo.runner import DemoServer

from .conftest import connection_to, make_app, settled, wait_until


def said_by(app: object, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app notifies from now on (a spy on its public `notify`)."""
    said: list[str] = []
    original = app.notify  # type: ignore[attr-defined]

    def spy(message: str, **kwargs: object) -> None:
        said.append(message)
        original(message, **kwargs)

    monkeypatch.setattr(app, "notify", spy)
    return said


async def test_load_all_brings_every_row_each_page_once(
    tmp_path: Path, fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        said = said_by(app, monkeypatch)
        await pilot.press("L")
        await wait_until(pilot, lambda: screen.pager.done and not screen.pane.loading_all)
        assert len(screen.table.items) == 300 == len({i.id for i in screen.table.items})
        cursors = [
            r.query.get("after")
            for r in fresh_demo_server.request_log
            if r.path == "/v1/analyses" and r.query.get("limit") == "100"
        ]
        assert len(cursors) == len(set(cursors)) == 3
        assert any("Loaded all 300" in message for message in said)
        assert screen.status_line.status.state == "end"


async def test_escape_stops_loading_the_rest_and_keeps_what_arrived(
    tmp_path: Path, fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        said = said_by(app, monkeypatch)
        with fresh_demo_server.faults.hold("after=") as pages:
            await pilot.press("L")
            await wait_until(pilot, lambda: screen.pane.loading_all and pages.waiting == 1)
            await pilot.press("escape")
            await wait_until(pilot, lambda: not screen.pane.loading_all)
        assert not screen.pager.done and len(screen.table.items) < 300
        assert any("Stopped with" in message for message in said)
        await pilot.press("end")  # paging goes on from where it stopped
        await wait_until(pilot, lambda: len(screen.table.items) > 100 and not screen.busy)

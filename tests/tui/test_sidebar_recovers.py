"""Issue 34, defect 4: the app starts with its server down and nothing kept; the sidebar
lists its pinned project as "couldn't load". The server comes back, `r` loads the rows —
and the sidebar loads the project too (it used to say "couldn't load" until a restart).
The server is stopped and started at the same address, as a server that goes down and
comes back."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from tests.conftest import demo_config
from tests.tui.conftest import connection_to, make_app, wait_until

from screen_analysis.config import Connection
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.dialogs.error import ErrorScreen
from screen_analysis.tui.screens.main import MainScreen


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stopped_server() -> tuple[DemoServer, Connection, str, str]:
    """A server at a fixed address, stopped: a connection to it, and the id and name of
    one of its projects."""
    server = DemoServer(demo_config(), port=free_port())
    server.start()
    connection = connection_to(server)
    project = server.store.projects()[0]
    server.stop()
    return server, connection, project.id, project.name


@pytest.mark.parametrize("retry_from", ["error screen", "main screen"])
async def test_a_project_that_could_not_load_loads_once_the_server_is_back(
    tmp_path: Path, retry_from: str
) -> None:
    server, connection, project_id, name = stopped_server()
    app = make_app(tmp_path, connection, projects=(project_id,), refresh_interval=0)
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
            main = next(s for s in app.screen_stack if isinstance(s, MainScreen))
            sidebar = main.sidebar
            failed = lambda: getattr(sidebar.entry(project_id), "state", "") == "error"  # noqa: E731
            await wait_until(pilot, failed)
            assert "couldn't load" in str(sidebar.prompt_of(project_id))

            server.start()  # back, at the same address
            if retry_from == "main screen":
                await pilot.press("escape")
                await wait_until(pilot, lambda: app.screen is main)
            await pilot.press("r")  # the rows load
            await wait_until(pilot, lambda: app.screen is main and bool(main.table.items))
            await wait_until(pilot, lambda: sidebar.entry(project_id).state == "ok")
            assert name in str(sidebar.prompt_of(project_id))
            assert sidebar.names[project_id] == name
    finally:
        server.stop()

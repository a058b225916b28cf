"""Helpers for the app's Pilot and snapshot tests: an app wired to a reference server."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.main import MainScreen

DEMO_NOW_FIXED = datetime.fromisoformat("2026-11-01T12:00:00+00:00")


@pytest.fixture(autouse=True)
def utc_local_time() -> Iterator[None]:
    """Local times render in UTC, so snapshots do not depend on the machine's zone."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


@pytest.fixture(autouse=True)
def truecolor_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A truecolor terminal without NO_COLOR, so the app's colour mode does not depend on
    the environment the tests run in."""
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.delenv("NO_COLOR", raising=False)


def connection_to(server: DemoServer, *, api_key: str | None = None) -> Connection:
    """A connection to `server` (shown as "demo" so no port number reaches a snapshot)."""
    return Connection(
        server.base_url, SecretStr(api_key or server.api_key), key_source="demo", is_demo=True
    )


def make_app(
    tmp_path: Path,
    connection: Connection | None,
    *,
    projects: tuple[str, ...] = (),
    max_retries: int = 0,
    transport: httpx.AsyncBaseTransport | None = None,
    start_demo: Callable[[], Connection] | None = None,
    refresh_interval: float = 5.0,
    keymap: dict[str, object] | None = None,
    **kwargs: Any,
) -> ScreenAnalysisApp:
    """The app as the composition root builds it, with a fixed clock and a private state file."""
    state = tmp_path / "state.json"

    def client(conn: Connection) -> ScreenAnalysisClient:
        return ScreenAnalysisClient(
            conn.base_url, conn.api_key, max_retries=max_retries, transport=transport
        )

    return ScreenAnalysisApp(
        Settings(
            projects=projects,
            state_path=state,
            config_path=tmp_path / "config.toml",
            refresh_interval=refresh_interval,
            keymap=keymap or {},
        ),
        connection,
        RememberedProjects(state),
        clock=lambda: DEMO_NOW_FIXED,
        start_demo=start_demo,
        make_client=client,
        **kwargs,
    )


async def wait_until(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until `check()` holds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.02)


class Notes(list[tuple[str, str]]):
    """What an app notified, as (message, severity), in order."""

    def messages(self, severity: str | None = None) -> list[str]:
        """The messages (of one severity)."""
        return [m for m, s in self if severity is None or s == severity]

    def any(self, words: str) -> bool:
        """Whether some message contains `words`."""
        return any(words in m for m, _s in self)


def notes_of(app: Any, monkeypatch: pytest.MonkeyPatch) -> Notes:
    """A spy on the app's public `notify`: every notification is recorded, then shown as
    usual. Install it before `run_test` to see what the app says while it starts."""
    notes = Notes()
    original = app.notify

    def spy(message: str, *args: Any, **kwargs: Any) -> None:
        notes.append((str(message), str(kwargs.get("severity", "information"))))
        original(message, *args, **kwargs)

    monkeypatch.setattr(app, "notify", spy)
    return notes


async def answered(pilot: Pilot[Any], server: DemoServer) -> None:
    """Wait until the server has answered every request it received (even those whose
    client gave up), then let the app handle whatever arrived."""
    await wait_until(pilot, lambda: server.requests_in_flight == 0)
    await pilot.pause()
    await pilot.pause()


def main_screen(pilot: Pilot[Any]) -> MainScreen:
    """The main screen (the app's current screen)."""
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen), type(screen).__name__
    return screen


async def settled(pilot: Pilot[Any]) -> MainScreen:
    """Wait until the main screen has no request under way, then return it."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))
    screen = main_screen(pilot)
    await wait_until(pilot, lambda: not screen.busy and screen.feed.started)
    await pilot.pause()
    return screen


class NeverAnswers(httpx.AsyncBaseTransport):
    """A transport whose requests never complete: the app stays "loading"."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

"""Helpers for the app's Pilot and snapshot tests: an app wired to a reference server."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.apps import NOW, build_app, demo_connection
from tests.support.pilot import wait_until
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import OptionList

from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.config import Connection
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.main import MainScreen

from ..conftest import DEMO_NOW

# The one factory and its clock, by the names these tests have always used.
make_app = build_app
connection_to = demo_connection
DEMO_NOW_FIXED = NOW


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


def palette_offers(app: Any, title: str) -> bool:
    """Whether the open command palette (or theme picker) has searched and lists `title`
    first, where Enter or the first Down picks it."""
    if not isinstance(app.screen, CommandPalette):
        return False
    options = app.screen.query_one(OptionList)
    return options.option_count > 0 and title in str(options.get_option_at_index(0).prompt)


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


async def workers_done(pilot: Pilot[Any], timeout: float = 20.0) -> None:
    """Wait until every worker the app has started (what a key asked for, a retry waiting
    out its backoff) has ended, then let the app apply what they brought."""
    await asyncio.wait_for(pilot.app.workers.wait_for_complete(), timeout)
    await pilot.pause()


def cache_at(path: Path) -> Callable[[Connection], LocalCache]:
    """The app's local-cache opener, on a file of the test's (the demo's scope: "demo")."""

    def open_cache(connection: Connection) -> LocalCache:
        return LocalCache(CacheScope("demo", connection.profile or ""), path=path)

    return open_cache


async def offline_screen(pilot: Pilot[Any]) -> MainScreen:
    """The main screen once it shows the cache's rows, offline."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))
    screen = main_screen(pilot)
    await wait_until(pilot, lambda: screen.pane.offline and bool(screen.table.items))
    return screen


def main_screen(pilot: Pilot[Any]) -> MainScreen:
    """The main screen (the app's current screen)."""
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen), type(screen).__name__
    return screen


async def settled(pilot: Pilot[Any]) -> MainScreen:
    """Wait until the main screen has no request under way, then return it."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))
    screen = main_screen(pilot)
    await wait_until(pilot, lambda: not screen.busy and screen.pager.started)
    await pilot.pause()
    return screen


class NeverAnswers(httpx.AsyncBaseTransport):
    """A transport whose requests never complete: the app stays "loading"."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def page_requests(server: DemoServer) -> list[dict[str, str]]:
    """Queries of the listing requests for table pages (not the totals' limit=1 ones)."""
    return [
        r.query
        for r in server.request_log
        if r.path == "/v1/analyses" and r.query.get("limit") == "100"
    ]


def arrive(server: DemoServer, count: int) -> list[str]:
    """Let the server's live simulation run until at least `count` analyses arrived; their
    ids, newest first (as the server lists them)."""
    simulator = LiveSimulator(server.config, server.store)
    before = server.store.count_analyses(None, None)
    seconds = 0
    while server.store.count_analyses(None, None) < before + count:
        seconds += 5
        simulator.tick(DEMO_NOW + timedelta(seconds=seconds))
    arrived = server.store.count_analyses(None, None) - before
    return [row["id"] for row in server.store.list_analyses(None, None, arrived, None)[0]]

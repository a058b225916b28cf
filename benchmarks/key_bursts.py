"""Requests per burst of PageDowns: pages are fetched by need, not by key press.

The app runs headless (`App.run_test`) against the reference server (in a process of its
own) with 150 ms of latency per request. Once the first page shows, a burst of N PageDown
presses is posted at once, the way a terminal delivers keys typed faster than the app
answers; then the app is left to settle. The figure is the table's page requests
(limit=100) after the first page, against the baseline: the pages the final cursor position
needs, with the table's look-ahead, beyond the first. The target is at most one page more
than needed, whatever N.
"""

from __future__ import annotations

import asyncio
import math
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual import events

from screen_analysis.browse import PAGE_SIZE
from screen_analysis.cli.root import make_client
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.config import DemoConfig
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.main import MainScreen

from .server_process import ServerProcess

ROWS = 20_000
LATENCY_MS = 150
SCREEN = (80, 24)
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TIMEOUT_S = 60.0


def make_app(server: ServerProcess, home: Path) -> ScreenAnalysisApp:
    """The app as the composition root builds it, pointed at `server` (no auto-refresh)."""
    state = home / "state.json"
    return ScreenAnalysisApp(
        Settings(state_path=state, config_path=home / "config.toml", refresh_interval=0),
        Connection(server.base_url, SecretStr(server.api_key), key_source="env"),
        RememberedProjects(state),
        clock=lambda: NOW,
        make_client=make_client,
    )


def page_requests(server: ServerProcess) -> int:
    """The table's page requests so far (not the limit=1 totals of the filter bar)."""
    return sum(
        1
        for _method, path, query, _status in server.request_log()
        if path == "/v1/analyses" and query.get("limit") == str(PAGE_SIZE)
    )


async def burst(server: ServerProcess, presses: int, size: tuple[int, int]) -> dict[str, Any]:
    """One burst of `presses` PageDowns on a fresh app; requests against pages needed."""
    with tempfile.TemporaryDirectory(prefix="burst-") as home:
        app = make_app(server, Path(home))
        async with app.run_test(size=size) as pilot:
            deadline = time.monotonic() + TIMEOUT_S
            while not (isinstance(app.screen, MainScreen) and app.screen.table.items):
                if time.monotonic() > deadline:
                    raise TimeoutError("no rows appeared")
                await pilot.pause(0.01)
            screen = app.screen
            table = screen.table
            while screen.busy:
                await pilot.pause(0.01)
            before = page_requests(server)
            for _ in range(presses):  # all at once, as a terminal delivers a burst
                press = events.Key("pagedown", None)
                press.set_sender(app)
                app.post_message(press)
            await pilot.pause()
            while screen.busy or table.highlighted_item is None:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"stuck at row {table.cursor_row} of {len(table.items)}")
                await pilot.pause(0.02)
            asked = page_requests(server) - before
            cursor = table.cursor_row
            needed = math.ceil((cursor + table.lookahead + 1) / PAGE_SIZE) - 1
            visible = table.scrollable_content_region.height - 1
    return {
        "presses": presses,
        "cursor_row": cursor,
        "asked_for_row": presses * visible,
        "page_requests": asked,
        "pages_needed": needed,
        "ratio": round(asked / max(needed, 1), 2),
        "at_most_one_more": asked <= needed + 1,
    }


async def run_async(
    bursts: tuple[int, ...] = (10, 50), size: tuple[int, int] = SCREEN
) -> dict[str, Any]:
    """Each burst on a fresh app against one server."""
    config = DemoConfig(analyses=ROWS, seed=7, now=NOW, latency_ms=LATENCY_MS)
    with ServerProcess(config) as server:
        runs = [await burst(server, presses, size) for presses in bursts]
    return {
        "rows": ROWS,
        "latency_ms": LATENCY_MS,
        "size": f"{size[0]}x{size[1]}",
        "runs": runs,
        "targets": {"at most the pages needed + 1": all(r["at_most_one_more"] for r in runs)},
    }


def run(bursts: tuple[int, ...] = (10, 50), size: tuple[int, int] = SCREEN) -> dict[str, Any]:
    """Run the measurement; the figures as a dict."""
    return asyncio.run(run_async(bursts, size))


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1))

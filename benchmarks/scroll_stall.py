"""Scroll stall and requests: a user holding PageDown through 5,000 rows of the real app.

The app runs headless (`App.run_test`) against the reference server (in a process of its
own) with 150 ms of latency per request and exactly 5,000 analyses. Once the first rows
show, a simulated user presses PageDown 30 times a second (presses are scheduled on a fixed
clock; a late one is made up) until the cursor is on the last analysis. A sampler task notes
every moment the cursor sits on the last loaded row while more rows exist: the sum of those
moments, or the cursor waits on a row still being loaded: the sum of those moments is the
stall.

The baseline is the same app with a look-ahead of 0 rows: the next page is asked for only
when the reader reaches the end of the loaded rows. The request figures come from the
server's request log: table pages asked for (limit=100) vs. the pages the 5,000 rows need
(auto-refresh is off, so the log holds only what scrolling asks for).

Key presses are posted to the app the way its terminal driver posts them, without waiting
for the app to catch up: `Pilot.press` waits for the app to go idle after each key, which
on this machine takes longer than the 33 ms between two presses of a held key.
"""

from __future__ import annotations

import asyncio
import math
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
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
from screen_analysis.tui.widgets.table import AnalysesTable

from .server_process import ServerProcess

ROWS = 5_000
LATENCY_MS = 150
PRESSES_PER_S = 30
SCREEN = (120, 40)
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TIMEOUT_S = 40.0
SAMPLE_S = 0.001


@contextmanager
def prefetch_threshold(rows: int | None) -> Iterator[None]:
    """Run with the table's look-ahead set to `rows` (None: as shipped)."""
    shipped = AnalysesTable.lookahead
    if rows is not None:
        AnalysesTable.lookahead = rows
    try:
        yield
    finally:
        AnalysesTable.lookahead = shipped


def make_app(server: ServerProcess, home: Path) -> ScreenAnalysisApp:
    """The app as the composition root builds it, pointed at `server`."""
    state = home / "state.json"
    return ScreenAnalysisApp(
        Settings(state_path=state, config_path=home / "config.toml", refresh_interval=0),
        Connection(server.base_url, SecretStr(server.api_key), key_source="env"),
        RememberedProjects(state),
        clock=lambda: NOW,
        make_client=make_client,
    )


async def hold_page_down(
    app: ScreenAnalysisApp, size: tuple[int, int], rows: int
) -> dict[str, Any]:
    """Scroll to the last analysis at 30 presses/s; the stall and the press count."""
    async with app.run_test(size=size) as pilot:
        deadline = time.monotonic() + TIMEOUT_S
        while not (isinstance(app.screen, MainScreen) and app.screen.table.items):
            if time.monotonic() > deadline:
                raise TimeoutError("no rows appeared")
            await pilot.pause(0.01)
        screen = app.screen
        table = screen.table
        visible = table.scrollable_content_region.height - 1
        stalled = 0.0
        done = False

        def at_the_end_of_loaded_rows() -> bool:
            return table.cursor_row >= len(table.items) - 1 and len(table.items) < rows

        async def sample() -> None:
            nonlocal stalled
            last, was = time.perf_counter(), at_the_end_of_loaded_rows()
            while not done:
                await asyncio.sleep(SAMPLE_S)
                now = time.perf_counter()
                if was:
                    stalled += now - last
                last, was = now, at_the_end_of_loaded_rows()

        sampler = asyncio.create_task(sample())
        start = time.perf_counter()
        presses = 0
        try:
            while table.cursor_row < rows - 1 or table.highlighted_item is None:
                if time.monotonic() > deadline:
                    p = screen.pager
                    raise TimeoutError(
                        f"stuck at row {table.cursor_row} of {len(table.items)}: "
                        f"loading {p.loading}, error {p.error!r}, done {p.done}, "
                        f"focus {app.focused!r}, screen {app.screen!r}"
                    )
                delay = start + presses / PRESSES_PER_S - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                press = events.Key("pagedown", None)
                press.set_sender(app)
                app.post_message(press)
                presses += 1
        finally:
            done = True
            await sampler
        elapsed = time.perf_counter() - start
        await pilot.pause(0.3)  # a prefetch asked for at the end would show in the log now
        return {
            "stall_ms": round(stalled * 1000, 1),
            "elapsed_s": round(elapsed, 2),
            "ideal_s": round(math.ceil((rows - 1) / max(1, visible)) / PRESSES_PER_S, 2),
            "presses": presses,
            "rows_per_press": visible,
            "rows_loaded": len(table.items),
        }


def page_requests(server: ServerProcess) -> list[dict[str, Any]]:
    """Queries of the table's page requests (not the limit=1 totals of the filter bar)."""
    return [
        query
        for _method, path, query, _status in server.request_log()
        if path == "/v1/analyses" and query.get("limit") == str(PAGE_SIZE)
    ]


async def measure(threshold: int | None, size: tuple[int, int], rows: int = ROWS) -> dict[str, Any]:
    """One run on a fresh server: stall, timing and request counts."""
    config = DemoConfig(analyses=rows, seed=7, now=NOW, latency_ms=LATENCY_MS)
    with (
        ServerProcess(config) as server,
        tempfile.TemporaryDirectory(prefix="scroll-") as home,
        prefetch_threshold(threshold),
    ):
        figures = await hold_page_down(make_app(server, Path(home)), size, rows)
        afters = [q.get("after") for q in page_requests(server)]
        figures["threshold_rows"] = AnalysesTable.lookahead
    figures["page_requests"] = len(afters)
    figures["distinct_pages"] = len(set(afters))
    figures["pages_needed"] = math.ceil(rows / PAGE_SIZE)
    return figures


async def run_async(sizes: Sequence[tuple[int, int]], rows: int = ROWS) -> dict[str, Any]:
    """The shipped threshold and the baseline (threshold 0) at each terminal size."""
    runs: dict[str, dict[str, Any]] = {}
    for size in sizes:
        label = f"{size[0]}x{size[1]}"
        ours = await measure(None, size, rows)
        baseline = await measure(0, size, rows)
        runs[label] = {
            "app": ours,
            "threshold 0": baseline,
            "stall_ratio": round(ours["stall_ms"] / max(baseline["stall_ms"], 1.0), 3),
        }
    return {"rows": rows, "latency_ms": LATENCY_MS, "presses_per_s": PRESSES_PER_S, "runs": runs}


def run(sizes: Sequence[tuple[int, int]] = (SCREEN,), rows: int = ROWS) -> dict[str, Any]:
    """Run the measurement; the figures as a dict."""
    return asyncio.run(run_async(sizes, rows))

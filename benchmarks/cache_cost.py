"""What the local cache costs while the user scrolls: the stall and the memory of the app
with its cache on, against the same app with it off, in the same run. Target: ≤ 1.05×.

- Stall: `scroll_stall`'s held PageDown through 5,000 rows at 150 ms of latency, each side
  on a fresh server, with a cache file of its own (on) or none (off); the cache's writes
  go through its writer thread while the user scrolls.
- Memory: in a fresh process each (so `tracemalloc` sees only the app), the app loads
  every page of 5,000 analyses (End until the last row), the writes are flushed, and the
  traced memory still allocated after a full collection is the figure.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tempfile
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.config import Connection
from screen_analysis.demo.config import DemoConfig
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.main import MainScreen

from . import scroll_stall
from .fresh_process import in_fresh_process
from .server_process import ServerProcess

ROWS = 5_000
TARGET_RATIO = 1.05


class Address(NamedTuple):
    """A server's address and key (a `ServerProcess` does not pickle into a child)."""

    base_url: str
    api_key: str


def opener(path: Path) -> Callable[[Connection], LocalCache]:
    """The app's cache opener, on `path`."""

    def open_cache(connection: Connection) -> LocalCache:
        return LocalCache(CacheScope(connection.base_url, ""), path=path)

    return open_cache


def with_cache(app: ScreenAnalysisApp, home: Path, cache: bool) -> ScreenAnalysisApp:
    """`app` with its local cache in `home` (cache) or none."""
    app.open_cache = opener(home / "cache.sqlite3") if cache else None
    return app


async def stall(cache: bool, rows: int) -> dict[str, Any]:
    """Held PageDown through `rows` rows; the stall and requests (as `scroll_stall`)."""
    config = DemoConfig(analyses=rows, seed=7, now=scroll_stall.NOW, latency_ms=150)
    with ServerProcess(config) as server, tempfile.TemporaryDirectory() as home:
        app = with_cache(scroll_stall.make_app(server, Path(home)), Path(home), cache)
        return await scroll_stall.hold_page_down(app, scroll_stall.SCREEN, rows)


async def _loaded_memory(base_url: str, api_key: str, cache: bool, rows: int) -> int:
    with tempfile.TemporaryDirectory() as home:
        server = Address(base_url, api_key)  # what make_app reads of a server
        app = with_cache(scroll_stall.make_app(server, Path(home)), Path(home), cache)
        async with app.run_test(size=scroll_stall.SCREEN) as pilot:
            while not (isinstance(app.screen, MainScreen) and app.screen.table.items):
                await pilot.pause(0.01)
            screen = app.screen
            # Measured from the end of the start, the server's first answers read, in both
            # cases: with the cache on, the first rows come before the client is built and
            # the modules that read the server's answers are imported after them, which
            # would count as rows' memory.
            while screen.busy or not screen.pager.started:
                await pilot.pause(0.01)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            while len(screen.table.items) < rows:
                await pilot.press("end")
                await pilot.pause(0.05)
            if app.cache is not None:
                await asyncio.to_thread(app.cache.flush)
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
        return held


def loaded_memory(base_url: str, api_key: str, cache: bool, rows: int) -> int:
    """Bytes the app still holds once `rows` rows are loaded (fresh process)."""
    return asyncio.run(_loaded_memory(base_url, api_key, cache, rows))


def run(rows: int = ROWS) -> dict[str, Any]:
    """Both figures, cache on against off; as a dict."""
    on = asyncio.run(stall(True, rows))
    off = asyncio.run(stall(False, rows))
    with ServerProcess(DemoConfig(analyses=rows, seed=7)) as server:
        memory_on = in_fresh_process(loaded_memory, server.base_url, server.api_key, True, rows)
        memory_off = in_fresh_process(loaded_memory, server.base_url, server.api_key, False, rows)
    stall_ratio = on["stall_ms"] / max(off["stall_ms"], 1.0)
    memory_ratio = memory_on / memory_off
    return {
        "rows": rows,
        "stall_ms": {"cache on": on["stall_ms"], "cache off": off["stall_ms"]},
        "stall_ratio": round(stall_ratio, 3),
        "memory_bytes": {"cache on": memory_on, "cache off": memory_off},
        "memory_ratio": round(memory_ratio, 3),
        "targets": {
            f"stall <= {TARGET_RATIO}x": stall_ratio <= TARGET_RATIO,
            f"memory <= {TARGET_RATIO}x": memory_ratio <= TARGET_RATIO,
        },
    }


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """`python -m benchmarks.cache_cost [ROWS]`."""
    print(json.dumps(run(int(argv[0]) if argv else ROWS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

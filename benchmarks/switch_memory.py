"""Memory across profile switches: a switched-away main screen must be freed.

The app runs headless in a fresh process against the reference server (in a process of its
own) and switches its main screen 20 times the way a profile switch does once the new
connection is checked (`app.browse`), each new screen loading its first page. Resident
memory is read from /proc after the first screen is settled (the baseline: everything a
screen needs is imported and drawn once) and after every fifth switch; the figure is the
growth over 20 switches against the baseline, and how many of the 20 left screens are
still alive (weak references, after a collection).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
import weakref
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from screen_analysis.demo.config import DemoConfig

from .server_process import ServerProcess

SWITCHES = 20
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TIMEOUT_S = 120.0


def rss_bytes() -> int:
    """Resident memory of this process."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


async def switches(base_url: str, api_key: str, count: int) -> dict[str, Any]:
    """In this process: the app, then `count` switches of its main screen."""
    from screen_analysis.cli.root import make_client
    from screen_analysis.config import Connection, Settings
    from screen_analysis.secret import SecretStr
    from screen_analysis.state import RememberedProjects
    from screen_analysis.tui.app import ScreenAnalysisApp
    from screen_analysis.tui.screens.main import MainScreen

    connection = Connection(base_url, SecretStr(api_key), key_source="env")
    with tempfile.TemporaryDirectory(prefix="switch-") as home:
        state = Path(home) / "state.json"
        app = ScreenAnalysisApp(
            Settings(state_path=state, config_path=Path(home) / "c.toml", refresh_interval=0),
            connection,
            RememberedProjects(state),
            clock=lambda: NOW,
            make_client=make_client,
        )
        deadline = time.monotonic() + TIMEOUT_S

        async with app.run_test(size=(120, 40)) as pilot:

            async def settled() -> MainScreen:
                while not (isinstance(app.screen, MainScreen) and app.screen.table.items):
                    if time.monotonic() > deadline:
                        raise TimeoutError("no rows")
                    await pilot.pause(0.01)
                screen = app.screen
                while screen.busy:
                    await pilot.pause(0.01)
                return screen

            left = [weakref.ref(await settled())]
            gc.collect()
            samples = {0: rss_bytes()}
            for number in range(1, count + 1):
                await app.browse(connection)
                left.append(weakref.ref(await settled()))
                if number % 5 == 0:
                    await pilot.pause(0.05)
                    gc.collect()
                    samples[number] = rss_bytes()
            left.pop()  # the screen shown now
            alive = len(left)
            freed_by = time.monotonic() + 5  # a finished task may hold the last one a moment
            while alive and time.monotonic() < freed_by:
                await pilot.pause(0.05)
                gc.collect()
                alive = sum(1 for ref in left if ref() is not None)
    base = samples[0]
    return {
        "switches": count,
        "rss_mb": {str(n): round(v / 2**20, 1) for n, v in samples.items()},
        "growth_mb": round((samples[count] - base) / 2**20, 1),
        "ratio": round(samples[count] / base, 3),
        "left_screens_alive": alive,
    }


def run(count: int = SWITCHES) -> dict[str, Any]:
    """The measurement in a fresh interpreter (its memory is the app's alone)."""
    with ServerProcess(DemoConfig(analyses=2_000, seed=7, now=NOW)) as server:
        code = (
            "import asyncio, json, sys\n"
            "from benchmarks.switch_memory import switches\n"
            f"print(json.dumps(asyncio.run(switches({server.base_url!r}, "
            f"{server.api_key!r}, {count}))))\n"
        )
        root = Path(__file__).resolve().parent.parent
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
        )
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["targets"] = {"every left screen freed": figures["left_screens_alive"] == 0}
    return figures


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))

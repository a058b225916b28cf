"""Requests an idle app makes, by how deep the cursor is: the polling budget.

The app is left untouched on a server whose data does not move, with the cursor at row 0,
1,000 and 10,000 (and pending rows on screen where the data has them), for a number of
refresh rounds at a short interval. The figure is list requests per round, against the
budget of two pages a round (ratio ≤ 1: met); per idle minute at the default 30 s interval
it is twice that figure. The old way walked the cursor chain from the top down to the
visible rows: its cost per round grew with depth (a page per 100 rows).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from screen_analysis.cli.root import make_client
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.config import DemoConfig
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.main import MainScreen

from .server_process import ServerProcess

BUDGET_PAGES = 2
INTERVAL_S = 0.25
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TIMEOUT_S = 120.0


async def idle_rounds(server: ServerProcess, depth: int, rounds: int) -> dict[str, Any]:
    """Load down to `depth`, put the cursor there, then count requests over `rounds`."""
    with tempfile.TemporaryDirectory() as home:
        state = Path(home) / "state.json"
        app = ScreenAnalysisApp(
            Settings(state_path=state, config_path=Path(home) / "c.toml", refresh_interval=0),
            Connection(server.base_url, SecretStr(server.api_key), key_source="env"),
            RememberedProjects(state),
            clock=lambda: NOW,
            make_client=make_client,
        )
        async with app.run_test(size=(120, 40)) as pilot:
            deadline = time.monotonic() + TIMEOUT_S
            while not (isinstance(app.screen, MainScreen) and app.screen.pager.total):
                await pilot.pause(0.02)
            screen = app.screen
            table = screen.table
            while len(table.items) <= depth + 100 and not screen.pager.done:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"loaded {len(table.items)} of {depth}")
                table.move_cursor(len(table.items) - 1)  # the pane pages in what is needed
                await pilot.pause(0.01)
            table.move_cursor(depth)
            await pilot.pause(0.3)
            while screen.busy:
                await pilot.pause(0.02)
            screen.schedule.base_s = INTERVAL_S
            before = len(server.request_log())
            completed = 0
            for _ in range(rounds):
                screen.pane.refresh_now()
                while screen.refreshing or screen.busy:
                    await pilot.pause(0.01)
                completed += 1
            log = server.request_log()[before:]
        lists = [entry for entry in log if entry[1] == "/v1/analyses"]
        return {
            "depth": depth,
            "rounds": completed,
            "requests": len(log),
            "list_requests": len(lists),
            "per_round": round(len(log) / completed, 2),
            "ratio": round(len(log) / completed / BUDGET_PAGES, 2),
        }


def run(depths: tuple[int, ...] = (0, 1_000, 10_000), rounds: int = 6) -> dict[str, Any]:
    """Requests per refresh round at each depth, against the two-page budget."""
    analyses = max(depths) + 2_000
    with ServerProcess(DemoConfig(analyses=analyses, seed=7, now=NOW)) as server:
        runs = [asyncio.run(idle_rounds(server, depth, rounds)) for depth in depths]
    worst = max(r["per_round"] for r in runs)
    return {
        "budget_pages": BUDGET_PAGES,
        "runs": runs,
        "worst_per_round": worst,
        "per_idle_minute_at_30s": round(worst * 2, 1),
        "targets": {"at most 2 pages a round, flat in depth": worst <= BUDGET_PAGES},
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1))

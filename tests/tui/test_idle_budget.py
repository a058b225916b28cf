"""What an idle app costs the server: at default settings (a round every 30 s), at most four
requests of any kind in any minute — list pages, per-status totals, projects.

Nothing sleeps: the refresh schedule's clock (which is also the totals' clock) is moved by
the test, and each round runs when the test asks (`AnalysesPane.refresh_now`), as the timer
would every 30 s; the reference server's request log counts what each minute asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from screen_analysis.demo.generator import AnalysisRow
from screen_analysis.demo.runner import DemoServer
from screen_analysis.demo.store import iter_all
from screen_analysis.tui.screens.main import MainScreen

from .conftest import answered, connection_to, make_app, settled, wait_until

DEFAULT_INTERVAL_S = 30.0
BUDGET_PER_MINUTE = 4
MINUTES = 8


def in_flight_from(server: DemoServer, start: int, count: int) -> None:
    """Rows `start` … `start + count` of the listing (newest first) are processing again."""
    for wire in list(iter_all(server.store))[start : start + count]:
        row = AnalysisRow(
            wire["id"],
            wire["project_id"],
            "processing",
            wire["image_url"],
            wire["label"],
            None,
            None,
            (),
            None,
            wire["created_at"],
            None,
        )
        server.store.replace_analysis(row)


async def idle_minutes(
    pilot: Pilot[Any], screen: MainScreen, server: DemoServer, minutes: int
) -> list[list[str]]:
    """Let `minutes` pass with the user doing nothing: the rounds each minute holds, the
    schedule's clock moved 30 s before each. What each minute asked for (paths and the
    `limit` of listings)."""
    now = [screen.schedule.clock()]
    screen.schedule.clock = lambda: now[0]
    asked: list[list[str]] = []
    for _minute in range(minutes):
        before = len(server.request_log)
        for _round in range(int(60 / DEFAULT_INTERVAL_S)):
            now[0] += DEFAULT_INTERVAL_S
            screen.pane.refresh_now()
            await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
            await answered(pilot, server)
            await wait_until(pilot, lambda: not screen.busy)
            await answered(pilot, server)
        asked.append(
            [f"{r.path}?limit={r.query.get('limit', '')}" for r in server.request_log[before:]]
        )
    return asked


def totals_asked(minute: list[str]) -> int:
    """The per-status totals among a minute's requests (listings of one row)."""
    return sum(1 for request in minute if request.endswith("limit=1"))


async def test_an_idle_minute_deep_in_the_list_with_rows_in_flight_costs_four_requests(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    in_flight_from(server, 200, 80)
    app = make_app(tmp_path, connection_to(server), refresh_interval=DEFAULT_INTERVAL_S)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        while screen.table.cursor_row < 200:
            await pilot.press("pagedown")
            await wait_until(pilot, lambda: not screen.busy)
        await answered(pilot, server)
        assert any(
            getattr(row, "status", None) == "processing" for row in screen.pane.visible_rows()
        ), "rows in flight on screen, a few hundred rows down"
        minutes = await idle_minutes(pilot, screen, server, MINUTES)
    costs = [len(minute) for minute in minutes]
    assert max(costs) <= BUDGET_PER_MINUTE, minutes


async def test_an_idle_minute_at_the_top_costs_at_most_four_and_totals_come_back(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=DEFAULT_INTERVAL_S)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await answered(pilot, server)
        minutes = await idle_minutes(pilot, screen, server, MINUTES)
        stale = screen.status_filter.stale
    costs = [len(minute) for minute in minutes]
    assert max(costs) <= BUDGET_PER_MINUTE, minutes
    # After a few minutes the totals are asked again, within the budget of the rounds.
    assert sum(totals_asked(minute) for minute in minutes) >= 4, minutes
    assert not stale or len(stale) < 4

"""The main screen's keys for stakeholders: v opens the overview of the project shown, m
marks an analysis (shown in the table), c compares it with the highlighted one."""

from __future__ import annotations

from pathlib import Path

from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.compare import CompareScreen
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.overview import OverviewScreen
from screen_analysis.tui.widgets.table import MARK

from .conftest import connection_to, make_app, settled, wait_until


def shown_row(main: MainScreen) -> str:
    """The highlighted row as the table draws it."""
    table = main.table
    return table.render_line(table.cursor_row - int(table.scroll_y) + 1).text


async def test_overview_mark_and_compare(tmp_path: Path, demo_server: DemoServer) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        main = await settled(pilot)
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, OverviewScreen))
        overview = app.screen
        assert isinstance(overview, OverviewScreen) and overview.project_id is None
        await wait_until(pilot, lambda: overview.overview is not None and not overview.reading)
        assert overview.overview is not None and overview.overview.seen == 300
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is main)
        await pilot.press("c")  # nothing marked yet: a note, no screen
        await pilot.pause()
        assert app.screen is main
        await pilot.press("m")
        await pilot.pause()
        first = main.table.highlighted_item
        assert first is not None
        assert main.insight.marked is first
        assert MARK + first.label in shown_row(main)
        await pilot.press("down", "c")
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen))
        compare = app.screen
        assert isinstance(compare, CompareScreen)
        assert compare.comparison.a.id == first.id
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press("up", "m")  # the marked one again: unmarked
        await pilot.pause()
        assert main.insight.marked is None
        assert MARK not in shown_row(main) and first.label in shown_row(main)

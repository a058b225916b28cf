"""In 16 colours (TERM=xterm, no COLORTERM) and under NO_COLOR, in every theme: a score's bar
tells its tier by its shade, and a row that just changed is bold on the table's own
background, never a tinted bar that reads as a selection."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.color import ColorSystem
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from screen_analysis.api.models import Analysis
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.themes import variable_defaults
from screen_analysis.tui.widgets.bar_rows import BarRow, BarRows
from screen_analysis.tui.widgets.detail_text import criterion_line
from screen_analysis.tui.widgets.score_bar import FULL, PARTIAL, bar_cells, texture
from screen_analysis.tui.widgets.table import flash

from ..conftest import DEMO_NOW, demo_config
from .conftest import connection_to, make_app, settled, wait_until

SMOOTH = set(FULL + PARTIAL.strip())
SHADES = {"▓": "-high", "▒": "-mid", "░": "-low"}


@pytest.fixture(params=["16-colours", "NO_COLOR"])
def low_colour_terminal(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A terminal with 16 colours (TERM=xterm, COLORTERM unset), or one under NO_COLOR."""
    if request.param == "16-colours":
        monkeypatch.setenv("TERM", "xterm")
        monkeypatch.delenv("COLORTERM", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", "1")
    return str(request.param)


@pytest.fixture
def live_server() -> Iterator[tuple[DemoServer, LiveSimulator]]:
    """A server whose live simulation only moves when the test calls `tick`."""
    with DemoServer(demo_config(analyses=120)) as server:
        yield server, LiveSimulator(server.config, server.store)


def bar_of(line: str) -> str:
    """The bar's cells of a criterion line (between the name and the number)."""
    return "".join(ch for ch in line if ch in SHADES or ch in SMOOTH)


def test_textured_bars_are_whole_cells_of_the_tier_shade() -> None:
    assert bar_cells(86, 10, texture("-high")) == ("▓" * 9, "·")
    assert bar_cells(55, 10, texture("-mid")) == ("▒" * 6, "·" * 4)
    assert bar_cells(20, 10, texture("-low")) == ("░" * 2, "·" * 8)
    assert bar_cells(None, 4, texture("-none")) == ("", "····")
    line = criterion_line("Visual clarity", 62, "0.25", 44, textured=True).plain
    assert set(bar_of(line)) == {"▒"} and line.rstrip().endswith("62 w 0.25")
    assert set(bar_of(criterion_line("Visual clarity", 62, None, 44).plain)) <= SMOOTH


async def test_the_detail_shades_each_bar_by_its_tier(
    tmp_path: Path, demo_server: DemoServer, low_colour_terminal: str
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("4")  # Completed: every row has scores
        await wait_until(pilot, lambda: "Scores" in screen.detail.query_one("#detail-scores").text)
        lines = screen.detail.query_one("#detail-scores").text.splitlines()
        bars = [(bar_of(line), line) for line in lines if bar_of(line)]
        assert len(bars) == 5, lines
        for bar, line in bars:
            score = float(line.split()[-3])
            assert len(set(bar)) == 1 and not set(bar) & SMOOTH, line
            assert SHADES[bar[0]] == ("-high" if score >= 80 else "-mid" if score >= 50 else "-low")


class Bars(App[None]):
    """The overview's bars alone."""

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The app's variables ($score-good, …), as the app derives them."""
        defaults = variable_defaults(self.current_theme)
        return {"foreground-disabled": defaults["score-bar-empty"], **defaults}

    def compose(self) -> ComposeResult:
        yield BarRows(label_width=12)


async def test_the_overview_bars_are_shaded_too(low_colour_terminal: str) -> None:
    app = Bars()
    async with app.run_test(size=(60, 10)) as pilot:
        bars = app.query_one(BarRows)
        bars.rows = (
            BarRow("Clarity", 86.0, 100, "86.0", "good"),
            BarRow("CTA", 41.0, 100, "41.0", "weak"),
            BarRow("completed", 30, 40, "30", "completed"),
        )
        await pilot.pause()
        lines = bars.render().plain.splitlines()
        assert [set(bar_of(line)) for line in lines] == [{"▓"}, {"░"}, {"▓"}]


def row_styles(screen: MainScreen) -> Iterator[tuple[bool, Any]]:
    """For each table row on screen: whether it is the cursor's, and its styles."""
    table = screen.table
    for y in range(1, table.size.height):
        row = y - 1 + int(table.scroll_y)
        if row >= len(table.items):
            return
        styles = [s.style for s in table.render_line(y) if s.style is not None]
        yield row == table.cursor_row, styles


async def refresh_round(pilot: Pilot[Any], screen: MainScreen) -> None:
    """One auto-refresh round now, and what it asked after."""
    screen.pane.refresh_now()
    await wait_until(pilot, lambda: not screen.refreshing and not screen.busy)
    await pilot.pause()


async def test_changed_rows_are_bold_on_the_table_background_not_a_bar(
    tmp_path: Path,
    live_server: tuple[DemoServer, LiveSimulator],
    low_colour_terminal: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(flash, "FLASH_SECONDS", 600.0)  # still lit when the rows are read
    server, simulator = live_server
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert app.has_class("-low-colour")
        table = screen.table
        in_flight = [
            i for i in table.items[:30] if isinstance(i, Analysis) and i.status != "completed"
        ]
        assert in_flight, "the seeded data has rows that are still running"
        await pilot.press("down")
        simulator.tick(DEMO_NOW + timedelta(seconds=60))
        await refresh_round(pilot, screen)
        assert table.flashing
        background = table.rich_style.bgcolor
        bold_rows = 0
        for is_cursor, styles in row_styles(screen):
            if is_cursor:
                continue
            assert {s.bgcolor for s in styles} == {background}, "no tinted bar"
            bold_rows += all(s.bold for s in styles)
        assert bold_rows >= 1, "the changed rows stand out by weight"


async def test_in_every_theme_a_change_cannot_look_like_the_cursor(
    tmp_path: Path, demo_server: DemoServer, low_colour_terminal: str
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        table = screen.table
        system = ColorSystem.STANDARD
        for theme in sorted(app.available_themes):
            app.theme = theme
            await pilot.pause()
            changed = table.get_component_rich_style("analyses-table--changed")
            cursor = table.get_component_rich_style("analyses-table--cursor")
            base = table.rich_style.bgcolor
            assert base is not None and changed.bgcolor is not None
            assert changed.bgcolor.downgrade(system) == base.downgrade(system), theme
            assert changed.bold and not changed.reverse, theme
            assert cursor.reverse or cursor.underline, theme

"""The compare screen: two versions of a screen side by side; snapshots at 80×24, 120×40."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from screen_analysis.api.models import Analysis
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.compare import CompareScreen, address_slot
from screen_analysis.tui.widgets.diff_table import DiffTable
from screen_analysis.tui.widgets.screen_image import ScreenImage

from ..conftest import demo_config
from .conftest import connection_to, make_app, settled, wait_until

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture(scope="module")
def story_server() -> Iterator[DemoServer]:
    """The first project's checkout screens come in versions v1 to v4."""
    with DemoServer(demo_config(analyses=3000)) as server:
        yield server


def versions(server: DemoServer) -> tuple[Analysis, Analysis]:
    """The oldest "payment step v1" and the newest "payment step v4", both completed."""
    project = server.store.projects()[0]
    rows, _ = server.store.list_analyses(project.id, "completed", 1000, None)
    items = [Analysis.model_validate(row) for row in rows]
    v4 = next(i for i in items if "payment step v4" in (i.label or ""))
    v1 = next(i for i in reversed(items) if "payment step v1" in (i.label or ""))
    return v1, v4


async def test_side_by_side_and_back(tmp_path: Path, story_server: DemoServer) -> None:
    v1, v4 = versions(story_server)
    app = make_app(tmp_path, connection_to(story_server))
    async with app.run_test(size=(120, 40)) as pilot:
        main = await settled(pilot)
        screen = CompareScreen(v1, v4)
        app.push_screen(screen)
        await pilot.pause()
        table = str(screen.query_one(DiffTable).render())
        assert "B − A" in table and ("▲ +" in table or "▼ −" in table)
        assert "payment step v1" in str(screen.query_one("#title-a").render())
        assert isinstance(screen.query_one("#image-b").children[0], ScreenImage)
        await pilot.press("s")
        await pilot.pause()
        assert "payment step v4" in str(screen.query_one("#title-a").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is main


def test_hostile_text_is_literal(tmp_path: Path, demo_server: DemoServer) -> None:
    a = Analysis.model_validate(
        {"id": "ana_a", "label": "[b]x[/b]\x1b[2J", "feedback": ["[@click=app.quit]q[/]"]}
    )
    screen = CompareScreen(a, a)
    assert screen.comparison.both == ("[@click=app.quit]q[/]",)


LONG_FEEDBACK = "The primary call to action is hard to find; give it a distinct colour."


async def feedback_column(tmp_path: Path, server: DemoServer, size: tuple[int, int]) -> list[str]:
    """The lines drawn in "Only in A" at `size` (A has a long sentence and a short one)."""
    a = Analysis.model_validate(
        {"id": "ana_a", "label": "A", "feedback": [LONG_FEEDBACK, "Short."]}
    )
    b = Analysis.model_validate({"id": "ana_b", "label": "B", "feedback": []})
    app = make_app(tmp_path, connection_to(server))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        screen = CompareScreen(a, b, image_slot=address_slot)
        app.push_screen(screen)
        await wait_until(pilot, lambda: bool(screen.query("#feedback-a")))
        column = screen.query_one("#feedback-a", Static)
        await wait_until(pilot, lambda: "Short." in str(column.render()))
        await wait_until(pilot, lambda: column.content_size.width > 0)
        assert str(screen.query_one("#feedback-b", Static).render()) == "Nothing."
        strips = column.render_lines(column.content_region.reset_offset)
        lines = [strip.text.rstrip() for strip in strips if strip.text.strip()]
        assert all(len(line) <= column.content_size.width for line in lines)
        return lines


async def test_wrapped_feedback_hangs_under_its_bullet(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    for size in ((80, 24), (120, 40), (200, 50)):
        lines = await feedback_column(tmp_path, demo_server, size)
        assert lines[0].startswith("• The primary") and lines[-1] == "• Short."
        assert len(lines) > 2
        assert all(line.startswith("  ") and line[2] != " " for line in lines[1:-1]), lines


@pytest.mark.parametrize("size", SIZES)
def test_compare_snapshot(
    snap_compare: Callable[..., bool], tmp_path: Path, story_server: DemoServer, size: Any
) -> None:
    v1, v4 = versions(story_server)
    app = make_app(tmp_path, connection_to(story_server))

    async def run(pilot: Pilot[Any]) -> None:
        await settled(pilot)
        app.push_screen(CompareScreen(v1, v4))
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


HUGE_A = {"visual_clarity": -4853140178864397, "color_contrast": 10**400, "cta_effectiveness": 1}
HUGE_B = {"visual_clarity": 1e308, "color_contrast": 5, "cta_effectiveness": -48531401}


@pytest.mark.parametrize("size", [(80, 24), (44, 24), (120, 40), (200, 50)])
async def test_numbers_never_run_together(
    tmp_path: Path, demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """-48531401 beside 78864397 once read "-4853140178864397▲": the columns are sized to
    their values, two spaces apart at least, and a cell cut to fit ends in …."""
    a = Analysis.model_validate({"id": "ana_a", "score": -48531401, "breakdown": HUGE_A})
    b = Analysis.model_validate({"id": "ana_b", "score": 78864397, "breakdown": HUGE_B})
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        screen = CompareScreen(a, b, image_slot=address_slot)
        app.push_screen(screen)
        await wait_until(pilot, lambda: bool(screen.query(DiffTable)))
        table = screen.query_one(DiffTable)
        await wait_until(pilot, lambda: bool(table.rows) and table.content_size.width > 0)
        strips = table.render_lines(table.content_region.reset_offset)
        lines = [strip.text.rstrip() for strip in strips if strip.text.strip()]
        note = str(screen.query_one("#scores-note", Static).render())
        width = table.content_size.width
    assert len(lines) == 7 and all(len(line) <= width for line in lines), (width, lines)
    for line in lines[1:]:
        assert not re.search(r"[\d…][▲▼=]|\d-|[\d…]\d{9}", line), line
        cells = re.split(r" {2,}", line.strip())
        assert len(cells) == 4, line  # name, A, B and B − A, each apart
    overall = re.split(r" {2,}", lines[1].strip())
    if size[0] >= 80:
        assert overall[1:] == ["-48531401", "78864397", "▲ +127395798"]
    assert "1 score beyond ±1.8e308 or not a number left out (shown as —)" in note

"""A label of any length is cut for display before it is drawn: the table, the detail (its
title and its text, with a note saying how long the label is), the compare screen, the
image view, the sidebar — and fifteen labels of a megabyte each from the server leave
nothing of that size for `j` to lay out. The export still writes them whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from tests.support.scripted_server import Reply, ScriptedServer, analysis, page
from tests.tui.conftest import DEMO_NOW_FIXED as NOW
from tests.tui.conftest import make_app, settled, wait_until
from textual.widgets import Static

from screen_analysis.api.models import Analysis, AnalysisStatus, Project
from screen_analysis.config import Connection
from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.secret import SecretStr
from screen_analysis.tui.graphics import Graphics
from screen_analysis.tui.project_book import KnownProject
from screen_analysis.tui.screens.compare import CompareScreen
from screen_analysis.tui.screens.image_view import ImageView
from screen_analysis.tui.widgets import detail_text
from screen_analysis.tui.widgets.analysis_detail import DetailText
from screen_analysis.tui.widgets.project_sidebar import entry_lines
from screen_analysis.tui.widgets.table.render import row_cells
from screen_analysis.words import end_ellipsis, middle_ellipsis

MB = 1024 * 1024
HUGE = "Checkout " + "x" * (20 * MB)  # the 20 MB label
SHOWN = DISPLAY_LIMIT + 200  # what a view may hold of one label, its note included


def huge_analysis(label: str = HUGE) -> Analysis:
    return Analysis(
        id="ana_huge", project_id="proj_1", status=AnalysisStatus.COMPLETED, label=label, score=70
    )


def test_clean_cuts_before_it_cleans_and_marks_the_cut() -> None:
    assert clean(HUGE, limit=DISPLAY_LIMIT) == HUGE[:DISPLAY_LIMIT] + "…"
    assert clean("\x1b" * 10, limit=4) == "␛␛␛␛…"
    assert clean("short", limit=DISPLAY_LIMIT) == "short"
    assert len(clean(HUGE)) == len(HUGE)  # whole where no limit is asked (CSV, reports)


def test_the_one_cutter_measures_only_what_could_fit() -> None:
    for cells in (1, 2, 12, 80):
        cut = end_ellipsis(HUGE, cells)
        assert cell_len(cut) <= cells and len(cut) <= cells
        assert cell_len(middle_ellipsis(HUGE, cells)) <= cells
    assert end_ellipsis("naïve", 5) == "naïve"
    assert end_ellipsis("a\u0301" * 100, 3) == "a\u0301a\u0301…"  # marks: cut unmeasured


def test_the_detail_shows_the_start_of_a_huge_label_and_says_how_long_it_is() -> None:
    head = detail_text.head(huge_analysis()).plain
    assert len(head) < SHOWN
    assert head.startswith("Checkout xxx") and "…" in head
    assert "(the first 1,000 of 20,971,529 characters; an export has it whole)" in head
    assert "characters" not in detail_text.head(huge_analysis("Short")).plain


def test_a_huge_label_in_a_table_row_or_a_project_name_in_the_sidebar_is_cut() -> None:
    cells = row_cells(huge_analysis(), {"proj_1": clean(HUGE, limit=DISPLAY_LIMIT)}, NOW)
    assert all(len(text) <= DISPLAY_LIMIT + 1 for text in cells.values())
    project = Project(id="proj_1", name=HUGE)
    name, _stats = entry_lines(KnownProject("proj_1", project, "ok"))
    assert len(name) == DISPLAY_LIMIT + 1 and name.endswith("…")


# --- Fifteen labels of a megabyte each from the server --------------------------------------


def megabyte_labels(path: str, query: dict[str, str]) -> Reply:
    if path.startswith("/v1/projects/"):
        return Reply.json({"id": "proj_scripted", "name": "Scripted " + "n" * MB})
    if path.startswith("/v1/images/"):
        return Reply(404)
    rows = [
        analysis(n, label=f"Label {n} " + "x" * MB, image_url=f"/v1/images/{n}.png")
        for n in range(15)
    ]
    return page(rows, None, 15)


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer(megabyte_labels) as scripted:
        yield scripted


def drawn(app) -> list[str]:
    """Every text the screen on top was given to draw, one per widget."""
    texts = [str(app.screen.sub_title)]
    for widget in app.screen.query("*"):
        texts.append(str(getattr(widget, "border_title", "") or ""))
        if isinstance(widget, DetailText):
            texts.append(widget.text)
        elif isinstance(widget, Static):
            texts.append(str(widget.render()))
    return texts


async def test_megabyte_labels_from_the_server_are_never_laid_out_whole(
    server: ScriptedServer, tmp_path: Path
) -> None:
    connection = Connection(server.base_url, SecretStr("sk-test-labels-not-real"))
    app = make_app(tmp_path, connection, refresh_interval=0, graphics=Graphics("halfcell"))
    async with app.run_test(size=(200, 50)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: bool(screen.sidebar.names))
        for _ in range(3):
            await pilot.press("j")
            assert isinstance(screen.detail.item, Analysis)
            assert max(map(len, drawn(app))) < SHOWN
            assert len(screen.detail.label) <= DISPLAY_LIMIT + 1
            width = screen.table.size.width
            assert all(
                strip.cell_length <= width
                for strip in (screen.table.render_line(y) for y in range(5))
            )
        head = screen.detail.query_one("#detail-head", DetailText).text
        assert "of 1,048,584 characters" in head
        assert all(len(name) <= DISPLAY_LIMIT + 1 for name in screen.sidebar.names.values())
        await pilot.press("m", "j", "c")  # compare two of them
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen))
        assert max(map(len, drawn(app))) < SHOWN
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("i")  # the image view
        await wait_until(pilot, lambda: isinstance(app.screen, ImageView))
        assert max(map(len, drawn(app))) < SHOWN

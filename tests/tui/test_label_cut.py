"""A label cut to its column keeps what tells rows apart: its start and its last words
("Checkout… v4 (tablet)"), where the end of it once went ("Checkout — payment st…")."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from screen_analysis.api.models import Analysis
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.widgets.table.layout import label_width
from screen_analysis.words import label_ellipsis

from .conftest import connection_to, make_app, settled, wait_until


@pytest.mark.parametrize(
    ("label", "cells", "cut"),
    [
        ("Checkout — payment step v4 (tablet)", 21, "Checkout… v4 (tablet)"),
        ("Checkout — payment step v3", 21, "Checkout — p… step v3"),
        ("Search results — flights", 21, "Search resul… flights"),
        ("Login v2", 21, "Login v2"),
        ("Averyveryverylongsinglewordlabelwithoutspaces", 21, "Averyveryv…houtspaces"),
    ],
)
def test_a_label_keeps_its_start_and_its_last_words(label: str, cells: int, cut: str) -> None:
    assert label_ellipsis(label, cells) == cut
    assert cell_len(cut) <= cells


async def test_at_120_columns_with_the_sidebar_the_rows_stay_told_apart(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("b")
        await wait_until(pilot, lambda: not screen.sidebar.folded)
        await pilot.pause()
        table = screen.table
        cells = label_width(table.scrollable_content_region.width)
        labels = {i.label for i in table.items if isinstance(i, Analysis) and i.label}
        assert cells < 30 and any(cell_len(label) > cells for label in labels)
        shown = {label_ellipsis(label, cells) for label in labels}
        assert len(shown) == len(labels), "two labels cut to the same words"
        drawn = "\n".join(table.render_line(y).text for y in range(1, table.size.height))
        visible = [table.items[row] for row in table.visible_rows]
        long = [i.label for i in visible if isinstance(i, Analysis) and cell_len(i.label) > cells]
        assert long and all(label_ellipsis(label, cells) in drawn for label in long)

"""Sorting among the loaded rows, the room the label gets, and the sidebar that folds away."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from screen_analysis.api.models import Analysis, AnalysisItem, InvalidAnalysis
from screen_analysis.browse.order import (
    SERVER_ORDER,
    SORT_COLUMNS,
    SortOrder,
    clicked_sort,
    next_sort,
    sort_key,
)
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.table import AnalysesTable
from screen_analysis.tui.widgets.table.layout import label_width, layout_columns
from screen_analysis.tui.widgets.table.rows import TableRows

from .conftest import connection_to, make_app, settled
from .test_analyses_table import TableApp, analysis, lines, loaded, page

ORDERS = [SortOrder(c, d) for c in SORT_COLUMNS for d in (False, True)]


def expected(items: list[AnalysisItem], order: SortOrder) -> list[AnalysisItem]:
    """The order a plain stable sort gives: missing values last, ties as served."""
    keyed = [(sort_key(item, i, order), i) for i, item in enumerate(items)]
    rows = [items[i] for _, i in sorted(keyed)]
    return rows[::-1] if order.descending else rows


def mixed(count: int, seed: int) -> list[AnalysisItem]:
    rng = random.Random(seed)
    items: list[AnalysisItem] = []
    for i in range(count):
        if rng.random() < 0.05:
            items.append(InvalidAnalysis(id=f"bad_{i}", reason="broken"))
            continue
        score = rng.choice([None, rng.randint(0, 100), rng.random() * 100])
        label = rng.choice([None, "", f"Screen {rng.randint(0, 20)}", "écran", "Zeta"])
        items.append(analysis(i, score=score, label=label))
    return items


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 120), st.integers(0, 120), st.integers(0, 10_000), st.sampled_from(ORDERS))
def test_appended_rows_land_where_a_full_sort_puts_them(
    first: int, more: int, seed: int, order: SortOrder
) -> None:
    items = mixed(first + more, seed)
    rows = TableRows()
    rows.extend(items[:first])
    rows.sort(order)
    rows.extend(items[first:])
    assert list(rows.view) == expected(items, order)
    descending = [i for i in rows.view if isinstance(i, Analysis)]
    if order == SortOrder("score", True) and descending:
        scores = [i.score for i in descending if i.score is not None]
        assert scores == sorted(scores, reverse=True), "highest first, missing last"
    for row, item in enumerate(rows.view):
        assert item.id is not None and rows.row_of_id(item.id) == row


def test_updates_move_a_row_and_ties_keep_the_servers_order() -> None:
    rows = TableRows()
    rows.extend([analysis(i, score=50) for i in range(5)])
    rows.sort(SortOrder("score", True))
    assert [i.id for i in rows.view] == [f"ana_{i:06d}" for i in range(5)]
    rows.update(analysis(3, score=99))
    assert rows.item(0).id == "ana_000003"
    rows.sort(SERVER_ORDER)
    assert [i.id for i in rows.view] == [f"ana_{i:06d}" for i in range(5)]


def test_the_key_cycles_and_a_click_flips_then_restores() -> None:
    seen = [next_sort(SERVER_ORDER)]
    while seen[-1] != SERVER_ORDER:
        seen.append(next_sort(seen[-1]))
    assert [o.column for o in seen] == [*SORT_COLUMNS, None]
    assert seen[0].arrow == "▼" and seen[2].arrow == "▲"
    first = clicked_sort(SERVER_ORDER, "label")
    flipped = clicked_sort(first, "label")
    assert (first.descending, flipped.descending) == (False, True)
    assert clicked_sort(flipped, "label") == SERVER_ORDER
    # Every column sorts now, criteria included (views); "age" sorts by creation time.
    assert clicked_sort(first, "id") == SortOrder("id", False)
    assert clicked_sort(first, "color_contrast") == SortOrder("color_contrast", False)
    assert clicked_sort(first, "age") == SortOrder("created", False)
    assert clicked_sort(first, "no-such-column") == first


def test_the_label_has_room_at_every_common_width() -> None:
    # Table widths at 80 (sidebar folded, detail closed) and 120 (sidebar, 30% detail).
    assert label_width(79) >= 22
    assert label_width(120 - 24 - 36 - 1) >= 32
    for width in range(40, 240):
        keys = [c.key for c in layout_columns(width)]
        assert keys[:3] == ["status", "score", "label"] and "created" in keys


async def test_s_sorts_keeps_the_cursor_and_asks_for_no_more_pages() -> None:
    app = TableApp(lookahead=10, can_grow=True)
    async with app.run_test(size=(100, 24)) as pilot:
        table = await loaded(pilot, page(0, 40))
        await pilot.press("down", "down")  # ana_000002: the only kind with a score
        await pilot.press("s")
        await pilot.pause()
        assert table.row_order == SortOrder("score", True)
        assert "Score▼" in next(lines(table))
        highlighted = table.highlighted_item
        assert highlighted is not None and highlighted.id == "ana_000002"
        table.append_items([analysis(1000, status="completed", score=100)])
        assert table.items[0].id == "ana_001000", "a new best score goes to the top"
        current = table.highlighted_item
        assert current is not None and current.id == "ana_000002"
        await pilot.press("end")
        assert table.cursor_row == 40
        assert app.of(AnalysesTable.Wanted) == [], "the end of a sorted view is not the end"
        for _ in range(len(SORT_COLUMNS)):
            await pilot.press("s")
        await pilot.pause()
        assert table.row_order == SERVER_ORDER
        assert [i.id for i in table.items][:3] == ["ana_000000", "ana_000001", "ana_000002"]
        assert "▼" not in next(lines(table)) and "▲" not in next(lines(table))


async def test_sidebar_folds_by_default_when_narrow_and_remembers_b(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(90, 30)) as pilot:
        screen = await settled(pilot)
        sidebar = screen.query_one(ProjectSidebar)
        assert sidebar.folded, "below 130 columns"
        await pilot.press("b")
        assert not sidebar.folded
        await pilot.press("s")
        await pilot.pause()
        assert "Sorted by score ▼ among" in str(screen.status_line.render())
    layout = json.loads((tmp_path / "layout.json").read_text())
    assert layout == {"sidebar_folded": False}
    again = make_app(tmp_path, connection_to(demo_server))
    async with again.run_test(size=(90, 30)) as pilot:
        screen = await settled(pilot)
        assert not screen.query_one(ProjectSidebar).folded, "the choice wins over the width"

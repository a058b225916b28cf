"""Pilot tests of the virtualised analyses table: keys, mouse, paging signals, literal text."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from rich.cells import cell_len
from tests.tui.conftest import wait_until
from textual import events, on
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot

from screen_analysis.api.models import Analysis, AnalysisItem, InvalidAnalysis, parse_status
from screen_analysis.tui.themes import variable_defaults
from screen_analysis.tui.widgets.table import AnalysesTable, flash, layout_columns
from screen_analysis.tui.widgets.table.paint import TablePainter
from screen_analysis.words import fit_cell

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
STATUSES = ("pending", "processing", "completed", "failed")


def analysis(i: int, **fields: Any) -> Analysis:
    """A plain synthetic analysis, newest first like the server's order."""
    values: dict[str, Any] = {
        "id": f"ana_{i:06d}",
        "project_id": "proj_alpha",
        "status": STATUSES[i % 4],
        "label": f"Screen {i}",
        "score": i % 101 if i % 4 == 2 else None,
        "created_at": NOW - timedelta(minutes=i),
    }
    values.update(fields)
    values["status"] = parse_status(values["status"])  # as parsing a page would
    return Analysis(**values)


def page(start: int, count: int) -> list[AnalysisItem]:
    return [analysis(i) for i in range(start, start + count)]


class TableApp(App[None]):
    """A bare app holding one table and recording the messages it posts."""

    def __init__(self, lookahead: int = 60, *, can_grow: bool = False) -> None:
        super().__init__()
        self.lookahead = lookahead
        self.can_grow = can_grow
        self.messages: list[Message] = []

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The app's colour variables ($status-*), which the table's styles use."""
        return variable_defaults(self.current_theme)

    def compose(self) -> ComposeResult:
        table = AnalysesTable(clock=lambda: NOW, lookahead=self.lookahead)
        table.can_grow = self.can_grow
        yield table

    @on(AnalysesTable.Highlighted)
    @on(AnalysesTable.Selected)
    @on(AnalysesTable.Wanted)
    def record(self, message: Message) -> None:
        self.messages.append(message)

    def of(self, kind: type[Message]) -> list[Any]:
        return [m for m in self.messages if isinstance(m, kind)]

    @property
    def table(self) -> AnalysesTable:
        return self.query_one(AnalysesTable)


def lines(table: AnalysesTable) -> Iterator[str]:
    for y in range(table.scrollable_content_region.height):
        yield table.render_line(y).text


async def started(pilot: Pilot[None], items: list[AnalysisItem], **kwargs: Any) -> AnalysesTable:
    app = pilot.app
    assert isinstance(app, TableApp)
    app.table.set_items(items, **kwargs)
    await pilot.pause()
    return app.table


async def test_keyboard_navigation_moves_the_cursor_and_keeps_it_visible() -> None:
    app = TableApp(lookahead=5)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 500))
        assert table.has_focus
        visible = table.scrollable_content_region.height - 1
        await pilot.press("down", "j", "j")
        assert table.cursor_row == 3
        await pilot.press("up", "k")
        assert table.cursor_row == 1
        await pilot.press("pagedown")
        assert table.cursor_row == 1 + visible
        assert table.scroll_y <= table.cursor_row < table.scroll_y + visible
        await pilot.press("pageup")
        assert table.cursor_row == 1
        await pilot.press("end")
        assert table.cursor_row == 499
        assert table.scroll_y == table.max_scroll_y
        assert "Screen 499" in list(lines(table))[-1]
        await pilot.press("down")
        assert table.cursor_row == 499
        await pilot.press("home")
        assert table.cursor_row == 0 and table.scroll_y == 0
        await pilot.press("up")
        assert table.cursor_row == 0
        await pilot.pause()
        highlighted = app.of(AnalysesTable.Highlighted)
        assert [m.index for m in highlighted] == [0, 1, 2, 3, 2, 1, 1 + visible, 1, 499, 0]
        assert highlighted[-1].item.id == "ana_000000"
        assert highlighted[-1].control is table


async def test_header_stays_at_the_top_while_scrolled() -> None:
    async with TableApp().run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 300))
        await pilot.press("pagedown", "pagedown")
        rendered = list(lines(table))
        assert rendered[0].split() == ["Status", "Score", "Label", "Created"]
        assert f"Screen {int(table.scroll_y)} " in rendered[1]


async def test_enter_and_click_select() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 50))
        await pilot.press("enter")
        await pilot.pause()
        (selected,) = app.of(AnalysesTable.Selected)
        assert selected.index == 0 and selected.item.id == "ana_000000"
        assert selected.control is table
        # Line 4 of the widget is row 3 (the header is line 0).
        await pilot.click(AnalysesTable, offset=(20, 4))
        assert table.cursor_row == 3
        assert len(app.of(AnalysesTable.Selected)) == 1
        await pilot.click(AnalysesTable, offset=(20, 4))
        assert [m.index for m in app.of(AnalysesTable.Selected)] == [0, 3]
        await pilot.click(AnalysesTable, offset=(40, 0))  # the header sorts, selects nothing
        assert table.row_order.column == "label"
        assert len(app.of(AnalysesTable.Selected)) == 2
        assert table.highlighted_item is not None and table.highlighted_item.id == "ana_000003"


def wanted(app: TableApp) -> list[int]:
    return [m.rows for m in app.of(AnalysesTable.Wanted)]


async def loaded(pilot: Pilot[None], items: list[AnalysisItem]) -> AnalysesTable:
    """The table showing `items`, and what it posted until then forgotten."""
    table = await started(pilot, items)
    assert isinstance(pilot.app, TableApp)
    pilot.app.messages.clear()
    return table


async def test_wanted_only_while_more_rows_exist_and_the_reader_nears_the_end() -> None:
    app = TableApp(lookahead=10, can_grow=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await loaded(pilot, page(0, 100))
        assert wanted(app) == []
        await pilot.press("pagedown", "pagedown")  # bottom row 68: 78 rows wanted of 100
        assert wanted(app) == []
        await pilot.press("pagedown")  # bottom row 91: 102 rows wanted
        await pilot.pause()
        assert wanted(app) and wanted(app)[-1] == table.rows_wanted > 100
        assert app.of(AnalysesTable.Wanted)[0].control is table
        table.can_grow = False  # the end of the listing: nothing more is wanted
        before = len(wanted(app))
        await pilot.press("end", "up", "down")
        await pilot.pause()
        assert len(wanted(app)) == before


async def test_page_down_past_the_loaded_rows_goes_where_asked() -> None:
    app = TableApp(lookahead=10, can_grow=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 100))
        visible = table.scrollable_content_region.height - 1
        for _ in range(10):
            await pilot.press("pagedown")
        await pilot.pause()
        assert table.cursor_row == 10 * visible  # past row 99: rows being loaded
        assert table.highlighted_item is None
        assert table.row_count == table.cursor_row + 1
        assert any("loading…" in text for text in lines(table))
        assert wanted(app)[-1] == table.cursor_row + 10 + 1  # up to the cursor and a look-ahead
        table.append_items(page(100, 200))  # the rows arrive: the cursor is on one now
        await pilot.pause()
        item = table.highlighted_item
        assert item is not None and item.id == f"ana_{10 * visible:06d}"
        assert app.of(AnalysesTable.Highlighted)[-1].item is item
        assert table.row_count == 300
        await pilot.press("end")
        assert table.cursor_row == 299  # End: the last loaded row


async def test_placeholders_go_when_the_view_cannot_grow() -> None:
    app = TableApp(can_grow=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 30))
        await pilot.press("pagedown", "pagedown")
        assert table.cursor_row > 29 and table.highlighted_item is None
        table.can_grow = False  # a failure, or the end of the listing
        await pilot.pause()
        assert table.cursor_row == 29 and table.row_count == 30
        assert not any("loading…" in text for text in lines(table))
        await pilot.press("pagedown")
        assert table.cursor_row == 29  # no more than the loaded rows now


async def test_sorted_rows_never_grow() -> None:
    app = TableApp(can_grow=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await loaded(pilot, page(0, 30))
        await pilot.press("s")
        await pilot.press("pagedown", "pagedown", "pagedown")
        assert table.cursor_row == 29 and table.row_count == 30
        assert wanted(app) == []  # the rows shown last are not the end of the listing


async def wheel_down(pilot: Pilot[Any], table: AnalysesTable, *, times: int) -> None:
    """The mouse wheel turned down `times` over the table (Pilot has no public wheel)."""
    for _ in range(times):
        table.post_message(events.MouseScrollDown(table, 10, 5, 0, 1, 0, False, False, False))
        await pilot.pause()


async def test_wanted_by_mouse_wheel_without_moving_the_cursor() -> None:
    app = TableApp(lookahead=10, can_grow=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await loaded(pilot, page(0, 60))
        await wheel_down(pilot, table, times=5)
        assert 0 < table.scroll_y < 20
        assert wanted(app) == []
        await wheel_down(pilot, table, times=20)
        assert table.scroll_y == table.max_scroll_y
        assert table.cursor_row == 0
        assert wanted(app) and wanted(app)[-1] > 60


async def test_wanted_when_a_short_first_page_fills_the_screen() -> None:
    app = TableApp(lookahead=60, can_grow=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, page(0, 20))
        assert set(wanted(app)) == {app.table.rows_wanted}


async def test_arrivals_above_keep_the_analysis_on_its_line() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(10, 100))
        await pilot.press("down", "down", "down")
        line = table.cursor_row - int(table.scroll_y)
        picked = table.highlighted_item
        announced = len(app.of(AnalysesTable.Highlighted))
        assert table.prepend_items(page(0, 10)) == 10  # ten new analyses on top
        await pilot.pause()
        assert table.highlighted_item is picked
        assert table.cursor_row - int(table.scroll_y) == line  # the view did not move
        assert table.unseen_above == 10
        assert len(app.of(AnalysesTable.Highlighted)) == announced  # nothing to announce
        assert table.prepend_items(page(0, 10)) == 0  # already loaded
        await pilot.press("home")
        assert table.unseen_above == 0 and table.cursor_row == 0
        assert table.highlighted_item is not None
        assert table.highlighted_item.id == "ana_000000"


async def test_arrivals_at_the_top_row_do_not_take_the_cursor() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(5, 50))
        picked = table.highlighted_item
        assert table.cursor_row == 0 and picked is not None
        table.prepend_items(page(0, 5))
        await pilot.pause()
        assert table.highlighted_item is picked and table.cursor_row == 5
        assert int(table.scroll_y) == 5 and table.unseen_above == 5
        table.scroll_y = 2  # scrolled up to see three of them
        await pilot.pause()
        assert table.unseen_above == 2


async def test_append_keeps_cursor_and_scroll() -> None:
    app = TableApp(lookahead=5)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 100))
        await pilot.press("pagedown", "down", "down")
        cursor, scroll = table.cursor_row, table.scroll_y
        highlighted = len(app.of(AnalysesTable.Highlighted))
        table.append_items(page(100, 100))
        await pilot.pause()
        assert (table.cursor_row, table.scroll_y) == (cursor, scroll)
        assert len(table.items) == 200
        assert table.index_of("ana_000150") == 150
        assert len(app.of(AnalysesTable.Highlighted)) == highlighted
        table.append_items([])
        assert len(table.items) == 200


async def test_append_renders_only_new_visible_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    async with TableApp().run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 1000))
        rendered: list[int] = []
        original = TablePainter._render_row

        def counting(self: TablePainter, row: int, *args: Any) -> Any:
            rendered.append(row)
            return original(self, row, *args)

        monkeypatch.setattr(TablePainter, "_render_row", counting)
        table.append_items(page(1000, 100))
        await pilot.pause()
        table.refresh()
        await pilot.pause()
        assert rendered == []  # visible lines come from the cache; new rows are off-screen
        await pilot.press("down")
        assert sorted(rendered) == [0, 1]  # the rows whose cursor state changed


async def test_items_set_before_mount_are_shown() -> None:
    class EarlyApp(TableApp):
        def compose(self) -> ComposeResult:
            table = AnalysesTable(clock=lambda: NOW, empty_message="Loading…")
            table.set_items(page(0, 5), keep_id="ana_000003")
            yield table

    app = EarlyApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        assert table.cursor_row == 3
        assert "Screen 3" in table.render_line(4).text


async def test_set_items_keeps_the_cursor_on_keep_id() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 200))
        table.move_cursor(120)
        await pilot.pause()
        refreshed = [analysis(i, label=f"Refreshed {i}") for i in range(10, 210)]
        table.set_items(refreshed, keep_id="ana_000120")
        await pilot.pause()
        assert table.cursor_row == 110
        assert table.highlighted_item is not None
        assert table.highlighted_item.id == "ana_000120"
        assert table.scroll_y <= 110 < table.scroll_y + 23
        last = app.of(AnalysesTable.Highlighted)[-1]
        assert (last.index, last.item.label) == (110, "Refreshed 120")
        table.set_items(page(500, 50), keep_id="ana_000120")  # gone: the same row, clamped
        await pilot.pause()
        assert table.cursor_row == 49
        assert app.of(AnalysesTable.Highlighted)[-1].item.id == "ana_000549"
        table.set_items(page(600, 50))  # another view: the top
        await pilot.pause()
        assert (table.cursor_row, table.scroll_y) == (0, 0)
        assert app.of(AnalysesTable.Highlighted)[-1].item.id == "ana_000600"


async def test_update_items_flashes_changed_status(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flash, "FLASH_SECONDS", 0.2)
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 100))
        await pilot.press("down", "down")
        cursor, scroll = table.cursor_row, table.scroll_y
        before = table.render_line(5)
        pending = analysis(4)
        assert pending.status == "pending"
        changed = table.update_items(
            [
                analysis(4, status="completed", score=88),
                analysis(5, label="Renamed"),  # same status: replaced, no flash
                analysis(9999),  # not loaded: ignored
            ]
        )
        assert changed == ["ana_000004"]
        assert (table.cursor_row, table.scroll_y) == (cursor, scroll)
        flashing = table.render_line(5)
        assert "completed" in flashing.text and "88" in flashing.text
        changed_bg = table.get_component_rich_style("analyses-table--changed").bgcolor
        assert changed_bg is not None
        assert any(seg.style and seg.style.bgcolor == changed_bg for seg in flashing)
        assert not any(seg.style and seg.style.bgcolor == changed_bg for seg in before)
        assert "Renamed" in table.render_line(6).text
        await wait_until(pilot, lambda: not table.flashing)
        after = table.render_line(5)
        assert not any(seg.style and seg.style.bgcolor == changed_bg for seg in after)
        assert table.update_items([analysis(4, status="completed", score=88)]) == []


async def test_markup_and_control_characters_are_shown_literally() -> None:
    hostile = "[bold]x[/] [@click=app.quit]q [/ \x1b[31mred\x9bz"
    async with TableApp().run_test(size=(120, 24)) as pilot:
        table = await started(
            pilot,
            [analysis(0, label=hostile, id="ana_[i]1", project_id="proj_\x1b")],
        )
        text = table.render_line(1).text
        assert "[bold]x[/] [@click=app.quit]q [/ ␛[31mred\ufffdz" in text
        assert "ana_[i]1" in text and "proj_␛" in text
        assert "\x1b" not in text and "\x9b" not in text
        table.set_project_names({"proj_\x1b": "[red]Name[/red]\x07"})
        assert "[red]Name[/red]␇" in table.render_line(1).text
        await pilot.click(AnalysesTable, offset=(30, 1))
        await pilot.click(AnalysesTable, offset=(30, 1))
        assert pilot.app.is_running
        assert "[@click=app.quit]" in pilot.app.export_screenshot()


async def test_invalid_analysis_row() -> None:
    async with TableApp().run_test(size=(120, 24)) as pilot:
        table = await started(
            pilot,
            [
                analysis(0),
                InvalidAnalysis(id="ana_broken", reason="status: [not] a string"),
                InvalidAnalysis(reason="not an object"),
            ],
        )
        broken = table.render_line(2).text.split()
        assert broken[:3] == ["!", "invalid", "—"]
        assert "status: [not] a string" in table.render_line(2).text
        assert broken[-1] == "ana_broken"
        anonymous = table.render_line(3).text
        assert "not an object" in anonymous and anonymous.split()[-1] == "—"
        assert table.index_of("ana_broken") == 1


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (120, ["Status", "Score", "Label", "Project", "Created", "ID"]),
        (80, ["Status", "Score", "Label", "Created"]),
        (60, ["Status", "Score", "Label", "Age"]),
    ],
)
async def test_columns_give_way_at_narrow_widths(width: int, shown: list[str]) -> None:
    wide = "界面设计" * 20 + "🎨" * 10
    async with TableApp().run_test(size=(width, 24)) as pilot:
        table = await started(
            pilot, [analysis(0, label=wide), analysis(1, label="x" * 300), analysis(2)]
        )
        table.set_project_names({"proj_alpha": "Marketing site redesign 2025"})
        rendered = list(lines(table))
        assert rendered[0].split() == shown
        content = table.scrollable_content_region.width
        for text in rendered:
            assert cell_len(text) == content
        assert "…" in rendered[1] and "…" in rendered[2]
        assert "Screen 2" in rendered[3]
        assert ("Marketing" in rendered[3]) == ("Project" in shown)
        if "Age" in shown:
            assert " now " in rendered[1] and " 2m " in rendered[3]
            assert "● done" in rendered[3] or "◐ run" in rendered[2]
        else:
            assert "just now" in rendered[1] and "2m ago" in rendered[3]


def test_layout_is_computed_from_width_only() -> None:
    for width in range(1, 200):
        columns = layout_columns(width)
        assert [c.key for c in columns[:3]] == ["status", "score", "label"]
        if width >= 80:
            assert sum(c.width + 2 for c in columns) == width
    assert fit_cell("漢字漢字", 5) == "漢字…"
    assert fit_cell("漢字漢字", 4) == "漢… "  # a wide character is never split
    assert fit_cell("7", 5, right=True) == "    7"


async def test_empty_message_is_centred() -> None:
    async with TableApp().run_test(size=(80, 24)) as pilot:
        table = pilot.app.query_one(AnalysesTable)
        table.empty_message = "Loading…"
        await pilot.pause()
        rendered = list(lines(table))
        (line,) = [text for text in rendered if "Loading…" in text]
        assert line.index("Loading") > 30
        table.empty_message = "No analyses match"
        await pilot.pause()
        assert any("No analyses match" in text for text in lines(table))
        assert table.highlighted_item is None
        await pilot.press("down", "end", "enter")
        await pilot.pause()
        assert pilot.app.of(AnalysesTable.Selected) == []  # type: ignore[attr-defined]
        table.set_items(page(0, 3))
        assert not any("No analyses" in text for text in lines(table))


async def test_items_is_a_read_only_view() -> None:
    async with TableApp().run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 10))
        items = table.items
        assert len(items) == 10 and items[-1].id == "ana_000009"
        assert [i.id for i in items[:2]] == ["ana_000000", "ana_000001"]
        assert not hasattr(items, "append")
        table.append_items(page(10, 5))
        assert len(items) == 15

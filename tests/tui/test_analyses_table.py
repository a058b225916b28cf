"""Pilot tests of the virtualised analyses table: keys, mouse, paging signals, literal text."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from rich.cells import cell_len
from textual import events, on
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot

from screen_analysis.api.models import Analysis, AnalysisItem, InvalidAnalysis, parse_status
from screen_analysis.tui.themes import variable_defaults
from screen_analysis.tui.widgets import table_flash
from screen_analysis.tui.widgets.analyses_table import AnalysesTable, fit_cell, layout_columns
from screen_analysis.tui.widgets.scroll_speed import WINDOW_S, ScrollSpeed
from screen_analysis.tui.widgets.table_paint import TablePainter

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

    def __init__(self, threshold: int = 60, lookahead_s: float = 0.0) -> None:
        super().__init__()
        self.threshold = threshold
        self.lookahead_s = lookahead_s
        self.messages: list[Message] = []

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The app's colour variables ($status-*), which the table's styles use."""
        return variable_defaults(self.current_theme)

    def compose(self) -> ComposeResult:
        yield AnalysesTable(
            clock=lambda: NOW, near_end_threshold=self.threshold, lookahead_s=self.lookahead_s
        )

    @on(AnalysesTable.Highlighted)
    @on(AnalysesTable.Selected)
    @on(AnalysesTable.NearEnd)
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
    app = TableApp(threshold=5)
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


async def test_near_end_by_keyboard_once_per_loaded_count() -> None:
    app = TableApp(threshold=10)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 100))
        assert app.of(AnalysesTable.NearEnd) == []
        await pilot.press("pagedown", "pagedown")  # bottom row 68, 31 rows from the end
        assert app.of(AnalysesTable.NearEnd) == []
        await pilot.press("end", "up", "down", "pageup", "end")
        await pilot.pause()
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [100]
        assert app.of(AnalysesTable.NearEnd)[0].control is table
        table.append_items(page(100, 100))
        await pilot.pause()
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [100]
        await pilot.press("end")
        await pilot.pause()
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [100, 200]


async def test_moving_fast_looks_further_ahead() -> None:
    # PageDown held: the next page is asked for while the reader is still far from the end.
    now = [0.0]
    app = TableApp(threshold=10, lookahead_s=0.6)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 1000))
        table._near.speed = ScrollSpeed(clock=lambda: now[0])
        for row in (100, 200, 300):  # 1,000 rows a second: 600 rows ahead
            now[0] += 0.1
            table.move_cursor(row)
        await pilot.pause()
        assert app.of(AnalysesTable.NearEnd) == []
        now[0] += 0.1
        table.move_cursor(400)  # 599 rows from the end
        for _ in range(100):  # on a busy machine the message may take a few frames
            await pilot.pause(0.01)
            if app.of(AnalysesTable.NearEnd):
                break
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [1000]


def test_scroll_speed_counts_recent_downward_movement_only() -> None:
    now = [0.0]
    speed = ScrollSpeed(clock=lambda: now[0])
    assert speed.rows_per_second() == 0.0
    for row in (0, 50, 100):
        speed.mark(row)
        now[0] += 0.1
    assert speed.rows_per_second() == pytest.approx(500, rel=0.01)
    speed.mark(0)  # back up where it started: not hurrying towards the end
    assert speed.rows_per_second() == 0.0
    now[0] += WINDOW_S + 0.1
    assert speed.rows_per_second() == 0.0


async def test_near_end_by_mouse_wheel_without_moving_the_cursor() -> None:
    app = TableApp(threshold=10)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 60))
        wheel: list[type[events.MouseEvent]] = [events.MouseScrollDown]
        # Pilot has no public wheel helper; this is what its click helpers use.
        await pilot._post_mouse_events(wheel, AnalysesTable, (10, 5), times=5)
        assert 0 < table.scroll_y < 20
        assert app.of(AnalysesTable.NearEnd) == []
        await pilot._post_mouse_events(wheel, AnalysesTable, (10, 5), times=20)
        assert table.scroll_y == table.max_scroll_y
        assert table.cursor_row == 0
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [60]


async def test_near_end_by_scrollbar_position() -> None:
    app = TableApp(threshold=10)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await started(pilot, page(0, 200))
        table.scroll_y = 100
        await pilot.pause()
        assert app.of(AnalysesTable.NearEnd) == []
        table.scroll_y = 200 - 23 - 10  # bottom row 189 is 10 rows from row 199
        await pilot.pause()
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [200]
        assert table.cursor_row == 0


async def test_near_end_when_a_short_first_page_fills_the_screen() -> None:
    app = TableApp(threshold=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, page(0, 20))
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [20]
        app.table.set_items(page(0, 20))  # a new view asks again
        await pilot.pause()
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [20, 20]


async def test_append_keeps_cursor_and_scroll() -> None:
    app = TableApp(threshold=5)
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
        assert [m.loaded for m in app.of(AnalysesTable.NearEnd)] == [5]


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
        table.set_items(page(500, 50), keep_id="ana_000120")
        await pilot.pause()
        assert (table.cursor_row, table.scroll_y) == (0, 0)
        assert app.of(AnalysesTable.Highlighted)[-1].item.id == "ana_000500"


async def test_update_items_flashes_changed_status(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_flash, "FLASH_SECONDS", 0.2)
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
        await pilot.pause(0.4)
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

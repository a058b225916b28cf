"""The analyses table: a virtualised row-cursor table on Textual's Line API.

Only the visible lines are rendered, column widths come from the widget's width (never from
the data), and rendered lines are cached, so appending a page costs the same with a hundred
rows loaded or a hundred thousand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import ClassVar, TypeAlias

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, Spacing
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.widgets import table_messages as messages
from screen_analysis.tui.widgets.scroll_speed import ScrollSpeed
from screen_analysis.tui.widgets.table_layout import fit_cell, layout_columns
from screen_analysis.tui.widgets.table_order import SortOrder, clicked_sort, next_sort
from screen_analysis.tui.widgets.table_paint import TablePainter
from screen_analysis.tui.widgets.table_render import (
    RowCells,
    row_cells,
    status_of,
)
from screen_analysis.tui.widgets.table_rows import TableRows
from screen_analysis.tui.widgets.table_styles import TABLE_COMPONENT_CLASSES, TABLE_CSS

__all__ = ["AnalysesTable", "SortOrder", "fit_cell", "layout_columns"]

HEADER_HEIGHT = 1
FLASH_SECONDS = 1.5
CLOCK_TICK_SECONDS = 30.0  # relative times ("5m ago") are re-rendered this often


class AnalysesTable(ScrollView, can_focus=True):
    """A table of analyses with a row cursor, rendering only the lines on screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Select",
                tooltip="Select the highlighted analysis", id="select"),
        Binding("up,k", "cursor_up", "Cursor up", show=False, id="cursor-up"),
        Binding("down,j", "cursor_down", "Cursor down", show=False, id="cursor-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="page-up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="page-down"),
        Binding("home", "first_row", "First row", show=False, id="first-row"),
        Binding("end", "last_row", "Last loaded row", show=False, id="last-row"),
        Binding("s", "cycle_sort", "Sort", id="sort",
                tooltip="Sort the loaded rows (score, created, label, status)"),
    ]  # fmt: skip

    COMPONENT_CLASSES: ClassVar[set[str]] = TABLE_COMPONENT_CLASSES
    DEFAULT_CSS = TABLE_CSS

    cursor_row: reactive[int] = reactive(0, repaint=False, init=False)
    """Index of the highlighted row (0 when the table is empty)."""
    empty_message: reactive[str] = reactive("")
    """Shown, centred and muted, when there are no rows ("Loading…", "No analyses match")."""
    near_end_threshold: int = 60
    # When the reader moves fast (PageDown held), look this many seconds of their speed ahead,
    # so the next page lands before they reach the last row.
    lookahead_s: float = 0.6
    """Rows from the last loaded row at which `NearEnd` is posted."""

    Highlighted: TypeAlias = messages.Highlighted
    Selected: TypeAlias = messages.Selected
    SortChanged: TypeAlias = messages.SortChanged
    NearEnd: TypeAlias = messages.NearEnd

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = now_utc,
        near_end_threshold: int | None = None,
        lookahead_s: float | None = None,
        empty_message: str = "",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """Create an empty table; `clock` gives "now" for the relative created times."""
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._clock = clock
        if near_end_threshold is not None:
            self.near_end_threshold = near_end_threshold
        if lookahead_s is not None:
            self.lookahead_s = lookahead_s
        self._rows = TableRows()
        self._project_names: dict[str, str] = {}
        self._painter = TablePainter(
            self._rows, self.get_component_rich_style, lambda item: self._cells(item)
        )
        self._hover_row = -1
        self._flashing: dict[int, Timer] = {}  # by position in the server's order
        self._near_end_posted: int | None = None
        self._speed = ScrollSpeed()
        self._now = clock()
        self.set_reactive(AnalysesTable.empty_message, empty_message)

    # Data

    @property
    def items(self) -> Sequence[AnalysisItem]:
        """A read-only view of the loaded rows, in the order shown."""
        return self._rows.view

    @property
    def highlighted_item(self) -> AnalysisItem | None:
        """The item under the cursor, or None when the table is empty."""
        return self._rows.item(self.cursor_row) if self._rows else None

    def index_of(self, analysis_id: str) -> int | None:
        """The row of the analysis with `analysis_id` (its first, if sent twice), or None."""
        return self._rows.row_of_id(analysis_id)

    @property
    def row_order(self) -> SortOrder:
        """The order the rows are shown in (`column` None: the server's)."""
        return self._rows.order

    def sort_by(self, order: SortOrder) -> None:
        """Show the loaded rows in `order` (O(n log n)); the cursor stays on its analysis."""
        if order == self._rows.order:
            return
        keep = self.highlighted_item
        self._rows.sort(order)
        self._invalidate()
        self._follow(keep)
        self.refresh()
        self.post_message(self.SortChanged(self, order))
        self._check_near_end()

    def action_cycle_sort(self) -> None:
        """Sort by the next column of the cycle; after status, the server's order again."""
        self.sort_by(next_sort(self._rows.order))

    def _follow(self, item: AnalysisItem | None) -> None:
        """Put the cursor back on `item` after rows moved, without announcing a move."""
        position = None if item is None else self._rows.position_of(item)
        if position is not None:
            row = self._rows.row_of_position(position)
            if row != self.cursor_row:
                self.set_reactive(AnalysesTable.cursor_row, row)
                self._scroll_cursor_into_view()

    def set_items(self, items: Iterable[AnalysisItem], *, keep_id: str | None = None) -> None:
        """Replace all rows; the cursor stays on `keep_id`'s row when present, else row 0."""
        for timer in self._flashing.values():
            timer.stop()
        self._flashing.clear()
        self._rows.replace_all(items)
        self._invalidate()
        self._near_end_posted = None
        self._speed.reset()
        keep = self._rows.row_of_id(keep_id) if keep_id is not None else None
        self.set_reactive(AnalysesTable.cursor_row, keep or 0)
        self._hover_row = -1
        self._update_virtual_size()
        if keep is None:
            self.scroll_to(y=0, animate=False, immediate=True)
        else:
            self._scroll_cursor_into_view()
        self.refresh()
        self._post_highlighted()
        self._check_near_end()

    def append_items(self, items: Iterable[AnalysisItem]) -> None:
        """Add rows at the end in O(len(items)); cursor and scroll position are unchanged.

        When sorted, each row goes where it belongs (bisection) and the cursor stays on its
        analysis.
        """
        keep = self.highlighted_item if self._rows.sorted else None
        if self._rows.extend(items):
            if self._rows.sorted:
                self._invalidate()
                self._follow(keep)
            self._update_virtual_size()
            self.refresh()
            self._check_near_end()

    def prepend_items(self, items: Sequence[AnalysisItem]) -> int:
        """Insert rows above the first one (ids already loaded are skipped); new rows flash.

        The cursor stays on its analysis, except on the first row of a view scrolled to the
        top in the server's order: there it stays on the first row, following the newest
        (like `tail -f`). Returns how many rows were added.
        """
        follow_newest = self.cursor_row == 0 and int(self.scroll_y) == 0
        follow_newest = follow_newest and not self._rows.sorted
        keep = None if follow_newest else self.highlighted_item
        new = self._rows.prepend(items)
        if not new:
            return 0
        for timer in self._flashing.values():
            timer.stop()
        self._flashing.clear()
        self._invalidate()
        self._update_virtual_size()
        self._hover_row = -1
        self._follow(keep)
        for position in range(len(new)):
            self._flash(position)
        self.refresh()
        if keep is None:
            self._post_highlighted()
            self._check_near_end()
        return len(new)

    @property
    def visible_rows(self) -> range:
        """The indices of the loaded rows inside the viewport."""
        first = int(self.scroll_y)
        return range(first, min(len(self._rows), first + self._visible_rows))

    def update_items(self, items: Iterable[AnalysisItem]) -> list[str]:
        """Replace loaded rows with the same ids in place; ids not loaded are ignored.

        Rows whose status changed flash briefly; when sorted, a row whose value changed
        moves and the cursor stays on its analysis. Returns the ids whose status changed.
        """
        changed: list[str] = []
        keep = self.highlighted_item
        touched = False
        for item in items:
            if (update := self._rows.update(item)) is None:
                continue
            position, old = update
            touched = True
            if status_of(old) != status_of(item) and item.id is not None:
                changed.append(item.id)
                self._flash(position)
        if touched:
            self._invalidate()
            if self._rows.sorted:
                self._follow(keep)
            self.refresh()
        return changed

    def set_project_names(self, names: Mapping[str, str]) -> None:
        """Show these project names (merged into those known) instead of project ids."""
        self._project_names.update(names)
        self._invalidate()
        self.refresh()

    def move_cursor(self, row: int) -> None:
        """Move the cursor to `row` (clamped to the loaded rows) and keep it visible."""
        self.cursor_row = row

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(0, len(self._rows) + HEADER_HEIGHT)

    def _invalidate(self) -> None:
        self._painter.invalidate()

    # Cursor, scrolling and paging

    def validate_cursor_row(self, row: int) -> int:
        """Clamp the cursor to the loaded rows."""
        return max(0, min(row, len(self._rows) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        """Repaint the two rows, keep the cursor visible and tell the screen."""
        self._refresh_row(old)
        self._refresh_row(new)
        self._scroll_cursor_into_view()
        self._post_highlighted()
        self._speed.mark(max(new, self._bottom_row))
        self._check_near_end()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolling (wheel, scrollbar, keys) may bring the end of the rows into view."""
        super().watch_scroll_y(old_value, new_value)
        self._speed.mark(max(self.cursor_row, self._bottom_row))
        self._check_near_end()

    @property
    def _bottom_row(self) -> int:
        return int(self.scroll_y) + self._visible_rows - 1

    def watch_empty_message(self) -> None:
        """Repaint the empty message."""
        if not self._rows:
            self.refresh()

    @property
    def _visible_rows(self) -> int:
        return max(0, self.scrollable_content_region.height - HEADER_HEIGHT)

    def _scroll_cursor_into_view(self) -> None:
        if not self._rows or self._visible_rows == 0:
            return
        width = self.scrollable_content_region.width
        region = Region(0, self.cursor_row + HEADER_HEIGHT, width, 1)
        self.scroll_to_region(
            region,
            spacing=Spacing(HEADER_HEIGHT, 0, 0, 0),
            animate=False,
            force=True,
            immediate=True,
            x_axis=False,
        )

    @property
    def near_end(self) -> bool:
        """Whether the cursor or the viewport is within the threshold of the last row.

        Never while sorted: the rows shown last are not the end of the listing.
        """
        last = len(self._rows) - 1
        if last < 0 or self._rows.sorted:
            return False
        bottom = self._bottom_row
        ahead = self._speed.rows_per_second() * self.lookahead_s
        near = max(self.near_end_threshold, int(ahead))
        return last - self.cursor_row <= near or last - bottom <= near

    def _check_near_end(self) -> None:
        loaded = len(self._rows)
        if loaded == 0 or loaded == self._near_end_posted:
            return
        if self.near_end:
            self._near_end_posted = loaded
            self.post_message(self.NearEnd(self, loaded))

    def _post_highlighted(self) -> None:
        if self._rows:
            row = self.cursor_row
            self.post_message(self.Highlighted(self, self._rows.item(row), row))

    def _hide_hover(self) -> None:
        if self._hover_row >= 0:
            self._refresh_row(self._hover_row)
            self._hover_row = -1

    def action_cursor_up(self) -> None:
        """Move the cursor up one row."""
        self._hide_hover()
        self.cursor_row -= 1

    def action_cursor_down(self) -> None:
        """Move the cursor down one row."""
        self._hide_hover()
        self.cursor_row += 1

    def action_page_up(self) -> None:
        """Move the cursor and the view up one page."""
        self._hide_hover()
        page = max(1, self._visible_rows)
        self.scroll_to(y=self.scroll_y - page, animate=False, immediate=True)
        self.cursor_row -= page

    def action_page_down(self) -> None:
        """Move the cursor and the view down one page."""
        self._hide_hover()
        page = max(1, self._visible_rows)
        self.scroll_to(y=self.scroll_y + page, animate=False, immediate=True)
        self.cursor_row += page

    def action_first_row(self) -> None:
        """Move the cursor to the first row."""
        self._hide_hover()
        self.cursor_row = 0

    def action_last_row(self) -> None:
        """Move the cursor to the last loaded row (which asks the screen for more)."""
        self._hide_hover()
        self.cursor_row = len(self._rows) - 1

    def action_select_cursor(self) -> None:
        """Post `Selected` for the highlighted row."""
        if self._rows:
            row = self.cursor_row
            self.post_message(self.Selected(self, self._rows.item(row), row))

    # Mouse

    def _row_at(self, event: events.MouseEvent) -> int | None:
        row = event.style.meta.get("row") if event.style else None
        return row if isinstance(row, int) and 0 <= row < len(self._rows) else None

    async def _on_click(self, event: events.Click) -> None:
        column = event.style.meta.get("column") if event.style else None
        if isinstance(column, str):
            event.stop()
            self.sort_by(clicked_sort(self._rows.order, column))
            return
        row = self._row_at(event)
        if row is None:
            return
        event.stop()
        if row == self.cursor_row:
            self.action_select_cursor()
        else:
            self.cursor_row = row

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        row = self._row_at(event)
        new = -1 if row is None else row
        if new != self._hover_row:
            self._refresh_row(self._hover_row)
            self._hover_row = new
            self._refresh_row(new)

    def _on_leave(self, event: events.Leave) -> None:
        self._hide_hover()

    # Timers, focus, size

    def _on_mount(self, event: events.Mount) -> None:
        self.set_interval(CLOCK_TICK_SECONDS, self._tick)

    def _tick(self) -> None:
        self._invalidate()
        self.refresh()

    def _on_resize(self, event: events.Resize) -> None:
        self._scroll_cursor_into_view()
        self._check_near_end()

    def _on_focus(self, event: events.Focus) -> None:
        self._refresh_row(self.cursor_row)

    def _on_blur(self, event: events.Blur) -> None:
        self._refresh_row(self.cursor_row)

    def notify_style_update(self) -> None:
        """Styles (theme, focus) changed: rendered lines are stale."""
        super().notify_style_update()
        self._invalidate()
        self.refresh()

    def _flash(self, index: int) -> None:
        if (timer := self._flashing.pop(index, None)) is not None:
            timer.stop()
        self._flashing[index] = self.set_timer(FLASH_SECONDS, partial(self._end_flash, index))

    def _end_flash(self, index: int) -> None:
        if self._flashing.pop(index, None) is not None and index < len(self._rows):
            self._refresh_row(self._rows.row_of_position(index))

    def _refresh_row(self, row: int) -> None:
        if row >= 0:
            self.refresh_line(row + HEADER_HEIGHT)

    # Rendering

    def render_lines(self, crop: Region) -> list[Strip]:
        """Read the clock and the base style once per paint."""
        self._now = self._clock()
        self._painter.base = self.rich_style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        """Render line `y` of the viewport: the header, a row, the empty message or blank."""
        width = self.scrollable_content_region.width
        painter = self._painter
        if y < HEADER_HEIGHT:
            return painter.header(width)
        if not self._rows:
            if y == max(HEADER_HEIGHT, self._visible_rows // 2) and self.empty_message:
                return painter.message(width, self.empty_message)
            return painter.blank(width)
        row = y - HEADER_HEIGHT + int(self.scroll_y)
        if row >= len(self._rows):
            return painter.blank(width)
        return painter.row(
            row,
            width,
            cursor=row == self.cursor_row,
            hover=row == self._hover_row,
            flash=self._rows.position(row) in self._flashing,
            focus=self.has_focus,
        )

    def _cells(self, item: AnalysisItem) -> RowCells:
        return row_cells(item, self._project_names, self._now)

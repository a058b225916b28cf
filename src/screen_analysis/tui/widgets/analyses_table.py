"""The analyses table: a virtualised row-cursor table on Textual's Line API.

Only the visible lines are rendered, column widths come from the widget's width (never from
the data), and rendered lines are cached, so appending a page costs the same with a hundred
rows loaded or a hundred thousand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import ClassVar, TypeAlias

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.strip import Strip

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.widgets import table_messages as messages
from screen_analysis.tui.widgets.scroll_speed import NearEndWatch
from screen_analysis.tui.widgets.table_cursor import RowCursorView
from screen_analysis.tui.widgets.table_flash import RowFlashes
from screen_analysis.tui.widgets.table_layout import fit_cell, layout_columns
from screen_analysis.tui.widgets.table_order import SortOrder, clicked_sort, next_sort
from screen_analysis.tui.widgets.table_paint import HEADER_HEIGHT, TablePainter
from screen_analysis.tui.widgets.table_render import (
    RowCells,
    row_cells,
    status_of,
)
from screen_analysis.tui.widgets.table_rows import TableRows
from screen_analysis.tui.widgets.table_styles import TABLE_COMPONENT_CLASSES, TABLE_CSS

__all__ = ["AnalysesTable", "SortOrder", "fit_cell", "layout_columns"]

CLOCK_TICK_SECONDS = 30.0  # relative times ("5m ago") are re-rendered this often


class AnalysesTable(RowCursorView):
    """A table of analyses with a row cursor, rendering only the lines on screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Select",
                tooltip="Select the highlighted analysis", id="select"),
        Binding("up,k", "move('up')", "Cursor up", show=False, id="cursor-up"),
        Binding("down,j", "move('down')", "Cursor down", show=False, id="cursor-down"),
        Binding("pageup", "move('page-up')", "Page up", show=False, id="page-up"),
        Binding("pagedown", "move('page-down')", "Page down", show=False, id="page-down"),
        Binding("home", "move('first')", "First row", show=False, id="first-row"),
        Binding("end", "move('last')", "Last loaded row", show=False, id="last-row"),
        Binding("s", "cycle_sort", "Sort", id="sort",
                tooltip="Sort the loaded rows (score, created, label, status)"),
    ]  # fmt: skip

    COMPONENT_CLASSES: ClassVar[set[str]] = TABLE_COMPONENT_CLASSES
    DEFAULT_CSS = TABLE_CSS

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
        super().__init__(TableRows(), name=name, id=id, classes=classes, disabled=disabled)
        self._clock = clock
        if near_end_threshold is not None:
            self.near_end_threshold = near_end_threshold
        if lookahead_s is not None:
            self.lookahead_s = lookahead_s
        self._project_names: dict[str, str] = {}
        self._painter = TablePainter(
            self._rows, self.get_component_rich_style, lambda item: self._cells(item)
        )
        self._flashing = RowFlashes(self.set_timer, self._end_flash)
        self._near = NearEndWatch()
        self._now = clock()
        self.set_reactive(AnalysesTable.empty_message, empty_message)

    # Data

    @property
    def items(self) -> Sequence[AnalysisItem]:
        """A read-only view of the loaded rows, in the order shown."""
        return self._rows.view

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

    def set_items(self, items: Iterable[AnalysisItem], *, keep_id: str | None = None) -> None:
        """Replace all rows; the cursor stays on `keep_id`'s row when present, else row 0."""
        self._flashing.clear()
        self._rows.replace_all(items)
        self._invalidate()
        self._near.reset()
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
        self._flashing.clear()
        self._invalidate()
        self._update_virtual_size()
        self._hover_row = -1
        self._follow(keep)
        for position in range(len(new)):
            self._flashing.flash(position)
        self.refresh()
        if keep is None:
            self._post_highlighted()
            self._check_near_end()
        return len(new)

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
                self._flashing.flash(position)
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

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(0, len(self._rows) + HEADER_HEIGHT)

    def _invalidate(self) -> None:
        self._painter.invalidate()

    # Cursor, scrolling and paging

    def watch_cursor_row(self, old: int, new: int) -> None:
        """Repaint the two rows, keep the cursor visible, tell the screen, check the end."""
        super().watch_cursor_row(old, new)
        self._near.speed.mark(max(new, self._bottom_row))
        self._check_near_end()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolling (wheel, scrollbar, keys) may bring the end of the rows into view."""
        super().watch_scroll_y(old_value, new_value)
        self._near.speed.mark(max(self.cursor_row, self._bottom_row))
        self._check_near_end()

    def watch_empty_message(self) -> None:
        """Repaint the empty message."""
        if not self._rows:
            self.refresh()

    @property
    def near_end(self) -> bool:
        """Whether the cursor or the viewport is within the threshold of the last row.

        Never while sorted: the rows shown last are not the end of the listing.
        """
        return not self._rows.sorted and self._near.is_near(
            last=len(self._rows) - 1,
            cursor=self.cursor_row,
            bottom=self._bottom_row,
            threshold=self.near_end_threshold,
            lookahead_s=self.lookahead_s,
        )

    def _check_near_end(self) -> None:
        if self._near.should_say(len(self._rows), self.near_end):
            self.post_message(self.NearEnd(self, len(self._rows)))

    # Mouse

    async def _on_click(self, event: events.Click) -> None:
        column = event.style.meta.get("column") if event.style else None
        if isinstance(column, str):  # the header sorts; rows are the base class's (after this)
            event.stop()
            event.prevent_default()
            self.sort_by(clicked_sort(self._rows.order, column))

    # Timers, focus, size

    def _on_mount(self, event: events.Mount) -> None:
        self.set_interval(CLOCK_TICK_SECONDS, self._tick)

    def _tick(self) -> None:
        self._invalidate()
        self.refresh()

    def _on_resize(self, event: events.Resize) -> None:
        self._scroll_cursor_into_view()
        self._check_near_end()

    def notify_style_update(self) -> None:
        """Styles (theme, focus) changed: rendered lines are stale."""
        super().notify_style_update()
        self._invalidate()
        self.refresh()

    def _end_flash(self, position: int) -> None:
        if position < len(self._rows):
            self._refresh_row(self._rows.row_of_position(position))

    # Rendering

    def render_lines(self, crop: Region) -> list[Strip]:
        """Read the clock and the base style once per paint."""
        self._now = self._clock()
        self._painter.base = self.rich_style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        """Render line `y` of the viewport: the header, a row, the empty message or blank."""
        return self._painter.line(
            y,
            self.scrollable_content_region.width,
            top=int(self.scroll_y),
            visible=self._visible_rows,
            message=self.empty_message,
            cursor=self.cursor_row,
            hover=self._hover_row,
            flashing=self._flashing,
            focus=self.has_focus,
        )

    def _cells(self, item: AnalysisItem) -> RowCells:
        return row_cells(item, self._project_names, self._now)

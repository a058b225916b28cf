"""The row cursor of the analyses table: which row is highlighted, keeping it in view,
moving it with the keys and the mouse, the row under the pointer, and the rows asked for
beyond the loaded ones.

`RowCursorView` knows the rows only through `TableRows` (positions and items). The cursor may
go past the last loaded row when the owner says more rows exist (`can_grow`): the rows up to
it are drawn as placeholders and `Wanted` tells the owner how many rows the reader needs.
The analyses table builds on it with its data, sort and painting.
"""

from __future__ import annotations

from textual import events
from textual.geometry import Region, Size, Spacing
from textual.reactive import reactive
from textual.scroll_view import ScrollView

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.widgets.table.messages import Highlighted, Selected, Wanted
from screen_analysis.tui.widgets.table.paint import HEADER_HEIGHT
from screen_analysis.tui.widgets.table.rows import TableRows

LOOKAHEAD_ROWS = 60  # rows beyond the reader's position that should already be loaded


class RowCursorView(ScrollView, can_focus=True):
    """A Line-API view of `TableRows` with a row cursor under a one-line header."""

    cursor_row: reactive[int] = reactive(0, repaint=False, init=False)
    """Index of the highlighted row (0 when the table is empty); it may be a placeholder
    row past the loaded ones while those are being loaded."""
    lookahead: int = LOOKAHEAD_ROWS
    """Rows past the cursor or the bottom of the view that the reader needs loaded."""

    def __init__(
        self,
        rows: TableRows,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """Show `rows` (owned by the subclass, which fills them)."""
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._rows = rows
        self._hover_row = -1
        self._placeholders = 0
        self._can_grow = False
        self._total: int | None = None
        self._announced: AnalysisItem | None = None

    # Rows and placeholders

    @property
    def row_count(self) -> int:
        """The rows drawn: the loaded ones and the placeholders after them."""
        return len(self._rows) + self._placeholders

    @property
    def placeholder_rows(self) -> int:
        """Rows drawn after the loaded ones while they are being loaded."""
        return self._placeholders

    @property
    def can_grow(self) -> bool:
        """Whether more rows exist past the loaded ones (the owner pages them in)."""
        return self._can_grow

    @can_grow.setter
    def can_grow(self, value: bool) -> None:
        self._can_grow = value
        if not value:
            self.drop_placeholders()

    @property
    def total(self) -> int | None:
        """How many rows the listing holds, as the server last said (None: unknown); the
        cursor never goes past it."""
        return self._total

    @total.setter
    def total(self, value: int | None) -> None:
        self._total = value

    @property
    def growing(self) -> bool:
        """Whether moving past the loaded rows asks for more (more exist, server order)."""
        return self._can_grow and not self._rows.sorted

    def drop_placeholders(self) -> None:
        """Stop showing rows that are not loaded; the cursor comes back to the last loaded."""
        if self._placeholders:
            self._placeholders = 0
            self._rows_resized()
            if self.cursor_row >= len(self._rows):
                self.cursor_row = max(0, len(self._rows) - 1)
            self.refresh()

    def _fit_placeholders(self) -> None:
        """Placeholders only up to the cursor: loaded rows took their place, or the cursor
        went back up."""
        if self._placeholders:
            loaded = len(self._rows)
            fitted = max(0, self.cursor_row + 1 - loaded) if self.growing and loaded else 0
            if fitted != self._placeholders:
                self._placeholders = fitted
                self._rows_resized()

    def _rows_resized(self) -> None:
        self.virtual_size = Size(0, self.row_count + HEADER_HEIGHT)

    @property
    def rows_wanted(self) -> int:
        """How many rows the reader needs loaded: up to the cursor or the bottom of the
        view (the further), and the look-ahead."""
        return max(self.cursor_row, self._bottom_row) + self.lookahead + 1

    def _check_wanted(self) -> None:
        if self.growing and self.rows_wanted > len(self._rows):
            self.post_message(Wanted(self, self.rows_wanted))

    # The cursor

    def watch_cursor_row(self, old: int, new: int) -> None:
        """Repaint the two rows, keep the cursor visible and tell the owner."""
        self._fit_placeholders()
        self._refresh_row(old)
        self._refresh_row(new)
        self._scroll_cursor_into_view()
        self._announce()
        self._check_wanted()

    def validate_cursor_row(self, row: int) -> int:
        """Clamp the cursor to the rows drawn."""
        return max(0, min(row, self.row_count - 1))

    @property
    def highlighted_item(self) -> AnalysisItem | None:
        """The item under the cursor; None when the table is empty or the cursor is on a row
        still being loaded."""
        row = self.cursor_row
        return self._rows.item(row) if row < len(self._rows) else None

    @property
    def highlighted_id(self) -> str | None:
        """The id of the analysis under the cursor (the selection), if any."""
        item = self.highlighted_item
        return None if item is None else item.id

    def _announce(self) -> None:
        """Post `Highlighted` when the item under the cursor is another object than the last
        announced (another analysis, or a newer copy of the same one)."""
        item = self.highlighted_item
        if item is self._announced:
            return
        self._announced = item
        if item is not None:
            self.post_message(Highlighted(self, item, self.cursor_row))

    def _follow(self, item: AnalysisItem | None) -> None:
        """Put the cursor back on `item` after rows moved, keeping its line on screen."""
        position = None if item is None else self._rows.position_of(item)
        if position is None:
            return
        row = self._rows.row_of_position(position)
        if row != self.cursor_row:
            line = self.cursor_row - int(self.scroll_y)
            self.set_reactive(RowCursorView.cursor_row, row)
            self.scroll_to(y=max(0, row - line), animate=False, immediate=True)
            self._scroll_cursor_into_view()

    def move_cursor(self, row: int) -> None:
        """Move the cursor to `row` (clamped to the rows drawn) and keep it visible."""
        self.cursor_row = row

    @property
    def visible_rows(self) -> range:
        """The indices of the loaded rows inside the viewport."""
        first = int(self.scroll_y)
        return range(first, min(len(self._rows), first + self._visible_rows))

    @property
    def _bottom_row(self) -> int:
        return int(self.scroll_y) + self._visible_rows - 1

    @property
    def _visible_rows(self) -> int:
        return max(0, self.scrollable_content_region.height - HEADER_HEIGHT)

    def _scroll_cursor_into_view(self) -> None:
        if not self.row_count or self._visible_rows == 0:
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

    def action_move(self, where: str) -> None:
        """Move the cursor "up", "down", a "page-up" or "page-down" (the view follows; past
        the loaded rows when more exist), to the "first" row or the "last" loaded one."""
        self._hide_hover()
        if where in ("page-up", "page-down"):
            step = max(1, self._visible_rows) * (-1 if where == "page-up" else 1)
            self._reach(self.cursor_row + step)
            self.scroll_to(y=self.scroll_y + step, animate=False, immediate=True)
            self.cursor_row += step
            return
        if where == "down":
            self._reach(self.cursor_row + 1)
        rows = {"up": self.cursor_row - 1, "down": self.cursor_row + 1, "first": 0}
        self.cursor_row = rows.get(where, len(self._rows) - 1)

    def _reach(self, row: int) -> None:
        """Draw placeholders up to `row` when it is past the loaded rows and more exist."""
        if self.growing and self._rows and row >= len(self._rows):
            if self._total is not None and self._total > len(self._rows):
                row = min(row, self._total - 1)
            self._placeholders = max(self._placeholders, row + 1 - len(self._rows))
            self._rows_resized()

    def action_select_cursor(self) -> None:
        """Post `Selected` for the highlighted row."""
        item = self.highlighted_item
        if item is not None:
            self.post_message(Selected(self, item, self.cursor_row))

    # Scrolling

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolling (wheel, scrollbar, keys) may bring the end of the rows into view."""
        super().watch_scroll_y(old_value, new_value)
        self._check_wanted()

    # Mouse and focus

    async def _on_click(self, event: events.Click) -> None:
        row = self._row_at(event)
        if row is None:
            return
        event.stop()
        if row == self.cursor_row:
            self.action_select_cursor()
        else:
            self.cursor_row = row

    def _row_at(self, event: events.MouseEvent) -> int | None:
        row = event.style.meta.get("row") if event.style else None
        return row if isinstance(row, int) and 0 <= row < len(self._rows) else None

    def _hide_hover(self) -> None:
        if self._hover_row >= 0:
            self._refresh_row(self._hover_row)
            self._hover_row = -1

    def forget_hover(self) -> None:
        """The rows moved under the pointer: no row is hovered until it moves again."""
        self._hover_row = -1

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        row = self._row_at(event)
        new = -1 if row is None else row
        if new != self._hover_row:
            self._refresh_row(self._hover_row)
            self._hover_row = new
            self._refresh_row(new)

    def _on_leave(self, event: events.Leave) -> None:
        self._hide_hover()

    def _on_focus(self, event: events.Focus) -> None:
        self._refresh_row(self.cursor_row)

    def _on_blur(self, event: events.Blur) -> None:
        self._refresh_row(self.cursor_row)

    def _refresh_row(self, row: int) -> None:
        if row >= 0:
            self.refresh_line(row + HEADER_HEIGHT)

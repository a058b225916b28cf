"""The row cursor of the analyses table: which row is highlighted, keeping it in view,
moving it with the keys and the mouse, and the row under the pointer.

`RowCursorView` knows the rows only through `TableRows` (positions and items); the analyses
table builds on it with its data, sort, paging signal and painting.
"""

from __future__ import annotations

from textual import events
from textual.geometry import Region, Spacing
from textual.reactive import reactive
from textual.scroll_view import ScrollView

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.widgets import table_messages as messages
from screen_analysis.tui.widgets.table_paint import HEADER_HEIGHT
from screen_analysis.tui.widgets.table_rows import TableRows


class RowCursorView(ScrollView, can_focus=True):
    """A Line-API view of `TableRows` with a row cursor under a one-line header."""

    cursor_row: reactive[int] = reactive(0, repaint=False, init=False)
    """Index of the highlighted row (0 when the table is empty)."""

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

    def watch_cursor_row(self, old: int, new: int) -> None:
        """Repaint the two rows, keep the cursor visible and tell the screen."""
        self._refresh_row(old)
        self._refresh_row(new)
        self._scroll_cursor_into_view()
        self._post_highlighted()

    async def _on_click(self, event: events.Click) -> None:
        row = self._row_at(event)
        if row is None:
            return
        event.stop()
        if row == self.cursor_row:
            self.action_select_cursor()
        else:
            self.cursor_row = row

    @property
    def highlighted_item(self) -> AnalysisItem | None:
        """The item under the cursor, or None when the table is empty."""
        return self._rows.item(self.cursor_row) if self._rows else None

    def _follow(self, item: AnalysisItem | None) -> None:
        """Put the cursor back on `item` after rows moved, without announcing a move."""
        position = None if item is None else self._rows.position_of(item)
        if position is not None:
            row = self._rows.row_of_position(position)
            if row != self.cursor_row:
                self.set_reactive(RowCursorView.cursor_row, row)
                self._scroll_cursor_into_view()

    @property
    def visible_rows(self) -> range:
        """The indices of the loaded rows inside the viewport."""
        first = int(self.scroll_y)
        return range(first, min(len(self._rows), first + self._visible_rows))

    def move_cursor(self, row: int) -> None:
        """Move the cursor to `row` (clamped to the loaded rows) and keep it visible."""
        self.cursor_row = row

    def validate_cursor_row(self, row: int) -> int:
        """Clamp the cursor to the loaded rows."""
        return max(0, min(row, len(self._rows) - 1))

    @property
    def _bottom_row(self) -> int:
        return int(self.scroll_y) + self._visible_rows - 1

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

    def _post_highlighted(self) -> None:
        if self._rows:
            row = self.cursor_row
            self.post_message(messages.Highlighted(self, self._rows.item(row), row))

    def _hide_hover(self) -> None:
        if self._hover_row >= 0:
            self._refresh_row(self._hover_row)
            self._hover_row = -1

    def action_move(self, where: str) -> None:
        """Move the cursor "up", "down", a "page-up" or "page-down" (the view follows), to the
        "first" row or the "last" loaded one (which asks the screen for more)."""
        self._hide_hover()
        if where in ("page-up", "page-down"):
            step = max(1, self._visible_rows) * (-1 if where == "page-up" else 1)
            self.scroll_to(y=self.scroll_y + step, animate=False, immediate=True)
            self.cursor_row += step
            return
        rows = {"up": self.cursor_row - 1, "down": self.cursor_row + 1, "first": 0}
        self.cursor_row = rows.get(where, len(self._rows) - 1)

    def action_select_cursor(self) -> None:
        """Post `Selected` for the highlighted row."""
        if self._rows:
            row = self.cursor_row
            self.post_message(messages.Selected(self, self._rows.item(row), row))

    def _row_at(self, event: events.MouseEvent) -> int | None:
        row = event.style.meta.get("row") if event.style else None
        return row if isinstance(row, int) and 0 <= row < len(self._rows) else None

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

"""The analyses table: a virtualised row-cursor table on Textual's Line API.

Only the visible lines are rendered, column widths come from the widget's width (never from
the data), and rendered lines are cached, so appending a page costs the same with a hundred
rows loaded or a hundred thousand. The selection is an analysis, not a row number: rows that
arrive, change, move or are sorted never change which analysis is highlighted, and the
highlighted row keeps its line on screen while rows arrive above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import ClassVar, TypeAlias

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip

from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.keys import SHOWN, RankedBinding
from screen_analysis.tui.widgets.table.cursor import RowCursorView
from screen_analysis.tui.widgets.table.flash import RowFlashes
from screen_analysis.tui.widgets.table.layout import layout_columns
from screen_analysis.tui.widgets.table.messages import Highlighted, Selected, SortChanged, Wanted
from screen_analysis.tui.widgets.table.order import SortOrder, clicked_sort, next_sort
from screen_analysis.tui.widgets.table.paint import TablePainter
from screen_analysis.tui.widgets.table.render import RowCells, row_cells, status_of
from screen_analysis.tui.widgets.table.rows import TableRows
from screen_analysis.tui.widgets.table.styles import TABLE_COMPONENT_CLASSES, TABLE_CSS

__all__ = ["AnalysesTable", "SortOrder", "layout_columns"]

CLOCK_TICK_SECONDS = 30.0  # relative times ("5m ago") are re-rendered this often
MARK = "◆A "  # before the label of the analysis marked for a comparison (readable without colour)


class AnalysesTable(RowCursorView):
    """A table of analyses with a row cursor, rendering only the lines on screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        RankedBinding("enter", "select_cursor", "Select",
                      tooltip="Select the highlighted analysis", id="select", rank=SHOWN),
        Binding("up,k", "move('up')", "Cursor up", show=False, id="cursor-up"),
        Binding("down,j", "move('down')", "Cursor down", show=False, id="cursor-down"),
        Binding("pageup", "move('page-up')", "Page up", show=False, id="page-up"),
        Binding("pagedown", "move('page-down')", "Page down", show=False, id="page-down"),
        Binding("home", "move('first')", "First row", show=False, id="first-row",
                tooltip="First row (and the analyses that arrived)"),
        Binding("end", "move('last')", "Last loaded row", show=False, id="last-row"),
        Binding("s", "cycle_sort", "Sort", id="sort",
                tooltip="Sort the loaded rows (score, age, label, status)"),
    ]  # fmt: skip

    COMPONENT_CLASSES: ClassVar[set[str]] = TABLE_COMPONENT_CLASSES
    DEFAULT_CSS = TABLE_CSS

    empty_message: reactive[str] = reactive("")
    """Shown, centred and muted, when there are no rows ("Loading…", the view's empty words)."""
    unseen_above: reactive[int] = reactive(0)
    """Rows that arrived above the view and have not been scrolled to yet ("↑ 3 new")."""

    Highlighted: TypeAlias = Highlighted
    Selected: TypeAlias = Selected
    SortChanged: TypeAlias = SortChanged
    Wanted: TypeAlias = Wanted

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = now_utc,
        lookahead: int | None = None,
        empty_message: str = "",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """Create an empty table; `clock` gives "now" for the relative created times;
        `lookahead` rows past the reader are wanted loaded (`Wanted`)."""
        super().__init__(TableRows(), name=name, id=id, classes=classes, disabled=disabled)
        self._clock = clock
        if lookahead is not None:
            self.lookahead = lookahead
        self._project_names: dict[str, str] = {}
        self._marked: str | None = None
        self._painter = TablePainter(
            self._rows, self.get_component_rich_style, lambda item: self._cells(item)
        )
        self._flashing = RowFlashes(self.set_timer, self._end_flash)
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

    @property
    def flashing(self) -> bool:
        """Whether some row is flashing after a change."""
        return bool(self._flashing)

    def sort_by(self, order: SortOrder) -> None:
        """Show the loaded rows in `order` (O(n log n)); the cursor stays on its analysis."""
        if order == self._rows.order:
            return
        keep = self.highlighted_item
        self._rows.sort(order)
        self._changed()
        self.drop_placeholders()
        self._follow(keep)
        self.post_message(self.SortChanged(self, order))
        self._check_wanted()

    def action_cycle_sort(self) -> None:
        """Sort by the next column of the cycle; after status, the server's order again."""
        self.sort_by(next_sort(self._rows.order))

    def set_items(self, items: Iterable[AnalysisItem], *, keep_id: str | None = None) -> None:
        """Replace all rows. With `keep_id` (a reload, or the server's rows replacing the
        cache's), the cursor stays on that analysis, on its line of the screen, or on the
        same row when it is gone; the rows that came in above the screen are counted in
        `unseen_above` ("↑ 8 new"); into an empty table, that analysis is scrolled to.
        Else the cursor goes to row 0."""
        line = self.cursor_row - int(self.scroll_y)
        row = self.cursor_row
        before = self._rows.ids() if keep_id is not None else frozenset()
        self._flashing.clear()
        self._rows.replace_all(items)
        self.unseen_above = 0
        self.forget_hover()
        self._changed()
        if keep_id is None:
            self.set_reactive(AnalysesTable.cursor_row, 0)
            self._fit_placeholders()
            self._rows_resized()
            self.scroll_to(y=0, animate=False, immediate=True)
        else:
            kept = self._rows.row_of_id(keep_id)
            self._fit_placeholders()
            self._rows_resized()
            row = self.validate_cursor_row(row if kept is None else kept)
            if not before:  # nothing was on screen: the row where it falls, from the top
                line = row
            self.set_reactive(AnalysesTable.cursor_row, row)
            self.scroll_to(y=max(0, row - line), animate=False, immediate=True)
            self._scroll_cursor_into_view()
            if before:
                top = int(self.scroll_y)
                self.unseen_above = sum(1 for i in self._rows.view[:top] if i.id not in before)
        self._announce()
        self._check_wanted()

    def append_items(self, items: Iterable[AnalysisItem]) -> None:
        """Add rows at the end in O(len(items)); the cursor stays on its analysis (a cursor on
        a row that was being loaded now highlights the analysis that arrived there).

        When sorted, each row goes where it belongs (bisection).
        """
        keep = self.highlighted_item if self._rows.sorted else None
        if self._rows.extend(items):
            if self._rows.sorted:
                self._painter.invalidate()
                self._follow(keep)
            self._fit_placeholders()
            self._rows_resized()
            self.refresh()
            self._announce()
        self._check_wanted()

    def prepend_items(self, items: Sequence[AnalysisItem]) -> int:
        """Insert rows that arrived above the first one (ids already loaded are skipped);
        new rows flash. The cursor stays on its analysis and its line on screen: the view
        does not move, and `unseen_above` counts the new rows above it. Returns how many
        rows were added."""
        keep = self.highlighted_item
        line = self.cursor_row - int(self.scroll_y)
        new = self._rows.prepend(items)
        if not new:
            return 0
        self._flashing.clear()
        self.forget_hover()
        self._rows_resized()
        if keep is None:
            row = self.cursor_row + len(new)  # a placeholder row: the rows above it grew
            self.set_reactive(AnalysesTable.cursor_row, row)
            self.scroll_to(y=max(0, row - line), animate=False, immediate=True)
        else:
            self._follow(keep)
        for item in new:
            position = self._rows.position_of(item)
            if position is not None:
                self._flashing.flash(position)
        top = int(self.scroll_y)
        rows = (self._row_of(item) for item in new)
        above = sum(1 for row in rows if row is not None and row < top)
        self.unseen_above = min(self.unseen_above + above, top)
        self._changed()
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
            if self._rows.sorted:
                self._follow(keep)
            self._changed()
            self._announce()  # the highlighted analysis may be a newer copy now
        return changed

    def _row_of(self, item: AnalysisItem) -> int | None:
        position = self._rows.position_of(item)
        return None if position is None else self._rows.row_of_position(position)

    def set_project_names(self, names: Mapping[str, str]) -> None:
        """Show these project names (merged into those known) instead of project ids; the
        rows on screen are drawn again only when a name changed and the project column is
        shown (else only the lines kept drawn are forgotten)."""
        if all(self._project_names.get(p) == name for p, name in names.items()):
            return
        self._project_names.update(names)
        if any(column.key == "project" for column in layout_columns(self.size.width)):
            self._changed()
        else:
            self._painter.invalidate()

    def mark(self, analysis_id: str | None) -> None:
        """Show MARK before the label of `analysis_id` (None: no row is marked)."""
        self._marked = analysis_id
        self._changed()

    def find(self, query: str, start: int) -> int | None:
        """The first loaded row at or after `start` (wrapping) whose label contains `query`,
        in any case; None when no row does."""
        needle = query.casefold()
        items = self._rows.view
        count = len(items)
        for step in range(count):
            index = (start + step) % count
            item = items[index]
            if isinstance(item, Analysis) and needle in clean(item.label).casefold():
                return index
        return None

    def _changed(self) -> None:
        """The rows, their order or their text changed: draw them again."""
        self._painter.invalidate()
        self.refresh()

    # Cursor and scrolling

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """The rows that arrived above count as seen once scrolled to."""
        super().watch_scroll_y(old_value, new_value)
        if self.unseen_above > int(new_value):
            self.unseen_above = int(new_value)

    def action_move(self, where: str) -> None:
        """Move the cursor (see `RowCursorView.action_move`); Home also shows the arrivals."""
        super().action_move(where)
        if where == "first":
            self.unseen_above = 0

    def watch_empty_message(self) -> None:
        """Repaint the empty message."""
        if not self._rows:
            self.refresh()

    # Mouse

    async def _on_click(self, event: events.Click) -> None:
        column = event.style.meta.get("column") if event.style else None
        if isinstance(column, str):  # the header sorts; rows are the base class's (after this)
            event.stop()
            event.prevent_default()
            self.sort_by(clicked_sort(self._rows.order, column))

    # Timers, focus, size

    def _on_mount(self, event: events.Mount) -> None:
        self.set_interval(CLOCK_TICK_SECONDS, self._changed)

    def _on_resize(self, event: events.Resize) -> None:
        self._scroll_cursor_into_view()
        self._check_wanted()

    def notify_style_update(self) -> None:
        """Styles (theme, focus) changed: rendered lines are stale."""
        super().notify_style_update()
        self._changed()

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
            placeholders=self.placeholder_rows,
            message=self.empty_message,
            cursor=self.cursor_row,
            hover=self._hover_row,
            flashing=self._flashing,
            focus=self.has_focus,
        )

    def _cells(self, item: AnalysisItem) -> RowCells:
        cells = row_cells(item, self._project_names, self._now)
        if self._marked is not None and item.id == self._marked:
            cells["label"] = MARK + cells["label"]
        return cells

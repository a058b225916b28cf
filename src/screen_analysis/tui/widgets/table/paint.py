"""Drawing the analyses table's lines, each cached by everything it depends on.

The widget says which line it needs and in which state (cursor, hover, flash, focus); the
painter combines the component styles, renders and caches. `invalidate` drops every cached
line when the rows, their order, the clock or the styles change.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.strip import Strip

from screen_analysis.api.models import AnalysisItem
from screen_analysis.safe_text import clean
from screen_analysis.tui.widgets.table.layout import Column, centre, columns_for
from screen_analysis.tui.widgets.table.render import (
    RowCells,
    header_strip,
    row_strip,
    status_class_of,
)
from screen_analysis.tui.widgets.table.rows import TableRows
from screen_analysis.words import fit_cell

HEADER_HEIGHT = 1  # the table's header row

LINE_CACHE_SIZE = 1024
StyleOf = Callable[..., Style]


class TablePainter:
    """Renders the header, rows and the empty message of a table into strips."""

    def __init__(
        self, rows: TableRows, style_of: StyleOf, cells: Callable[[AnalysisItem], RowCells]
    ) -> None:
        """`style_of` is the widget's `get_component_rich_style`; `cells` a row's texts."""
        self._rows = rows
        self._style_of = style_of
        self._cells = cells
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(LINE_CACHE_SIZE)
        self._version = 0
        self.base = Style()
        """The widget's own style, read once per paint."""
        self.chosen: tuple[str, ...] | None = None
        """A view's columns (None: those that fit the width)."""

    def columns(self, width: int) -> tuple[Column, ...]:
        """The columns drawn at `width` cells."""
        return columns_for(width, self.chosen)

    def _heat(self, tier: str) -> Style:
        """A criterion cell's colour by its tier (the theme's score colours)."""
        return self._style_of(f"analyses-table--heat{tier}", partial=True)

    def invalidate(self) -> None:
        """Forget every rendered line."""
        self._version += 1
        self._cache.clear()

    def line(
        self,
        y: int,
        width: int,
        *,
        top: int,
        visible: int,
        placeholders: int,
        message: str,
        cursor: int,
        hover: int,
        flashing: Container[int],
        focus: bool,
    ) -> Strip:
        """Line `y` of a viewport whose first row is `top`: the header, a row, a row still
        being loaded (`placeholders` of them after the loaded ones), the empty table's
        message (half-way down) or blank."""
        if y < HEADER_HEIGHT:
            return self.header(width)
        if not self._rows:
            if y == max(HEADER_HEIGHT, visible // 2) and message:
                return self.message(width, message)
            return self.blank(width)
        row = y - HEADER_HEIGHT + top
        if row >= len(self._rows):
            if row < len(self._rows) + placeholders:
                return self.placeholder(width, cursor=row == cursor)
            return self.blank(width)
        return self.row(
            row,
            width,
            cursor=row == cursor,
            hover=row == hover,
            flash=self._rows.position(row) in flashing,
            focus=focus,
        )

    def blank(self, width: int) -> Strip:
        """An empty line."""
        return Strip.blank(width, self.base)

    def placeholder(self, width: int, *, cursor: bool) -> Strip:
        """A row still being loaded: a muted "loading…" in the label's place."""
        style = self.base + self._style_of("analyses-table--empty")
        if cursor:
            style += self._style_of("analyses-table--cursor")
        cells = {"status": "·", "status_short": "·", "status_glyph": "·", "label": "loading…"}
        return row_strip(cells, self.columns(width), width, style, style)

    def message(self, width: int, text: str) -> Strip:
        """`text` centred and muted (the empty table's message)."""
        style = self.base + self._style_of("analyses-table--empty")
        strip = Strip([Segment(centre(fit_cell(clean(text), width), width), style)])
        return strip.adjust_cell_length(width, self.base)

    def header(self, width: int) -> Strip:
        """The header line, with the sort arrow."""
        key = ("header", width, self._version)
        cached = self._cache.get(key)
        if cached is None:
            style = self.base + self._style_of("analyses-table--header")
            cached = header_strip(self.columns(width), width, style, self._rows.order)
            self._cache[key] = cached
        return cached

    def row(
        self, row: int, width: int, *, cursor: bool, hover: bool, flash: bool, focus: bool
    ) -> Strip:
        """Display row `row` in the given state."""
        key = (row, width, cursor, hover, flash, focus, self._version)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._render_row(row, width, cursor, hover, flash)
            self._cache[key] = cached
        return cached

    def _render_row(self, row: int, width: int, cursor: bool, hover: bool, flash: bool) -> Strip:
        item = self._rows.item(row)
        get = self._style_of
        style = self.base
        if flash:
            style += get("analyses-table--changed")
        if hover:
            style += get("analyses-table--hover")
        # Only the status colour: the row's flash, hover and cursor backgrounds show through.
        status = style + get(f"analyses-table--status-{status_class_of(item)}", partial=True)
        heat = self._heat
        if cursor:
            cursor_style = get("analyses-table--cursor")
            style += cursor_style
            status += cursor_style

            def heat(tier: str) -> Style:
                # The cursor's colours win over a tier's, as over the status colour (a
                # tier's yellow on a light cursor is unreadable); the shade still says it.
                return self._heat(tier) + cursor_style

        meta = Style.from_meta({"row": row})
        columns = self.columns(width)
        cells = self._cells(item)
        return row_strip(cells, columns, width, style + meta, status + meta, heat)

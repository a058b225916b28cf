"""The analyses table: a virtualised row-cursor table on Textual's Line API.

Only the visible lines are rendered, column widths come from the widget's width (never from
the data), and rendered lines are cached, so appending a page costs the same with a hundred
rows loaded or a hundred thousand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache, partial
from typing import ClassVar, overload

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from screen_analysis.api.models import Analysis, AnalysisItem, InvalidAnalysis
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import (
    DASH,
    format_score,
    now_utc,
    relative_time,
    status_class,
    status_glyph,
    status_word,
)
from screen_analysis.tui.widgets.scroll_speed import ScrollSpeed

HEADER_HEIGHT = 1
CELL_PADDING = 1  # blank cells on each side of a column
LABEL_MIN_WIDTH = 16  # below this the optional columns give way
FLASH_SECONDS = 1.5
CLOCK_TICK_SECONDS = 30.0  # relative times ("5m ago") are re-rendered this often
LINE_CACHE_SIZE = 1024
INVALID_GLYPH = "!"
MARK = "◆A "  # before the label of the analysis marked for a comparison (readable without colour)


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the table as laid out for a given width."""

    key: str
    title: str
    width: int
    right: bool = False


# Fixed widths fit the longest documented value ("◐ processing", "2025-01-31", "99.5").
_STATUS = Column("status", "Status", 12)
_SCORE = Column("score", "Score", 5, right=True)
_CREATED = Column("created", "Created", 10)
_PROJECT = Column("project", "Project", 16)
_ID = Column("id", "ID", 16)


@lru_cache(maxsize=32)
def layout_columns(width: int) -> tuple[Column, ...]:
    """The columns shown at `width` cells: id gives way first, then project; label flexes."""
    pad = 2 * CELL_PADDING
    fixed = sum(column.width + pad for column in (_STATUS, _SCORE, _CREATED)) + pad
    optional: list[Column] = [_PROJECT, _ID]
    while optional and width - fixed - sum(c.width + pad for c in optional) < LABEL_MIN_WIDTH:
        optional.pop()
    label_width = max(1, width - fixed - sum(c.width + pad for c in optional))
    label = Column("label", "Label", label_width)
    trailing = [c for c in (_PROJECT, _CREATED, _ID) if c is _CREATED or c in optional]
    return (_STATUS, _SCORE, label, *trailing)


def fit_cell(text: str, width: int, *, right: bool = False) -> str:
    """`text` cut (with an ellipsis) or padded to exactly `width` terminal cells."""
    length = cell_len(text)
    if length > width:
        if width <= 1:
            return "…"[:width]
        text = set_cell_size(text, width - 1).rstrip() + "…"
        length = cell_len(text)
    padding = " " * (width - length)
    return padding + text if right else text + padding


class _ItemsView(Sequence[AnalysisItem]):
    """A read-only view of the loaded rows (no copy)."""

    __slots__ = ("_items",)

    def __init__(self, items: list[AnalysisItem]) -> None:
        self._items = items

    @overload
    def __getitem__(self, index: int) -> AnalysisItem: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[AnalysisItem]: ...
    def __getitem__(self, index: int | slice) -> AnalysisItem | Sequence[AnalysisItem]:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[AnalysisItem]:
        return iter(self._items)


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
    ]  # fmt: skip

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "analyses-table--header",
        "analyses-table--cursor",
        "analyses-table--hover",
        "analyses-table--changed",
        "analyses-table--empty",
        "analyses-table--status-pending",
        "analyses-table--status-processing",
        "analyses-table--status-completed",
        "analyses-table--status-failed",
        "analyses-table--status-unknown",
    }

    DEFAULT_CSS = """
    AnalysesTable {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        overflow-y: auto;
        & > .analyses-table--header {
            background: $panel;
            color: $foreground;
            text-style: bold;
        }
        & > .analyses-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .analyses-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .analyses-table--hover {
            background: $block-hover-background;
        }
        & > .analyses-table--changed {
            background: $accent 35%;
        }
        & > .analyses-table--empty {
            color: $foreground-muted;
            text-style: italic;
        }
        & > .analyses-table--status-pending { color: $status-pending; }
        & > .analyses-table--status-processing { color: $status-processing; }
        & > .analyses-table--status-completed { color: $status-completed; }
        & > .analyses-table--status-failed { color: $status-failed; }
        & > .analyses-table--status-unknown { color: $status-unknown; }
    }
    """

    cursor_row: reactive[int] = reactive(0, repaint=False, init=False)
    """Index of the highlighted row (0 when the table is empty)."""
    empty_message: reactive[str] = reactive("")
    """Shown, centred and muted, when there are no rows ("Loading…", "No analyses match")."""
    near_end_threshold: int = 60
    # When the reader moves fast (PageDown held), look this many seconds of their speed ahead,
    # so the next page lands before they reach the last row.
    lookahead_s: float = 0.6
    """Rows from the last loaded row at which `NearEnd` is posted."""

    @dataclass
    class _RowMessage(Message):
        """A message about one row of the table."""

        table: AnalysesTable
        item: AnalysisItem
        index: int

        @property
        def control(self) -> AnalysesTable:
            """The table that posted the message."""
            return self.table

    class Highlighted(_RowMessage):
        """The cursor moved to another row (or the rows were replaced)."""

    class Selected(_RowMessage):
        """A row was chosen with Enter or a click on the highlighted row."""

    @dataclass
    class NearEnd(Message):
        """The cursor or the viewport came within the threshold of the last loaded row."""

        table: AnalysesTable
        loaded: int

        @property
        def control(self) -> AnalysesTable:
            """The table that posted the message."""
            return self.table

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
        self._items: list[AnalysisItem] = []
        self._index: dict[str, int] = {}
        self._project_names: dict[str, str] = {}
        self._line_cache: LRUCache[tuple[object, ...], Strip] = LRUCache(LINE_CACHE_SIZE)
        self._version = 0
        self._hover_row = -1
        self._flashing: dict[int, Timer] = {}
        self._near_end_posted: int | None = None
        self._marked: str | None = None
        self._speed = ScrollSpeed()
        self._now = clock()
        self._base_style = Style()
        self.set_reactive(AnalysesTable.empty_message, empty_message)

    # Data

    @property
    def items(self) -> Sequence[AnalysisItem]:
        """A read-only view of the loaded rows."""
        return _ItemsView(self._items)

    @property
    def highlighted_item(self) -> AnalysisItem | None:
        """The item under the cursor, or None when the table is empty."""
        return self._items[self.cursor_row] if self._items else None

    def index_of(self, analysis_id: str) -> int | None:
        """The row of the analysis with `analysis_id` (its first, if sent twice), or None."""
        return self._index.get(analysis_id)

    def set_items(self, items: Iterable[AnalysisItem], *, keep_id: str | None = None) -> None:
        """Replace all rows; the cursor stays on `keep_id`'s row when present, else row 0."""
        for timer in self._flashing.values():
            timer.stop()
        self._flashing.clear()
        self._items = []
        self._index = {}
        self._add(items)
        self._invalidate()
        self._near_end_posted = None
        self._speed.reset()
        keep = self._index.get(keep_id) if keep_id is not None else None
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
        """Add rows at the end in O(len(items)); cursor and scroll position are unchanged."""
        if self._add(items):
            self._update_virtual_size()
            self.refresh()
            self._check_near_end()

    def prepend_items(self, items: Sequence[AnalysisItem]) -> int:
        """Insert rows above the first one (ids already loaded are skipped); new rows flash.

        The cursor stays on its analysis, except on the first row of a view scrolled to the
        top: there it stays on the first row, following the newest (like `tail -f`).
        Returns how many rows were added.
        """
        new = [i for i in items if i.id is None or i.id not in self._index]
        if not new:
            return 0
        follow_newest = self.cursor_row == 0 and int(self.scroll_y) == 0
        keep_item = bool(self._items) and not follow_newest
        for timer in self._flashing.values():
            timer.stop()
        self._flashing.clear()
        self._items[:0] = new
        self._index = {}
        self._reindex(0)
        self._invalidate()
        self._update_virtual_size()
        self._hover_row = -1
        if keep_item:
            self.set_reactive(AnalysesTable.cursor_row, self.cursor_row + len(new))
            self._scroll_cursor_into_view()
        for index in range(len(new)):
            self._flash(index)
        self.refresh()
        if not keep_item:
            self._post_highlighted()
            self._check_near_end()
        return len(new)

    @property
    def visible_rows(self) -> range:
        """The indices of the loaded rows inside the viewport."""
        first = int(self.scroll_y)
        return range(first, min(len(self._items), first + self._visible_rows))

    def update_items(self, items: Iterable[AnalysisItem]) -> list[str]:
        """Replace loaded rows with the same ids in place; ids not loaded are ignored.

        Rows whose status changed flash briefly. Returns the ids whose status changed.
        """
        changed: list[str] = []
        touched = False
        for item in items:
            if item.id is None or (index := self._index.get(item.id)) is None:
                continue
            old = self._items[index]
            if old == item:
                continue
            self._items[index] = item
            touched = True
            if _status_of(old) != _status_of(item):
                changed.append(item.id)
                self._flash(index)
        if touched:
            self._invalidate()
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

    def _add(self, items: Iterable[AnalysisItem]) -> bool:
        start = len(self._items)
        self._items.extend(items)
        self._reindex(start)
        return len(self._items) > start

    def _reindex(self, start: int) -> None:
        index = self._index
        for position in range(start, len(self._items)):
            item_id = self._items[position].id
            if item_id is not None and item_id not in index:
                index[item_id] = position

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(0, len(self._items) + HEADER_HEIGHT)

    def _invalidate(self) -> None:
        self._version += 1
        self._line_cache.clear()

    def mark(self, analysis_id: str | None) -> None:
        """Show MARK before the label of `analysis_id` (None: no row is marked)."""
        self._marked = analysis_id
        self._invalidate()
        self.refresh()

    # Cursor, scrolling and paging

    def validate_cursor_row(self, row: int) -> int:
        """Clamp the cursor to the loaded rows."""
        return max(0, min(row, len(self._items) - 1))

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
        if not self._items:
            self.refresh()

    @property
    def _visible_rows(self) -> int:
        return max(0, self.scrollable_content_region.height - HEADER_HEIGHT)

    def _scroll_cursor_into_view(self) -> None:
        if not self._items or self._visible_rows == 0:
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
        """Whether the cursor or the viewport is within the threshold of the last row."""
        last = len(self._items) - 1
        if last < 0:
            return False
        bottom = self._bottom_row
        ahead = self._speed.rows_per_second() * self.lookahead_s
        near = max(self.near_end_threshold, int(ahead))
        return last - self.cursor_row <= near or last - bottom <= near

    def _check_near_end(self) -> None:
        loaded = len(self._items)
        if loaded == 0 or loaded == self._near_end_posted:
            return
        if self.near_end:
            self._near_end_posted = loaded
            self.post_message(self.NearEnd(self, loaded))

    def _post_highlighted(self) -> None:
        if self._items:
            row = self.cursor_row
            self.post_message(self.Highlighted(self, self._items[row], row))

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
        self.cursor_row = len(self._items) - 1

    def action_select_cursor(self) -> None:
        """Post `Selected` for the highlighted row."""
        if self._items:
            row = self.cursor_row
            self.post_message(self.Selected(self, self._items[row], row))

    # Mouse

    def _row_at(self, event: events.MouseEvent) -> int | None:
        row = event.style.meta.get("row") if event.style else None
        return row if isinstance(row, int) and 0 <= row < len(self._items) else None

    async def _on_click(self, event: events.Click) -> None:
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
        if self._flashing.pop(index, None) is not None:
            self._refresh_row(index)

    def _refresh_row(self, row: int) -> None:
        if row >= 0:
            self.refresh_line(row + HEADER_HEIGHT)

    # Rendering

    def render_lines(self, crop: Region) -> list[Strip]:
        """Read the clock and the base style once per paint."""
        self._now = self._clock()
        self._base_style = self.rich_style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        """Render line `y` of the viewport: the header, a row, the empty message or blank."""
        width = self.scrollable_content_region.width
        base = self._base_style
        if y < HEADER_HEIGHT:
            return self._header_strip(width)
        if not self._items:
            if y == max(HEADER_HEIGHT, self._visible_rows // 2) and self.empty_message:
                style = base + self.get_component_rich_style("analyses-table--empty")
                text = fit_cell(clean(self.empty_message), width)
                strip = Strip([Segment(_centre(text, width), style)])
                return strip.adjust_cell_length(width, base)
            return Strip.blank(width, base)
        row = y - HEADER_HEIGHT + int(self.scroll_y)
        if row >= len(self._items):
            return Strip.blank(width, base)
        key = (
            row,
            width,
            row == self.cursor_row,
            row == self._hover_row,
            row in self._flashing,
            self.has_focus,
            self._version,
        )
        cached = self._line_cache.get(key)
        if cached is not None:
            return cached
        strip = self._render_row(row, width, key[2], key[3], key[4])
        self._line_cache[key] = strip
        return strip

    def _header_strip(self, width: int) -> Strip:
        key = ("header", width, self._version)
        cached = self._line_cache.get(key)
        if cached is not None:
            return cached
        style = self._base_style + self.get_component_rich_style("analyses-table--header")
        titles = (_pad(fit_cell(c.title, c.width, right=c.right)) for c in layout_columns(width))
        strip = Strip([Segment("".join(titles), style)]).adjust_cell_length(width, style)
        self._line_cache[key] = strip
        return strip

    def _render_row(self, row: int, width: int, cursor: bool, hover: bool, flash: bool) -> Strip:
        item = self._items[row]
        get = self.get_component_rich_style
        style = self._base_style
        if flash:
            style += get("analyses-table--changed")
        if hover:
            style += get("analyses-table--hover")
        # Only the status colour: the row's flash, hover and cursor backgrounds show through.
        status = style + get(f"analyses-table--status-{_status_class_of(item)}", partial=True)
        if cursor:
            cursor_style = get("analyses-table--cursor")
            style += cursor_style
            status += cursor_style
        meta = Style.from_meta({"row": row})
        style += meta
        status += meta
        cells = self._cells(item)
        segments: list[Segment] = []
        for column in layout_columns(width):
            text = fit_cell(cells[column.key], column.width, right=column.right)
            if column.key == "status":
                segments.append(Segment(" " * CELL_PADDING, style))
                segments.append(Segment(text, status))
                segments.append(Segment(" " * CELL_PADDING, style))
            else:
                segments.append(Segment(_pad(text), style))
        return Strip(segments).adjust_cell_length(width, style)

    def _cells(self, item: AnalysisItem) -> dict[str, str]:
        if isinstance(item, InvalidAnalysis):
            return {
                "status": f"{INVALID_GLYPH} invalid",
                "score": DASH,
                "label": clean(item.reason) or DASH,
                "project": DASH,
                "created": DASH,
                "id": clean(item.id) or DASH,
            }
        project = DASH
        if item.project_id is not None:
            project = clean(self._project_names.get(item.project_id, item.project_id)) or DASH
        return {
            "status": f"{status_glyph(item.status)} {status_word(item.status)}",
            "score": format_score(item.score),
            "label": (MARK if item.id == self._marked else "") + (clean(item.label) or DASH),
            "project": project,
            "created": relative_time(item.created_at, self._now),
            "id": clean(item.id) or DASH,
        }


def _pad(text: str) -> str:
    blank = " " * CELL_PADDING
    return f"{blank}{text}{blank}"


def _centre(text: str, width: int) -> str:
    text = text.strip()
    left = max(0, (width - cell_len(text)) // 2)
    return " " * left + text


def _status_of(item: AnalysisItem) -> object:
    return item.status if isinstance(item, Analysis) else "invalid"


def _status_class_of(item: AnalysisItem) -> str:
    return status_class(item.status) if isinstance(item, Analysis) else "unknown"

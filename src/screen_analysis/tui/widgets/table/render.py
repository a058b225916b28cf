"""What a row of the analyses table says, and the strips that draw rows and the header.

Server text is cleaned (`safe_text.clean`) and drawn as plain segments, never markup. The
status is a glyph and a word, so it reads without colour; the colour comes from the
table's component classes, which use theme variables only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from screen_analysis.api.models import Analysis, AnalysisItem, InvalidAnalysis
from screen_analysis.numbers import DASH, format_score
from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.tui.formatting import (
    short_status_word,
    status_class,
    status_glyph,
    status_word,
)
from screen_analysis.tui.widgets.table.layout import CELL_PADDING, Column, pad
from screen_analysis.tui.widgets.table.order import SortOrder
from screen_analysis.words import end_ellipsis, fit_cell, label_ellipsis, relative_time, short_age

INVALID_GLYPH = "!"
RowCells = dict[str, str]


def row_cells(
    item: AnalysisItem, project_names: Mapping[str, str], now: datetime
) -> dict[str, str]:
    """The text of each cell of `item`'s row (long forms; `*_short`, `*_glyph` for compact
    columns)."""
    if isinstance(item, InvalidAnalysis):
        return {
            "status": f"{INVALID_GLYPH} invalid",
            "status_short": f"{INVALID_GLYPH} bad",
            "status_glyph": INVALID_GLYPH,
            "score": DASH,
            "label": clean(item.reason, limit=DISPLAY_LIMIT) or DASH,
            "project": DASH,
            "created": DASH,
            "created_short": DASH,
            "id": clean(item.id, limit=DISPLAY_LIMIT) or DASH,
        }
    project = DASH
    if item.project_id is not None:
        project = clean(project_names.get(item.project_id, item.project_id), limit=DISPLAY_LIMIT)
        project = project or DASH
    glyph = status_glyph(item.status)
    return {
        "status": f"{glyph} {status_word(item.status)}",
        "status_short": f"{glyph} {short_status_word(item.status)}",
        "status_glyph": glyph,
        "score": format_score(item.score),
        "label": clean(item.label, limit=DISPLAY_LIMIT) or DASH,
        "project": project,
        "created": relative_time(item.created_at, now),
        "created_short": short_age(item.created_at, now),
        "id": clean(item.id, limit=DISPLAY_LIMIT) or DASH,
    }


def status_class_of(item: AnalysisItem) -> str:
    """The suffix of the status component class for `item` ("unknown" for invalid items)."""
    return status_class(item.status) if isinstance(item, Analysis) else "unknown"


def status_of(item: AnalysisItem) -> object:
    """What a change of status is judged by."""
    return item.status if isinstance(item, Analysis) else "invalid"


def row_strip(
    cells: RowCells, columns: Sequence[Column], width: int, style: Style, status: Style
) -> Strip:
    """One row: every column fitted to its width, the status cell in `status`."""
    segments: list[Segment] = []
    for column in columns:
        cut = label_ellipsis if column.key == "label" else end_ellipsis
        value = cells.get(column.cell_key, cells.get(column.key, ""))
        text = fit_cell(value, column.width, right=column.right, cut=cut)
        if column.key == "status":
            segments.append(Segment(" " * CELL_PADDING, style))
            segments.append(Segment(text, status))
            segments.append(Segment(" " * CELL_PADDING, style))
        else:
            segments.append(Segment(pad(text), style))
    return Strip(segments).adjust_cell_length(width, style)


def header_strip(columns: Sequence[Column], width: int, style: Style, order: SortOrder) -> Strip:
    """The header: each title, ▲/▼ after the sorted column's; a click names the column."""
    segments: list[Segment] = []
    for column in columns:
        title = column.title
        meta = Style.from_meta({"column": column.key})
        if column.key == order.column and column.width < len(title) + 2:
            # No room for " ▼" in the cell: the arrow takes the padding after it, so the
            # title keeps every letter.
            text = " " * CELL_PADDING + fit_cell(title, column.width, right=column.right)
            segments.append(Segment(text + order.arrow, style + meta))
            continue
        if column.key == order.column:
            title = f"{title} {order.arrow}"
        segments.append(
            Segment(pad(fit_cell(title, column.width, right=column.right)), style + meta)
        )
    return Strip(segments).adjust_cell_length(width, style)

"""Labelled horizontal bars, one a line, with the number at the end of each.

Reads without colour: the bar's length and the number say it all; colours come from the
theme through component classes. Labels are shown literally (never parsed as markup).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.content import Content
from textual.reactive import reactive
from textual.style import Style
from textual.widget import Widget

from screen_analysis.safe_text import clean
from screen_analysis.tui.widgets.score_bar import bar_cells

MARKER = "│"


@dataclass(frozen=True)
class BarRow:
    """One bar: `value` on a scale of `scale`, `text` after it, an optional `tone` (a
    component class suffix: good, fair, poor, pending, processing, completed, failed, weak)
    and a `marker` drawn at a fraction of the bar (a weight)."""

    label: str
    value: float | None
    scale: float
    text: str
    tone: str = ""
    marker: float | None = None


class BarRows(Widget):
    """Rows of labelled bars."""

    TONES: ClassVar[tuple[str, ...]] = (
        "good",
        "fair",
        "poor",
        "weak",
        "pending",
        "processing",
        "completed",
        "failed",
    )
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "bar-rows--label",
        "bar-rows--bar",
        "bar-rows--track",
        "bar-rows--marker",
        "bar-rows--value",
        *(f"bar-rows--{tone}" for tone in TONES),
    }

    DEFAULT_CSS = """
    BarRows {
        height: auto;
        & > .bar-rows--label { color: $foreground; }
        & > .bar-rows--bar { color: $score-bar-fill; }
        & > .bar-rows--track { color: $score-bar-empty; }
        & > .bar-rows--marker { color: $foreground; text-style: bold; }
        & > .bar-rows--value { color: $foreground; }
        & > .bar-rows--good { color: $score-good; }
        & > .bar-rows--fair { color: $score-fair; }
        & > .bar-rows--poor { color: $score-poor; }
        & > .bar-rows--weak { color: $score-poor; text-style: bold; }
        & > .bar-rows--pending { color: $status-pending; }
        & > .bar-rows--processing { color: $status-processing; }
        & > .bar-rows--completed { color: $status-completed; }
        & > .bar-rows--failed { color: $status-failed; }
    }
    """

    rows: reactive[tuple[BarRow, ...]] = reactive((), layout=True)
    """The bars, top to bottom."""

    label_width: reactive[int] = reactive(18, layout=True)
    """Cells for the labels (longer ones are cut with …)."""

    def __init__(
        self, rows: tuple[BarRow, ...] = (), *, label_width: int = 18, id: str | None = None
    ) -> None:
        """Start with `rows`."""
        super().__init__(id=id)
        self.set_reactive(BarRows.rows, rows)
        self.set_reactive(BarRows.label_width, label_width)

    def render(self) -> Content:
        """Every row at the current width."""
        rows = self.rows
        if not rows:
            return Content("—")
        width = self.size.width
        value_width = max(len(row.text) for row in rows)
        label_width = min(self.label_width, max(6, width // 3))
        bar_width = max(3, width - label_width - value_width - 2)
        label_style = self.get_visual_style("bar-rows--label")
        track_style = self.get_visual_style("bar-rows--track")
        marker_style = self.get_visual_style("bar-rows--marker")
        value_style = self.get_visual_style("bar-rows--value")
        lines = []
        for row in rows:
            tone = f"bar-rows--{row.tone}" if row.tone in self.TONES else "bar-rows--bar"
            label = clean(row.label)
            if len(label) > label_width:
                label = label[: label_width - 1] + "…"
            percent = None if row.value is None or row.scale <= 0 else row.value / row.scale * 100
            filled, empty = bar_cells(percent, bar_width)
            cells = [(filled, self.get_visual_style(tone))] if filled else []
            cells.append((empty, track_style))
            if row.marker is not None:
                cells = _with_marker(cells, row.marker, bar_width, marker_style)
            lines.append(
                Content.assemble(
                    (label.ljust(label_width) + " ", label_style),
                    *(Content.styled(text, style) for text, style in cells if text),
                    (" " + row.text.rjust(value_width), value_style),
                )
            )
        return Content("\n").join(lines)


def _with_marker(
    cells: list[tuple[str, Style]], fraction: float, width: int, style: Style
) -> list[tuple[str, Style]]:
    """The bar with one cell replaced by the marker at `fraction` of its width."""
    at = min(width - 1, max(0, round(min(max(fraction, 0.0), 1.0) * width) - 1))
    out: list[tuple[str, Style]] = []
    position = 0
    for text, cell_style in cells:
        end = position + len(text)
        if position <= at < end:
            cut = at - position
            out.extend([(text[:cut], cell_style), (MARKER, style), (text[cut + 1 :], cell_style)])
        else:
            out.append((text, cell_style))
        position = end
    return out

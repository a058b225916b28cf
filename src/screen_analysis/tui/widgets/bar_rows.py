"""Labelled horizontal bars, one a line, with the number at the end of each and, when the
rows have one, a second number in a column of its own (a criterion's weight).

Reads without colour: the bar's length and the numbers say it all (in 16 colours and under
NO_COLOR a score's bar is also shaded by its tier); colours come from the theme through
component classes. Labels are shown literally (never parsed as markup) and cut to their
column in terminal cells (a wide character takes two). The numbers are right-aligned in
their columns; an optional heading names the columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.tui.themes import low_colour
from screen_analysis.tui.widgets.score_bar import PLAIN_TEXTURE, bar_cells, score_tier, texture
from screen_analysis.words import fit_cell

EMPTY_MESSAGE = "No completed analyses in this view."
SCORE_TONES = frozenset({"good", "fair", "poor", "weak"})  # rows whose value is a score


@dataclass(frozen=True)
class BarRow:
    """One bar: `value` on a scale of `scale`, `text` after it, an optional `tone` (a
    component class suffix: good, fair, poor, pending, processing, completed, failed, weak)
    and an optional `extra` number in a column of its own (a weight)."""

    label: str
    value: float | None
    scale: float
    text: str
    tone: str = ""
    extra: str = ""


@dataclass(frozen=True)
class BarHeading:
    """Names of the columns, drawn muted above the rows: the bar, the value, the extra."""

    bar: str = ""
    value: str = ""
    extra: str = ""


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
        "bar-rows--heading",
        "bar-rows--value",
        *(f"bar-rows--{tone}" for tone in TONES),
    }

    DEFAULT_CSS = """
    BarRows {
        height: auto;
        & > .bar-rows--label { color: $foreground; }
        & > .bar-rows--bar { color: $score-bar-fill; }
        & > .bar-rows--track { color: $score-bar-empty; }
        & > .bar-rows--heading { color: $foreground-muted; }
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

    heading: reactive[BarHeading | None] = reactive(None, layout=True)
    """Names of the columns, or None for no heading line."""

    empty_message: reactive[str] = reactive(EMPTY_MESSAGE)
    """What shows when no row has a value."""

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
        if not any(row.value for row in rows):
            return Content.styled(self.empty_message, self.get_visual_style("bar-rows--heading"))
        heading = self.heading
        width = self.size.width
        value_width = max(len(row.text) for row in rows)
        extra_width = max(len(row.extra) for row in rows)
        if heading is not None:
            value_width = max(value_width, len(heading.value))
            extra_width = max(extra_width, len(heading.extra)) if extra_width else 0
        extra_room = extra_width + 2 if extra_width else 0
        label_width = min(self.label_width, max(6, width * 2 // 5))  # the bars keep the rest
        bar_width = max(3, width - label_width - value_width - extra_room - 2)
        label_style = self.get_visual_style("bar-rows--label")
        track_style = self.get_visual_style("bar-rows--track")
        value_style = self.get_visual_style("bar-rows--value")
        textured = low_colour(self.app)
        lines = []
        if heading is not None:
            text = (
                " " * (label_width + 1)
                + heading.bar.ljust(bar_width)[:bar_width]
                + " "
                + heading.value.rjust(value_width)
                + (" " * 2 + heading.extra.rjust(extra_width) if extra_width else "")
            )
            lines.append(Content.styled(text.rstrip(), self.get_visual_style("bar-rows--heading")))
        for row in rows:
            tone = f"bar-rows--{row.tone}" if row.tone in self.TONES else "bar-rows--bar"
            label = fit_cell(clean(row.label, limit=DISPLAY_LIMIT), label_width)
            percent = None if row.value is None or row.scale <= 0 else row.value / row.scale * 100
            fill = None
            if textured:
                fill = texture(score_tier(percent)) if row.tone in SCORE_TONES else PLAIN_TEXTURE
            filled, empty = bar_cells(percent, bar_width, fill)
            cells = [(filled, self.get_visual_style(tone))] if filled else []
            cells.append((empty, track_style))
            extra = " " * 2 + row.extra.rjust(extra_width) if extra_width else ""
            lines.append(
                Content.assemble(
                    (label + " ", label_style),
                    *(Content.styled(text, style) for text, style in cells if text),
                    (" " + row.text.rjust(value_width) + extra, value_style),
                )
            )
        return Content("\n").join(lines)

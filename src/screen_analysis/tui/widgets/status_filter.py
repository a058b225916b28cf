"""The status filter bar: All · Pending · Processing · Completed · Failed, with totals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.api.models import AnalysisStatus

CHOICES: tuple[tuple[AnalysisStatus | None, str], ...] = (
    (None, "All"),
    (AnalysisStatus.PENDING, "Pending"),
    (AnalysisStatus.PROCESSING, "Processing"),
    (AnalysisStatus.COMPLETED, "Completed"),
    (AnalysisStatus.FAILED, "Failed"),
)
SEPARATOR = "·"


SHORT_WORDS = ("All", "Pend", "Proc", "Done", "Fail")


def choice_texts(
    counts: Mapping[AnalysisStatus | None, int],
    *,
    keys: bool = True,
    with_counts: bool = True,
    short: bool = False,
) -> list[str]:
    """The text of each choice: its key, its word and, when known, its total."""
    texts = []
    for number, ((status, word), short_word) in enumerate(
        zip(CHOICES, SHORT_WORDS, strict=True), start=1
    ):
        text = short_word if short else word
        if keys:
            text = f"{number} {text}"
        if with_counts and status in counts:
            text += f" {counts[status]:,}"
        texts.append(text)
    return texts


def line_width(texts: list[str]) -> int:
    """Cells taken by the choices (each padded by a space) and the separators."""
    return sum(cell_len(t) + 2 for t in texts) + cell_len(SEPARATOR) * (len(texts) - 1)


def fitting_texts(counts: Mapping[AnalysisStatus | None, int], width: int) -> list[str]:
    """The richest form of the choices that fits in `width` cells (totals go before words)."""
    forms = (
        {"keys": True, "with_counts": True},
        {"keys": False, "with_counts": True},
        {"keys": True, "with_counts": False},
        {"keys": False, "with_counts": False},
        {"keys": False, "with_counts": True, "short": True},
    )
    for form in forms:
        texts = choice_texts(counts, **form)
        if line_width(texts) <= width:
            return texts
    return choice_texts(counts, keys=False, with_counts=False, short=True)


class StatusFilter(Widget):
    """One line of status choices; the screen sets `current` and `counts`, clicks post `Chosen`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "status-filter--active",
        "status-filter--separator",
    }

    DEFAULT_CSS = """
    StatusFilter {
        height: 1;
        text-wrap: nowrap;
        text-overflow: clip;
        background: $panel;
        color: $foreground-muted;
        & > .status-filter--active {
            background: $primary;
            color: $text;
            text-style: bold;
        }
        & > .status-filter--separator { color: $foreground-disabled; }
    }
    """

    current: reactive[AnalysisStatus | None] = reactive(None)
    """The status shown (None: all)."""
    counts: reactive[dict[AnalysisStatus | None, int]] = reactive(dict, always_update=True)
    """Totals per status for the current project, where known."""

    class Chosen(Message):
        """The user clicked a status."""

        def __init__(self, status_filter: StatusFilter, status: AnalysisStatus | None) -> None:
            super().__init__()
            self.status_filter = status_filter
            self.status = status

        @property
        def control(self) -> StatusFilter:
            """The filter bar that posted the message."""
            return self.status_filter

    def __init__(self, *, id: str | None = None) -> None:
        """Create the bar with nothing known."""
        super().__init__(id=id)
        self._spans: list[tuple[int, int, AnalysisStatus | None]] = []

    def render(self) -> Content:
        """The choices, the current one highlighted."""
        texts = fitting_texts(self.counts, self.size.width)
        active = self.get_visual_style("status-filter--active")
        separator = Content.styled(SEPARATOR, self.get_visual_style("status-filter--separator"))
        parts: list[Content] = []
        self._spans = []
        x = 0
        for index, ((status, _word), text) in enumerate(zip(CHOICES, texts, strict=True)):
            if index:
                parts.append(separator)
                x += cell_len(SEPARATOR)
            chip = f" {text} "
            parts.append(Content.styled(chip, active) if status == self.current else Content(chip))
            self._spans.append((x, x + cell_len(chip), status))
            x += cell_len(chip)
        return Content("").join(parts)

    def on_click(self, event: events.Click) -> None:
        """A click on a choice posts `Chosen`."""
        for start, end, status in self._spans:
            if start <= event.x < end:
                event.stop()
                self.post_message(self.Chosen(self, status))
                return

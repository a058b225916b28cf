"""A horizontal bar for a score on the 0–100 scale, drawn to the widget's width."""

from __future__ import annotations

from typing import ClassVar

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

FULL = "█"
PARTIAL = " ▏▎▍▌▋▊▉"  # eighths of a cell
EMPTY = "·"
SCALE = 100.0


def bar_cells(value: float | None, width: int) -> tuple[str, str]:
    """The filled and the empty part of a bar `width` cells wide.

    Values below 0 draw an empty bar and values above 100 a full one: the number beside the
    bar tells the real value, the bar never grows past its width.
    """
    if width <= 0:
        return "", ""
    if value is None:
        return "", EMPTY * width
    fraction = min(max(float(value) / SCALE, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, rest = divmod(eighths, 8)
    filled = FULL * full + (PARTIAL[rest] if rest else "")
    return filled, EMPTY * (width - len(filled))


def score_tier(value: float | None) -> str:
    """The CSS class for a score: -high, -mid, -low, -none or -out-of-range."""
    if value is None:
        return "-none"
    if not 0 <= value <= SCALE:
        return "-out-of-range"
    if value >= 80:
        return "-high"
    if value >= 50:
        return "-mid"
    return "-low"


class ScoreBar(Widget):
    """One score drawn as a bar; its colour comes from the tier class (theme variables)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"score-bar--empty"}

    DEFAULT_CSS = """
    ScoreBar {
        height: 1;
        width: 1fr;
        min-width: 4;
        color: $score-bar-fill;
        &.-high { color: $score-good; }
        &.-mid { color: $score-fair; }
        &.-low { color: $score-poor; }
        &.-out-of-range { color: $status-unknown; }
        & > .score-bar--empty { color: $score-bar-empty; }
    }
    """

    value: reactive[float | None] = reactive(None)
    """The score; None draws an empty bar."""

    _TIERS: ClassVar[tuple[str, ...]] = ("-high", "-mid", "-low", "-none", "-out-of-range")

    def watch_value(self, value: float | None) -> None:
        """Colour by tier."""
        self.remove_class(*self._TIERS)
        self.add_class(score_tier(value))

    def render(self) -> Content:
        """The bar at the current width."""
        filled, empty = bar_cells(self.value, self.size.width)
        empty_style = self.get_visual_style("score-bar--empty")
        return Content(filled) + Content.styled(empty, empty_style)

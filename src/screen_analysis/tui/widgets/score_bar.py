"""A score on the 0–100 scale as a bar of cells, and its tier (which colour it gets)."""

from __future__ import annotations

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

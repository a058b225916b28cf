"""A score on the 0–100 scale as a bar of cells, and its tier (which colour it gets).

In full colour a bar is smooth (eighths of a cell) and its colour tells its tier. In 16
colours or without colour a theme's tier colours may come out alike (two reds, a grey), so
there a bar is drawn in whole cells of a shade that tells the tier by itself: denser is
better (`texture`).
"""

from __future__ import annotations

FULL = "█"
PARTIAL = " ▏▎▍▌▋▊▉"  # eighths of a cell
EMPTY = "·"
SCALE = 100.0
TEXTURES = {"-high": "▓", "-mid": "▒", "-low": "░"}
PLAIN_TEXTURE = "▓"  # a bar with no tier (a count)


def bar_cells(value: float | None, width: int, fill: str | None = None) -> tuple[str, str]:
    """The filled and the empty part of a bar `width` cells wide: smooth, or in whole cells
    of `fill` (a `texture`).

    Values below 0 draw an empty bar and values above 100 a full one: the number beside the
    bar tells the real value, the bar never grows past its width.
    """
    if width <= 0:
        return "", ""
    if value is None:
        return "", EMPTY * width
    fraction = min(max(float(value) / SCALE, 0.0), 1.0)
    if fill is not None:
        cells = round(fraction * width)
        return fill * cells, EMPTY * (width - cells)
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


def texture(tier: str) -> str:
    """The shade a bar of `tier` (a `score_tier`) is drawn in where colour cannot tell tiers
    apart."""
    return TEXTURES.get(tier, PLAIN_TEXTURE)

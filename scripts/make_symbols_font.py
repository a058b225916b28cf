"""Build the symbols font `serve`'s page uses beside Roboto Mono (which has no ●, ○, ◐, ▸,
arrows or the header's ⭘), so the browser needs no font from this machine or elsewhere.

A subset of DejaVu Sans Mono (free licence: see serve_page/symbols-LICENSE.txt), with ⭘
(U+2B58, which DejaVu lacks) drawn by its large circle ◯. Run once when the set changes:

    uv run --with fonttools python scripts/make_symbols_font.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
TARGET = Path(__file__).resolve().parents[1] / "src/screen_analysis/cli/serve_page/symbols.ttf"
RANGES = [(0x2190, 0x21FF), (0x2580, 0x259F), (0x25A0, 0x25FF), (0x2713, 0x2718)]
ALIASES = {0x2B58: 0x25EF}  # ⭘ heavy circle: drawn as ◯ large circle


def main() -> int:
    """Write serve_page/symbols.ttf from DejaVu Sans Mono."""
    font = TTFont(SOURCE)
    codepoints = [cp for first, last in RANGES for cp in range(first, last + 1)]
    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    for table in font["cmap"].tables:
        if table.isUnicode():
            for alias, target in ALIASES.items():
                table.cmap[alias] = table.cmap[target]
    font.save(TARGET)
    print(f"{TARGET}: {TARGET.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Peak memory while the app decodes a small PNG that declares 40 megapixels.

The file: 8000×5000 grey pixels, a few lines on a flat ground, about 60 KB (the largest
image the app accepts; one such image took the app to 384 MB). It is prepared for a box a
detail pane would give (200×100 pixels) and for a large one (a full-screen kitty image,
1600×1000), each in a fresh child process, whose peak resident size (`ru_maxrss`) is the
figure (the peak is started over after the child's imports, where Linux allows); the
baseline is the same child decoding the image whole, as Pillow does by default
(`Image.open(…).convert("RGB").resize(…, reducing_gap=3.0)`), the app's way before. The
child's size after its imports is reported beside them. Target: ≤ 150 MB.
"""

from __future__ import annotations

import contextlib
import io
import resource
from pathlib import Path
from typing import Any

from .fresh_process import in_fresh_process

TARGET_PEAK_MB = 150.0
SIZE = (8000, 5000)
BOXES = ((200, 100), (1600, 1000))


def bomb_png(mode: str = "L") -> bytes:
    """8000×5000 pixels in `mode`, vertical lines every 400 pixels: ~60 KB as grey."""
    from PIL import Image, ImageDraw

    image = Image.new(mode, SIZE, 0 if mode == "L" else (30, 40, 50))
    draw = ImageDraw.Draw(image)
    ink = 200 if mode == "L" else (200, 10, 10)
    for x in range(0, SIZE[0], 400):
        draw.line([(x, 0), (x, SIZE[1] - 1)], fill=ink, width=3)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def _status_mb(field: str) -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return None


def _reset_peak() -> None:
    """Start the peak over from the present size (Linux: clear_refs 5), so the figure is
    the decode's, not the child's start-up's; elsewhere the peak includes start-up."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_mb() -> float:
    peak = _status_mb("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _measure(data: bytes, box: tuple[int, int], whole: bool) -> dict[str, float]:
    """In the child: the size after the imports, then the peak while preparing the image."""
    from PIL import Image

    from screen_analysis.images.decode import fit, prepare

    _reset_peak()
    before = _status_mb("VmRSS") or 0.0
    if whole:
        opened = Image.open(io.BytesIO(data))
        opened.convert("RGB").resize(
            fit(opened.size, box), Image.Resampling.LANCZOS, reducing_gap=3.0
        )
    else:
        prepare(data, box)
    return {"before_mb": before, "peak_mb": _peak_mb()}


def measure(data: bytes, box: tuple[int, int], *, whole: bool = False) -> dict[str, float]:
    """The peak resident size of a fresh process preparing `data` for `box`."""
    return in_fresh_process(_measure, data, box, whole)


def run() -> dict[str, Any]:
    """Ours and the whole decode for each box; the targets."""
    data = bomb_png()
    runs: dict[str, Any] = {}
    for box in BOXES:
        ours = measure(data, box)
        whole = measure(data, box, whole=True)
        runs[f"{box[0]}x{box[1]}"] = {
            "ours_peak_mb": ours["peak_mb"],
            "whole_peak_mb": whole["peak_mb"],
            "after_imports_mb": ours["before_mb"],
            "ratio": ours["peak_mb"] / whole["peak_mb"],
        }
    worst = max(run["ours_peak_mb"] for run in runs.values())
    return {
        "file_bytes": len(data),
        "pixels": SIZE[0] * SIZE[1],
        "runs": runs,
        "targets": {f"peak ≤ {TARGET_PEAK_MB:g} MB": worst <= TARGET_PEAK_MB},
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))

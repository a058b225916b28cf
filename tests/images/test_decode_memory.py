"""An image is decoded no larger than the box it fills needs: a PNG of a few dozen kilobytes
that declares 40 megapixels stays far below its pixels' size, measured in a fresh process
(the figure of `benchmarks/decode_memory.py`)."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from benchmarks.decode_memory import TARGET_PEAK_MB, bomb_png, measure
from PIL import Image, ImageChops

from screen_analysis.images.decode import ImageDecodeError, fit, prepare
from screen_analysis.images.png_bands import png_layout

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("mode", ["L", "RGB"])
@pytest.mark.parametrize("box", [(200, 100), (1600, 1000)])
def test_a_small_png_declaring_40_megapixels_peaks_below_150_mb(
    mode: str, box: tuple[int, int]
) -> None:
    data = bomb_png(mode)
    assert len(data) < (64_000 if mode == "L" else 160_000)  # tiny files, huge images
    ours = measure(data, box)
    whole = measure(data, box, whole=True)
    assert ours["peak_mb"] <= TARGET_PEAK_MB, (ours, whole)
    assert ours["peak_mb"] <= whole["peak_mb"] / 3, (ours, whole)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("mode", ["1", "L", "LA", "P", "RGB", "RGBA", "I;16"])
def test_bands_give_the_pixels_a_whole_decode_gives(mode: str) -> None:
    """Read a band of rows at a time, the image comes out as Pillow's own whole decode and
    resize make it (16-bit grey is decoded whole)."""
    noise = Image.effect_noise((1203, 997), 64)
    image = noise.convert("RGB").convert(mode) if mode != "I;16" else noise.convert("I;16")
    data = _png(image)
    for box in ((90, 60), (400, 300), (1203, 997)):
        ours = prepare(data, box)
        opened = Image.open(io.BytesIO(data))
        theirs = opened.convert("RGB").resize(
            fit(opened.size, box), Image.Resampling.LANCZOS, reducing_gap=3.0
        )
        assert ImageChops.difference(ours, theirs).getbbox() is None, (mode, box)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@pytest.mark.parametrize("keep", [0.5, 0.0])
def test_a_pixel_stream_that_ends_early_is_a_damaged_image(keep: float) -> None:
    """Sound chunks, but the rows' zlib stream stops half-way (or holds nothing)."""
    data = _png(Image.effect_noise((600, 400), 64).convert("RGB"))
    layout = png_layout(data)
    assert layout is not None
    cut = layout.pixels[: int(len(layout.pixels) * keep)] or zlib.compress(b"")
    header = data[: data.index(b"IDAT") - 4]
    broken = header + _chunk(b"IDAT", cut) + _chunk(b"IEND", b"")
    with pytest.raises(ImageDecodeError, match="damaged image"):
        prepare(broken, (60, 40))


def test_what_must_be_decoded_whole_is_refused_past_the_budget() -> None:
    """16-bit grey cannot be read in bands: 40 MP of it (80 MB) is more than may be decoded
    whole, and is refused before any pixel is read."""
    data = _png(Image.new("I;16", (8000, 5000)))
    with pytest.raises(ImageDecodeError, match="too large to decode whole"):
        prepare(data, (200, 100))

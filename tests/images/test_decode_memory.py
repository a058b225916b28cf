"""An image is decoded no larger than the box it fills needs: a PNG of a few dozen kilobytes
that declares 40 megapixels stays far below its pixels' size, measured in a fresh process
(the figure of `benchmarks/decode_memory.py`); the bands give a whole decode's pixels, and
what they cannot read (a stream cut short, chunks that do not add up) is left to it."""

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


def _grey_png() -> tuple[bytes, bytes]:
    """A small grey PNG, and its rows' zlib stream."""
    data = _png(Image.effect_noise((60, 40), 64).convert("L"))
    layout = png_layout(data)
    assert layout is not None
    return data, layout.pixels


def test_chunks_that_do_not_add_up_are_left_to_a_whole_decode() -> None:
    """Each is shown, or refused, as Pillow's whole decode finds it: an IHDR longer than its
    13 bytes and a file without IEND are shown; one cut off after a chunk's length and type
    is damaged."""
    data, pixels = _grey_png()
    header = struct.pack(">IIBBBBB", 60, 40, 8, 0, 0, 0, 0)
    long_header = data[:8] + _chunk(b"IHDR", header + b"\0") + _chunk(b"IDAT", pixels)
    assert prepare(long_header + _chunk(b"IEND", b""), (30, 20)).size == (30, 20)
    without_end = data[: -len(_chunk(b"IEND", b""))]
    assert prepare(without_end, (30, 20)).size == (30, 20)
    with pytest.raises(ImageDecodeError, match="damaged image"):
        prepare(without_end + b"\x00\x00\x00\x10IDAT", (30, 20))

"""Decoding and resizing with Pillow, refusing decompression bombs before any pixel is read,
and never decoding an image larger than the box it will fill needs.

CPU work: callers run `prepare` off the event loop (`asyncio.to_thread`). Peak memory for
the largest image allowed (40 megapixels) stays far below the whole image's pixels
(`benchmarks/decode_memory.py`).
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Iterator

from PIL import Image, UnidentifiedImageError

from screen_analysis.images.png_bands import png_bands, png_layout

# 40 megapixels: far above any screen capture, far below what would exhaust memory.
MAX_PIXELS = 40_000_000
BAND_PIXELS = 1_000_000  # pixels decoded at a time (4 MB as RGB)
MAX_BAND_BYTES = 64 * 1024 * 1024  # one band's rows at the least (an absurdly wide image)
WHOLE_DECODE_BYTES = 64 * 1024 * 1024  # what cannot be decoded in bands: 16 MP of RGB
REDUCING_GAP = 3.0  # the final Lanczos resize scales by at least this much
CANVAS_PIXELS = 4_000_000  # the reduced image before that resize, at most (16 MB as RGB)
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
# Pillow only warns between its two limits; a warning printed would land on the terminal.
warnings.filterwarnings("error", category=Image.DecompressionBombWarning)

Box = tuple[int, int]


class ImageDecodeError(ValueError):
    """Bytes that cannot become a picture; `reason` is a few words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def fit(size: Box, box: Box) -> Box:
    """`size` scaled to fit inside `box`, aspect kept (never below one pixel)."""
    width, height = size
    scale = min(box[0] / width, box[1] / height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def prepare(data: bytes, box: Box, *, max_pixels: int = MAX_PIXELS) -> Image.Image:
    """Decode `data` and scale it to fit `box` (aspect kept), as an RGB image.

    Never decoded larger than the box needs: a PNG a band of rows at a time (`png_bands`),
    a JPEG at a reduced scale (`draft`), each band reduced by whole factors on the way
    (`reduce`), and the small result resized to the box (Lanczos). What can only be decoded
    whole (WebP, GIF, an interlaced or 16-bit PNG) must fit `WHOLE_DECODE_BYTES`.

    Raises ImageDecodeError for an unknown format, a broken file, declared dimensions over
    `max_pixels` (checked from the header, before decoding), or a whole decode too large.
    """
    if box[0] < 1 or box[1] < 1:
        raise ImageDecodeError("no room to show it")
    try:
        opened = Image.open(io.BytesIO(data), formats=FORMATS)
        width, height = opened.size
        if width < 1 or height < 1 or width * height > max_pixels:
            raise ImageDecodeError(f"too large ({width}×{height} pixels)")
        target = fit((width, height), box)
        layout = png_layout(data) if opened.format == "PNG" else None
        if layout is not None:
            factor = _reduction(opened.size, target)
            bands = _with_palette(png_bands(layout, _band_rows(width, factor)), opened)
        else:
            opened.draft("RGB", target)  # JPEG decodes at a reduced scale directly
            _check_whole(opened)
            opened.load()
            factor = _reduction(opened.size, target)
            bands = _crops(opened, _band_rows(opened.width, factor))
        image = _reduced(bands, opened.size, factor)
        if image.size != target:
            # The part of the reduced image the whole one maps to, as Pillow's reducing_gap.
            area = (0, 0, opened.width / factor[0], opened.height / factor[1])
            image = image.resize(target, Image.Resampling.LANCZOS, box=area)
        return image
    except ImageDecodeError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageDecodeError("too large (decompression bomb)") from None
    except UnidentifiedImageError:
        raise ImageDecodeError("not an image") from None
    except (OSError, ValueError, SyntaxError, EOFError):
        raise ImageDecodeError("damaged image") from None


def _reduction(size: Box, target: Box) -> Box:
    """Whole factors to reduce by before the final resize: enough to leave that resize at
    least `REDUCING_GAP` times to do (as Pillow's own `reducing_gap`), and for the reduced
    image to hold at most `CANVAS_PIXELS` (a large box over a huge image), never below the
    box itself."""
    width, height = size
    floor = math.ceil(math.sqrt(width * height / CANVAS_PIXELS))
    return (
        max(1, min(max(floor, int(width / target[0] / REDUCING_GAP)), width // target[0])),
        max(1, min(max(floor, int(height / target[1] / REDUCING_GAP)), height // target[1])),
    )


def _band_rows(width: int, factor: Box) -> int:
    """Rows a band: a multiple of the vertical factor (no seam), about BAND_PIXELS."""
    if width * factor[1] * 4 > MAX_BAND_BYTES:
        raise ImageDecodeError(f"too large (rows of {width} pixels)")
    return factor[1] * max(1, BAND_PIXELS // (width * factor[1]))


def _check_whole(opened: Image.Image) -> None:
    """Refuse a whole decode larger than WHOLE_DECODE_BYTES (Pillow holds a pixel of more
    than one band, or of 32 bits, in 4 bytes)."""
    width, height = opened.size
    one = 1 if opened.mode in ("1", "L", "P") else 2 if opened.mode.startswith("I;16") else 4
    if width * height * one > WHOLE_DECODE_BYTES:
        raise ImageDecodeError(f"too large to decode whole ({width}×{height} pixels)")


def _with_palette(bands: Iterator[Image.Image], opened: Image.Image) -> Iterator[Image.Image]:
    palette = opened.getpalette() if opened.mode == "P" else None
    for band in bands:
        if palette is not None:
            band.putpalette(palette)
        yield band


def _crops(image: Image.Image, rows: int) -> Iterator[Image.Image]:
    for top in range(0, image.height, rows):
        yield image.crop((0, top, image.width, min(image.height, top + rows)))


def _reduced(bands: Iterator[Image.Image], size: Box, factor: Box) -> Image.Image:
    """The bands as RGB, each reduced by `factor` (box averages), stacked in one image."""
    width, height = size
    fx, fy = factor
    canvas = Image.new("RGB", (-(-width // fx), -(-height // fy)))
    top = 0
    for band in bands:
        rgb = band.convert("RGB")
        del band
        small = rgb.reduce(factor) if factor != (1, 1) else rgb
        del rgb
        canvas.paste(small, (0, top))
        top += small.height
    if top != canvas.height:
        raise ValueError("the bands do not add up to the image")
    return canvas

"""Decoding and resizing with Pillow, refusing decompression bombs before any pixel is read.

CPU work: callers run `prepare` off the event loop (`asyncio.to_thread`).
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, UnidentifiedImageError

# 40 megapixels: far above any screen capture, far below what would exhaust memory.
MAX_PIXELS = 40_000_000
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

    Raises ImageDecodeError for an unknown format, a broken file, or declared dimensions over
    `max_pixels` (checked from the header, before decoding).
    """
    if box[0] < 1 or box[1] < 1:
        raise ImageDecodeError("no room to show it")
    try:
        opened = Image.open(io.BytesIO(data), formats=FORMATS)
        width, height = opened.size
        if width < 1 or height < 1 or width * height > max_pixels:
            raise ImageDecodeError(f"too large ({width}×{height} pixels)")
        target = fit((width, height), box)
        opened.draft("RGB", target)  # JPEG decodes at a reduced scale directly
        image = opened.convert("RGB")
        if image.size != target:
            image = image.resize(target, Image.Resampling.LANCZOS, reducing_gap=3.0)
        return image
    except ImageDecodeError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageDecodeError("too large (decompression bomb)") from None
    except UnidentifiedImageError:
        raise ImageDecodeError("not an image") from None
    except (OSError, ValueError, SyntaxError, EOFError):
        raise ImageDecodeError("damaged image") from None

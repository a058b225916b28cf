"""A deterministic PNG per analysis: a plausible screen whose look follows its label and
its scores, and for a failed analysis a picture that agrees with its error message.

The label decides the kind of layout (a list, a form, a landing page, a dashboard, a
detail page or cards: `demo.layouts`), the proportions (desktop, tablet or mobile), a dark
variant and a mirrored right-to-left one; the scores decide how well it is done (see
`demo.painter`). A failed analysis shows what went wrong: nothing for "No screen content
detected", a 404 page for "HTTP 404", a screen that breaks into noise for "could not be
decoded", one that stops loading part way for "Timed out", a very tall page for "too
large", and a vector drawing on a transparent grid for the SVG format. Text is drawn as
bars, so no font is needed and the bytes are the same on every machine.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable

from PIL import Image, ImageOps

from screen_analysis.demo.layouts import LAYOUTS
from screen_analysis.demo.painter import DESKTOP, MOBILE, TABLET, Painter, ScreenStory, mix

__all__ = ["DESKTOP", "MOBILE", "TABLET", "ScreenStory", "draw_screen", "huge_png", "story_etag"]

TALL = 4  # "too large": a full-page capture this many screens tall


def story_etag(story: ScreenStory) -> str:
    """A strong validator: changes whenever what the picture is drawn from changes."""
    parts = [
        story.analysis_id,
        story.label,
        story.status,
        story.error or "",
        story.project_id,
        *(f"{k}={v}" for k, v in sorted(story.breakdown.items())),
    ]
    return '"' + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24] + '"'


def _screen(story: ScreenStory, size: tuple[int, int] | None = None) -> Image.Image:
    painter = Painter(story, size)
    LAYOUTS[story.kind](painter)
    return painter.image


def _blank(story: ScreenStory) -> Image.Image:
    """No screen content: an even, empty surface."""
    return Painter(story).image


def _not_found(story: ScreenStory) -> Image.Image:
    """A server's 404 page: "404" in large block digits, a line of text, a button home."""
    p = Painter(story)
    u, w, h = p.unit, p.width, p.height
    stroke = max(3, u)
    digit_w, digit_h = 5 * stroke, 8 * stroke
    left = (w - 3 * digit_w - 2 * stroke) // 2
    top = h // 4
    colour = p.muted
    for index, digit in enumerate("404"):
        x = left + index * (digit_w + stroke)
        if digit == "0":
            p.box((x, top, x + digit_w, top + digit_h), fill=colour)
            p.box(
                (x + stroke, top + stroke, x + digit_w - stroke, top + digit_h - stroke),
                fill=p.background,
            )
        else:
            p.box((x, top, x + stroke, top + digit_h // 2 + stroke), fill=colour)
            p.box((x, top + digit_h // 2, x + digit_w, top + digit_h // 2 + stroke), fill=colour)
            p.box((x + digit_w - 2 * stroke, top, x + digit_w - stroke, top + digit_h), fill=colour)
    y = p.text_lines(w // 4, top + digit_h + 2 * u, w // 2, 1, p.body) + u
    p.button((w - 8 * u) // 2, y, 0.6)
    return p.image


def _corrupt(story: ScreenStory) -> Image.Image:
    """Could not be decoded: the screen breaks into shifted, wrongly coloured bands."""
    image = _screen(story)
    p = Painter(story)
    width, height = image.size
    start = int(height * p.rng.uniform(0.25, 0.45))
    y = start
    while y < height:
        band = p.rng.randint(2, max(3, height // 25))
        shift = p.rng.randint(-width // 3, width // 3)
        strip = image.crop((0, y, width, min(height, y + band)))
        strip = ImageOps.posterize(strip, 2) if p.rng.random() < 0.5 else strip
        image.paste(strip, (shift, y))
        if p.rng.random() < 0.35:
            tone = (p.rng.randint(0, 255), p.rng.randint(0, 255), p.rng.randint(0, 255))
            image.paste(tone, (0, y, width, min(height, y + band)))
        y += band
    return image


def _timed_out(story: ScreenStory) -> Image.Image:
    """Timed out fetching: the screen arrived only part of the way down; grey below."""
    image = _screen(story)
    p = Painter(story)
    cut = int(image.height * p.rng.uniform(0.3, 0.6))
    image.paste(mix(p.background, p.text, 0.2), (0, cut, image.width, image.height))
    return image


def _too_large(story: ScreenStory) -> Image.Image:
    """Too large: a full-page capture many screens tall."""
    width, height = story.size
    return _screen(story, (width, height * TALL))


def _vector(story: ScreenStory) -> Image.Image:
    """An SVG, not a screen: a logo drawn on the grid that stands for transparency."""
    p = Painter(story)
    u, w, h = p.unit, p.width, p.height
    light, dark = (236, 236, 236), (204, 204, 204)
    for row in range(0, h, 2 * u):
        for column in range(0, w, 2 * u):
            tone = light if (row // (2 * u) + column // (2 * u)) % 2 else dark
            p.box((column, row, column + 2 * u, row + 2 * u), fill=tone)
    size = min(w, h) // 2
    x, y = (w - size) // 2, (h - size) // 2
    p.draw.ellipse((x, y, x + size, y + size), fill=p.accent())
    p.draw.polygon(
        [
            (x + size // 2, y + size // 5),
            (x + size // 5, y + 4 * size // 5),
            (x + 4 * size // 5, y + 4 * size // 5),
        ],
        fill=p.background,
    )
    return p.image


# What a failed analysis shows, by the words of its error message.
FAILURE_PICTURES: tuple[tuple[str, Callable[[ScreenStory], Image.Image]], ...] = (
    ("no screen content", _blank),
    ("http 404", _not_found),
    ("could not be decoded", _corrupt),
    ("timed out", _timed_out),
    ("too large", _too_large),
    ("svg", _vector),
)


def picture(story: ScreenStory) -> Image.Image:
    """The picture of `story`: its screen, or what its failure looked like."""
    error = (story.error or "").lower() if story.status == "failed" else ""
    draw = next((draw for words, draw in FAILURE_PICTURES if words in error), _screen)
    image = draw(story)
    if story.rtl and draw is _screen:
        image = ImageOps.mirror(image)
    return image


def draw_screen(story: ScreenStory) -> bytes:
    """The PNG bytes of `story`'s picture (the same bytes for the same story)."""
    buffer = io.BytesIO()
    picture(story).save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def huge_png(width: int = 100_000, height: int = 100_000) -> bytes:
    """A tiny PNG whose header declares `width`×`height` pixels: a decompression bomb."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\0" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )

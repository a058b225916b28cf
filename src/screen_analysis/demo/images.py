"""A deterministic PNG per analysis: a plausible screen whose look follows its scores.

The picture and the numbers tell the same story: low colour contrast draws a washed-out
palette, low CTA effectiveness a small grey button, low hierarchy uniform text sizes, low
clarity a cluttered, misaligned layout, low brand consistency a different hue on every
element. The label decides the proportions (desktop, tablet or mobile) and a dark variant.
Text is drawn as bars, so no font is needed and the bytes are the same on every machine.
"""

from __future__ import annotations

import colorsys
import hashlib
import io
import random
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

# Pixel sizes kept small: enough for a terminal, cheap to draw and to send.
DESKTOP = (640, 400)
TABLET = (384, 512)
MOBILE = (234, 480)
NEUTRAL = 62  # scores assumed for analyses that have none (pending, processing, failed)

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class ScreenStory:
    """What the picture is drawn from: the label, and the score per criterion."""

    analysis_id: str
    label: str
    breakdown: Mapping[str, int | None]

    def score(self, criterion: str) -> int:
        """The criterion's score, clamped to 0–100 (a neutral value when there is none)."""
        value = self.breakdown.get(criterion)
        return NEUTRAL if value is None else max(0, min(100, int(value)))

    @property
    def size(self) -> tuple[int, int]:
        """Pixel size from the label's platform."""
        lowered = self.label.lower()
        if "mobile" in lowered:
            return MOBILE
        if "tablet" in lowered:
            return TABLET
        return DESKTOP

    @property
    def dark(self) -> bool:
        """Whether the label asks for the dark variant."""
        return "dark" in self.label.lower()


def story_etag(story: ScreenStory) -> str:
    """A strong validator: changes whenever what the picture is drawn from changes."""
    parts = [
        story.analysis_id,
        story.label,
        *(f"{k}={v}" for k, v in sorted(story.breakdown.items())),
    ]
    return '"' + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24] + '"'


def _hue_rgb(hue: float, saturation: float, value: float) -> RGB:
    red, green, blue = colorsys.hsv_to_rgb(hue % 1.0, saturation, value)
    return int(red * 255), int(green * 255), int(blue * 255)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


class _Painter:
    """Draws one screen; every choice comes from the story and a generator seeded by its id."""

    def __init__(self, story: ScreenStory) -> None:
        self.story = story
        seed = int.from_bytes(hashlib.sha256(story.analysis_id.encode()).digest()[:8], "big")
        self.rng = random.Random(seed)
        self.width, self.height = story.size
        self.unit = max(4, self.width // 40)
        self.brand_hue = self.rng.random()
        self.background: RGB = (24, 26, 32) if story.dark else (246, 246, 242)
        strong: RGB = (235, 235, 235) if story.dark else (28, 30, 36)
        # Contrast 100 keeps the text colour; contrast 0 fades it into the background.
        fade = (100 - story.score("color_contrast")) / 100 * 0.85
        self.text = _mix(strong, self.background, fade)
        self.image = Image.new("RGB", (self.width, self.height), self.background)
        self.draw = ImageDraw.Draw(self.image)

    def accent(self) -> RGB:
        """The brand colour, or (low consistency) a different hue each time."""
        consistency = self.story.score("brand_consistency") / 100
        drift = (1 - consistency) * self.rng.uniform(-0.5, 0.5)
        saturation = 0.35 + 0.5 * (self.story.score("color_contrast") / 100)
        return _hue_rgb(self.brand_hue + drift, saturation, 0.85 if self.story.dark else 0.75)

    def jitter(self) -> int:
        """Misalignment grows as clarity falls."""
        spread = (100 - self.story.score("visual_clarity")) / 100 * self.unit * 1.5
        return int(self.rng.uniform(-spread, spread))

    def text_lines(self, x: int, y: int, width: int, lines: int, height: int) -> int:
        """Bars standing for text; returns the y below them."""
        for _ in range(lines):
            length = int(width * self.rng.uniform(0.55, 1.0))
            self.draw.rectangle((x + self.jitter(), y, x + length, y + height), fill=self.text)
            y += height + max(2, height // 2 + 1)
        return y

    def paint(self) -> Image.Image:
        """The whole screen: nav bar, headline, body text, call to action, cards or a form."""
        u, w = self.unit, self.width
        self.draw.rectangle((0, 0, w, 3 * u), fill=self.accent())
        for index in range(3 if w < 400 else 5):
            x = w - (index + 1) * 7 * u
            if x > 8 * u:
                self.draw.rectangle((x, u + 2, x + 5 * u, 2 * u - 2), fill=self.background)
        self.draw.rectangle((u, u, 5 * u, 2 * u), fill=self.background)
        hierarchy = self.story.score("visual_hierarchy") / 100
        body = max(3, u // 2)
        headline = int(body + hierarchy * 2.5 * u)
        y = 5 * u
        y = self.text_lines(2 * u, y, int(w * (0.45 + 0.3 * hierarchy)), 1, headline) + u // 2
        y = self.text_lines(2 * u, y, int(w * 0.6), 2 if w < 400 else 3, body) + u
        y = self.call_to_action(y)
        if self.rng.random() < 0.4:
            self.form(y + u)
        else:
            self.cards(y + u)
        return self.image

    def call_to_action(self, y: int) -> int:
        """The button: large and saturated when effective, small and grey when not."""
        cta = self.story.score("cta_effectiveness") / 100
        width = int(self.unit * (4 + 10 * cta))
        height = int(self.unit * (1 + 1.5 * cta))
        grey = _mix(self.background, self.text, 0.35)
        fill = _mix(grey, self.accent(), cta)
        x = 2 * self.unit + self.jitter()
        self.draw.rounded_rectangle((x, y, x + width, y + height), radius=3, fill=fill)
        return y + height

    def cards(self, y: int) -> None:
        """Rows of cards, each with an image block and two lines, down to the bottom."""
        u, w = self.unit, self.width
        count = 2 if w < 400 else 4
        card_w = (w - 4 * u - (count - 1) * u) // count
        card_h = int(card_w * 1.1)
        surface = _mix(self.background, self.text, 0.12)
        while y + card_h // 2 < self.height - u:
            for index in range(count):
                x = 2 * u + index * (card_w + u) + self.jitter()
                top = y + self.jitter()
                self.draw.rectangle((x, top, x + card_w, top + card_h), fill=surface)
                self.draw.rectangle(
                    (x + 4, top + 4, x + card_w - 4, top + card_h // 2), fill=self.accent()
                )
                self.text_lines(x + 6, top + card_h // 2 + 6, card_w - 12, 2, max(3, u // 2))
            y += card_h + u

    def form(self, y: int) -> None:
        """Labelled fields and a submit line."""
        u = self.unit
        field_w = int(self.width * 0.55)
        outline = _mix(self.background, self.text, 0.5)
        while y + 3 * u < self.height - u:
            self.text_lines(2 * u, y, field_w // 3, 1, max(3, u // 2))
            top = y + u
            self.draw.rectangle((2 * u, top, 2 * u + field_w, top + int(1.6 * u)), outline=outline)
            y = top + 3 * u


def draw_screen(story: ScreenStory) -> bytes:
    """The PNG bytes of `story`'s screen (the same bytes for the same story)."""
    buffer = io.BytesIO()
    _Painter(story).paint().save(buffer, format="PNG", compress_level=6)
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

"""What a demo screen is drawn from (`ScreenStory`), and the pen that draws it (`Painter`).

Every choice comes from the story and a generator seeded by the analysis id, so the same
story always gives the same bytes. The scores show in every part the pen draws: low colour
contrast fades the text into the background, low CTA effectiveness makes a small grey
button, low hierarchy a headline no bigger than the body, low clarity a misaligned layout,
low brand consistency a different hue on every element. Text is drawn as bars, so no font
is needed.
"""

from __future__ import annotations

import colorsys
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from screen_analysis.demo.vocabulary import screen_kind

# Pixel sizes kept small: enough for a terminal, cheap to draw and to send.
DESKTOP = (640, 400)
TABLET = (384, 512)
MOBILE = (234, 480)
NEUTRAL = 62  # scores assumed for analyses that have none (pending, processing, failed)

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class ScreenStory:
    """What the picture is drawn from: the label, the score per criterion, the project (its
    brand colour), and for a failed analysis its error message (the picture shows what
    went wrong)."""

    analysis_id: str
    label: str
    breakdown: Mapping[str, int | None]
    status: str = "completed"
    error: str | None = None
    project_id: str = ""  # a product's screens share its brand colour

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

    @property
    def rtl(self) -> bool:
        """Whether the label asks for a right-to-left layout (drawn mirrored)."""
        return "(rtl)" in self.label.lower()

    @property
    def kind(self) -> str:
        """The layout the label names: list, form, landing, dashboard, detail or cards."""
        return screen_kind(self.label)


def _hue_rgb(hue: float, saturation: float, value: float) -> RGB:
    red, green, blue = colorsys.hsv_to_rgb(hue % 1.0, saturation, value)
    return int(red * 255), int(green * 255), int(blue * 255)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved a fraction `t` of the way to `b`."""
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


class Painter:
    """One picture and the pen for it: colours, sizes and misalignment from the story."""

    def __init__(self, story: ScreenStory, size: tuple[int, int] | None = None) -> None:
        self.story = story
        seed = int.from_bytes(hashlib.sha256(story.analysis_id.encode()).digest()[:8], "big")
        self.rng = random.Random(seed)
        self.width, self.height = size or story.size
        self.unit = max(4, self.width // 40)
        self.mobile = self.width < 300
        brand = hashlib.sha256((story.project_id or story.analysis_id).encode()).digest()
        self.brand_hue = int.from_bytes(brand[:4], "big") / 2**32
        self.background: RGB = (24, 26, 32) if story.dark else (246, 246, 242)
        strong: RGB = (235, 235, 235) if story.dark else (28, 30, 36)
        # Contrast 100 keeps the text colour; contrast 0 fades it into the background.
        fade = (100 - story.score("color_contrast")) / 100 * 0.85
        self.text = mix(strong, self.background, fade)
        self.muted = mix(self.text, self.background, 0.45)
        self.surface = mix(self.background, self.text, 0.1)
        self.line = mix(self.background, self.text, 0.25)
        self.image = Image.new("RGB", (self.width, self.height), self.background)
        self.draw = ImageDraw.Draw(self.image)

    def accent(self) -> RGB:
        """The brand colour, or (low consistency) a different hue each time."""
        consistency = self.story.score("brand_consistency") / 100
        drift = (1 - consistency) * self.rng.uniform(-0.5, 0.5)
        saturation = 0.35 + 0.5 * (self.story.score("color_contrast") / 100)
        return _hue_rgb(self.brand_hue + drift, saturation, 0.85 if self.story.dark else 0.75)

    def tint(self) -> RGB:
        """A pale version of the brand colour, for large areas (a hero, an avatar)."""
        return mix(self.accent(), self.background, 0.6)

    def jitter(self) -> int:
        """Misalignment grows as clarity falls."""
        spread = (100 - self.story.score("visual_clarity")) / 100 * self.unit * 1.5
        return int(self.rng.uniform(-spread, spread))

    def box(self, box: Box, fill: RGB | None = None, outline: RGB | None = None) -> None:
        """A rectangle (corners in order whatever the jitter did)."""
        x0, y0, x1, y1 = box
        self.draw.rectangle(
            (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=fill, outline=outline
        )

    def text_lines(
        self, x: int, y: int, width: int, lines: int, height: int, colour: RGB | None = None
    ) -> int:
        """Bars standing for text; returns the y below them."""
        for _ in range(lines):
            length = int(width * self.rng.uniform(0.55, 1.0))
            self.box((x + self.jitter(), y, x + length, y + height), fill=colour or self.text)
            y += height + max(2, height // 2 + 1)
        return y

    @property
    def body(self) -> int:
        """The height of a line of body text."""
        return max(3, self.unit // 2)

    def headline(self, x: int, y: int, width: int) -> int:
        """The screen's title: as large as its hierarchy score allows; the y below it."""
        hierarchy = self.story.score("visual_hierarchy") / 100
        height = int(self.body + hierarchy * 2.2 * self.unit)
        length = int(width * (0.55 + 0.35 * hierarchy))
        return self.text_lines(x, y, length, 1, height) + self.unit // 2

    def button(self, x: int, y: int, scale: float = 1.0) -> Box:
        """The call to action: large and saturated when effective, small and grey when not."""
        cta = self.story.score("cta_effectiveness") / 100
        width = int(self.unit * (4 + 10 * cta) * scale)
        height = int(self.unit * (1 + 1.5 * cta))
        fill = mix(mix(self.background, self.text, 0.35), self.accent(), cta)
        x += self.jitter()
        self.draw.rounded_rectangle((x, y, x + width, y + height), radius=3, fill=fill)
        return (x, y, x + width, y + height)

    def nav_bar(self) -> int:
        """The bar across the top with a logo and menu entries; the y below it."""
        u, w = self.unit, self.width
        self.box((0, 0, w, 3 * u), fill=self.accent())
        for index in range(2 if self.mobile else 4):
            x = w - (index + 1) * 7 * u
            if x > 8 * u:
                self.box((x, u + 2, x + 5 * u, 2 * u - 2), fill=self.background)
        self.box((u, u, 5 * u, 2 * u), fill=self.background)
        return 3 * u

"""Two analyses side by side: their images, the overall score and each criterion with the
difference, and the feedback only in A, only in B and in both. Esc goes back.

Each side has a slot for the analysis's image: `image_slot` builds the widget that shows
it (the app's `ScreenImage` by default; `address_slot` names the address instead). The
images take the rows the window leaves: everything fits when there is room for images of
`MIN_ROWS_WITH_FEEDBACK` rows; otherwise the images shrink so that the score table (every
criterion) still fits on the screen, and the feedback is a scroll away.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from screen_analysis.api.models import Analysis
from screen_analysis.insight.compare import Comparison, compare
from screen_analysis.numbers import DASH
from screen_analysis.safe_text import DISPLAY_LIMIT, TITLE_LIMIT, clean
from screen_analysis.tui.formatting import Fitted, hanging, status_glyph, status_word
from screen_analysis.tui.screens.screen_keys import COMPARE_KEYS
from screen_analysis.tui.widgets.app_header import AppHeader
from screen_analysis.tui.widgets.diff_table import DiffTable
from screen_analysis.tui.widgets.key_bar import KeyBar
from screen_analysis.tui.widgets.screen_image import ScreenImage
from screen_analysis.words import local_time

MIN_IMAGE_ROWS = 3
MIN_ROWS_WITH_FEEDBACK = 10
MAX_IMAGE_ROWS = 40

ImageSlot = Callable[[Analysis], Widget]
"""Builds the widget that shows an analysis's image."""


def address_slot(item: Analysis) -> Widget:
    """The slot without an image widget: the image's address, literally."""
    text = clean(item.image_url, limit=DISPLAY_LIMIT) or "(no image address)"
    return Static(Content("Image: " + text), classes="image-address", markup=False)


def screen_image_slot(item: Analysis) -> Widget:
    """The slot with the app's image widget (the screen is asked for once it is mounted)."""
    return ScreenImage(classes="compare-image")


def sentences(items: Sequence[str], empty: str) -> Content | Fitted:
    """Feedback sentences as a list, literally, each one's wrapped lines under its text."""
    if not items:
        return Content(empty)
    texts = [clean(sentence, limit=DISPLAY_LIMIT) for sentence in items]
    return Fitted(lambda width: [line for text in texts for line in hanging("• ", text, width)])


class CompareScreen(Screen[None]):
    """A (the marked analysis) and B side by side."""

    BINDINGS: ClassVar[list[BindingType]] = COMPARE_KEYS

    DEFAULT_CSS = """
    CompareScreen {
        #compare-body { height: 1fr; padding: 0 1; }
        #sides { height: auto; }
        .side { width: 1fr; height: auto; margin-right: 1; }
        .side-title { color: $accent; text-style: bold; }
        .side-meta { color: $foreground-muted; }
        .image-slot { height: auto; min-height: 3; border: round $border-blurred; }
        .image-address { color: $foreground-muted; }
        .compare-image { height: 10; }
        .section-title { color: $accent; text-style: bold; margin-top: 1; }
        #feedback { height: auto; }
        .feedback-column { width: 1fr; height: auto; margin-right: 1; }
    }
    """

    def __init__(
        self, a: Analysis, b: Analysis, *, image_slot: ImageSlot = screen_image_slot
    ) -> None:
        """Compare `a` with `b`."""
        super().__init__()
        self.comparison: Comparison = compare(a, b)
        self._image_slot = image_slot

    def compose(self) -> ComposeResult:
        """Both sides, the scores, the feedback."""
        yield AppHeader()
        with VerticalScroll(id="compare-body"):
            with Horizontal(id="sides"):
                for key in ("a", "b"):
                    with Vertical(classes="side", id=f"side-{key}"):
                        yield Static(id=f"title-{key}", classes="side-title", markup=False)
                        yield Static(id=f"meta-{key}", classes="side-meta", markup=False)
                        yield Vertical(id=f"image-{key}", classes="image-slot")
            yield Static("Scores", classes="section-title")
            yield DiffTable(id="scores")
            yield Static(id="scores-note", classes="side-meta", markup=False)
            with Horizontal(id="feedback"):
                for key, title in (("a", "Only in A"), ("b", "Only in B"), ("both", "In both")):
                    with Vertical(classes="feedback-column"):
                        yield Static(title, classes="section-title")
                        yield Static(id=f"feedback-{key}", markup=False)
        yield KeyBar()

    async def on_mount(self) -> None:
        """Fill both sides."""
        self.sub_title = "Compare"
        await self._fill()

    async def _fill(self) -> None:
        result = self.comparison
        for key, item in (("a", result.a), ("b", result.b)):
            title = f"{key.upper()} · {clean(item.label, limit=TITLE_LIMIT) or DASH}"
            # Each part on a line of its own: a wrapped line never ends in a separator.
            meta = (
                f"{status_glyph(item.status)} {status_word(item.status)} · "
                f"{local_time(item.created_at)}\n{clean(item.id, limit=DISPLAY_LIMIT)}"
            )
            self.query_one(f"#title-{key}", Static).update(Content(title))
            self.query_one(f"#meta-{key}", Static).update(Content(meta))
            slot = self.query_one(f"#image-{key}", Vertical)
            await slot.remove_children()
            widget = self._image_slot(item)
            await slot.mount(widget)
            if isinstance(widget, ScreenImage):
                widget.show(item)
        self.call_after_refresh(self._fit_images)
        self.query_one(DiffTable).rows = (result.overall, *result.criteria)
        note = self.query_one("#scores-note", Static)
        note.update(Content(result.left_out() + " (shown as —)" if result.not_finite else ""))
        note.display = bool(result.not_finite)
        self.query_one("#feedback-a", Static).update(sentences(result.only_a, "Nothing."))
        self.query_one("#feedback-b", Static).update(sentences(result.only_b, "Nothing."))
        self.query_one("#feedback-both", Static).update(sentences(result.both, "Nothing shared."))

    def on_resize(self) -> None:
        """Size the images to the new window once it is laid out."""
        self.call_after_refresh(self._fit_images)

    def _fit_images(self) -> None:
        """Give both images the rows the rest leaves (see the module's docstring)."""
        images = list(self.query(".compare-image"))
        if not images:
            return
        body = self.query_one("#compare-body", VerticalScroll)
        current = images[0].outer_size.height
        room = body.scrollable_content_region.height
        bottoms = [child.virtual_region_with_margin.bottom for child in body.displayed_children]
        scores = self.query_one(DiffTable).virtual_region_with_margin.bottom
        everything = room - (max(bottoms, default=0) - current)
        up_to_scores = room - (scores - current)
        rows = everything if everything >= MIN_ROWS_WITH_FEEDBACK else up_to_scores
        rows = min(MAX_IMAGE_ROWS, max(MIN_IMAGE_ROWS, rows))
        for image in images:
            image.styles.height = rows

    async def action_swap(self) -> None:
        """Swap A and B (the differences change sign)."""
        self.comparison = compare(self.comparison.b, self.comparison.a)
        await self._fill()

    def action_back(self) -> None:
        """Back to where the comparison was opened."""
        self.dismiss(None)

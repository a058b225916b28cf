"""One analysis's screen as large as the terminal allows, its scores beside it; Esc goes back."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from screen_analysis.api.models import Analysis
from screen_analysis.numbers import DASH, format_score
from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.tui.formatting import status_glyph, status_word
from screen_analysis.tui.screens.screen_keys import IMAGE_VIEW_KEYS
from screen_analysis.tui.themes import low_colour
from screen_analysis.tui.widgets import detail_text
from screen_analysis.tui.widgets.analysis_detail import DetailText
from screen_analysis.tui.widgets.key_bar import KeyBar
from screen_analysis.tui.widgets.screen_image import ImagePreviews, ScreenImage


class ImageView(Screen[None]):
    """The image full screen, with the label, the overall score and the breakdown."""

    BINDINGS: ClassVar[list[BindingType]] = IMAGE_VIEW_KEYS

    DEFAULT_CSS = """
    ImageView {
        & #image-view-body { height: 1fr; }
        & #image-view-image { width: 1fr; height: 1fr; padding: 0 1; }
        & #image-view-side {
            width: 36;
            height: 1fr;
            padding: 0 1;
            border-left: vkey $border-blurred;
        }
        & #image-view-label { text-style: bold; }
        & #image-view-score { margin-bottom: 1; color: $foreground-muted; }
    }
    ImageView.-narrow {
        & #image-view-body { layout: vertical; }
        & #image-view-side { width: 1fr; height: auto; border-left: none; }
    }
    """

    def __init__(self, item: Analysis, previews: ImagePreviews | None = None) -> None:
        """Show `item`'s image through `previews` (None: the app's)."""
        super().__init__()
        self.item = item
        self._previews = previews

    def compose(self) -> ComposeResult:
        """The image, then the side panel with the scores."""
        with Horizontal(id="image-view-body"):
            yield ScreenImage(self._previews, settle_s=0.0, id="image-view-image")
            with Vertical(id="image-view-side"):
                label = clean(self.item.label, limit=DISPLAY_LIMIT) or "(no label)"
                yield Static(Content(label), id="image-view-label")
                yield Static(Content(self._score_line()), id="image-view-score")
                yield DetailText(self._scores, id="image-view-scores")
        yield KeyBar()

    def _score_line(self) -> str:
        item = self.item
        status = f"{status_glyph(item.status)} {status_word(item.status)}"
        score = DASH if item.score is None else format_score(item.score)
        return f"{status} · score {score}"

    def _scores(self, width: int) -> Content:
        breakdown = self.item.breakdown or {}
        textured = low_colour(self.app)
        lines = detail_text.criteria_lines(
            breakdown, {}, width, show_weights=False, textured=textured
        )
        return Content("\n").join(lines)

    def on_mount(self) -> None:
        """Ask for the image."""
        self.query_one(ScreenImage).show(self.item)

    def on_resize(self) -> None:
        """Below 100 columns the scores go under the image."""
        self.set_class(self.size.width < 100, "-narrow")

    def action_back(self) -> None:
        """Back to where the image was opened from."""
        self.dismiss(None)

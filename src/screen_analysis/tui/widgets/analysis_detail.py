"""The detail pane: one analysis, its score per criterion, feedback, times and ids.

Three widgets: the label and status, the screen image, and the rest as one text
(`detail_text` builds both texts from the analysis). A pane of a few widgets is quick to
build and to restyle, which the first screen of the app waits for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.tui.project_book import KnownProject
from screen_analysis.tui.widgets import detail_text
from screen_analysis.tui.widgets.screen_image import ImagePreviews, ScreenImage


class DetailText(Widget):
    """Text drawn by `build(width)` at the widget's width (the bars fill what there is)."""

    DEFAULT_CSS = "DetailText { height: auto; width: 1fr; }"

    def __init__(self, build: Callable[[int], Content], *, id: str | None = None) -> None:
        """Draw what `build` returns for the current width."""
        super().__init__(id=id)
        self._build = build

    def render(self) -> Content:
        """The text for the current width."""
        return self._build(self.size.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The lines the text takes at `width` (built for that width: the bars fit)."""
        return self._build(width).get_height(self.styles.get_rules(), width) if width else 0

    @property
    def text(self) -> str:
        """The text as shown, without styles (for tests and copying)."""
        return self._build(self.size.width).plain


class AnalysisDetail(VerticalScroll, can_focus=True):
    """Everything known about the highlighted analysis; nothing invented for missing values."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Scroll down", show=False, id="detail-down"),
        Binding("k", "scroll_up", "Scroll up", show=False, id="detail-up"),
    ]

    DEFAULT_CSS = """
    AnalysisDetail {
        padding: 0 1;
        & > #detail-image { height: 14; margin-top: 1; }
    }
    """

    def __init__(
        self,
        previews: ImagePreviews | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """The pane; images through `previews` (None: the app's)."""
        super().__init__(id=id, classes=classes)
        self._previews = previews
        self.item: AnalysisItem | None = None
        self.project: KnownProject | None = None

    def compose(self) -> ComposeResult:
        """Label and status, the image, the rest."""
        yield DetailText(lambda _width: detail_text.head(self.item), id="detail-head")
        yield ScreenImage(self._previews, id="detail-image")
        yield DetailText(self._body, id="detail-body")

    def on_mount(self) -> None:
        """Start empty."""
        self.query_one(ScreenImage).show(None)

    def show(self, item: AnalysisItem | None, project: KnownProject | None) -> None:
        """Show `item` (None: nothing highlighted) with what is known of its project."""
        self.item, self.project = item, project
        for text in self.query(DetailText):
            text.refresh(layout=True)
        self.query_one(ScreenImage).show(item if isinstance(item, Analysis) else None)
        self.scroll_home(animate=False)

    def _body(self, width: int) -> Content:
        item = self.item
        address = ""
        if isinstance(item, Analysis):
            address = item.image_url or ""
            previews = self.query_one(ScreenImage).previews
            if previews is not None:
                address = previews.display_url(address)
        return detail_text.body(item, self.project, address, width)

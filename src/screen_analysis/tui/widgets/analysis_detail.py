"""The detail pane: one analysis, its score per criterion, its screen, feedback, times, ids.

Four widgets: the label and status, the scores, the screen image, and the rest as one text
(`detail_text` builds the texts from the analysis). The scores come before the image, so
at 80×24 they are on screen without scrolling; the image is capped at a third of the
height there. A pane of a few widgets is quick to build and to restyle, which the first
screen of the app waits for. Its width is a share of the screen the user sets with `<`/`>`
(remembered in the layout file, read and written off the event loop).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.state import LayoutPreferences
from screen_analysis.tui.keys import bound_keys
from screen_analysis.tui.project_book import KnownProject
from screen_analysis.tui.themes import low_colour
from screen_analysis.tui.widgets import detail_text
from screen_analysis.tui.widgets.screen_image import ImagePreviews, ScreenImage

TITLE_MARGIN = 2  # the title's corner and spaces take this much of the pane's width
WIDTH_STEP = 5  # percent of the screen per `<` or `>`
WIDTHS = range(25, 65, WIDTH_STEP)  # the shares the pane may take, in percent
DEFAULT_WIDTH = 40
# The keys that show the image, by binding id, and what each does (under its address).
IMAGE_KEYS = {"image": "full screen", "open-image": "in a browser", "copy-url": "copies the URL"}


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
        & > #detail-image { height: 14; max-height: 33vh; margin-top: 1; }
    }
    """

    def __init__(
        self,
        previews: ImagePreviews | None = None,
        *,
        state_path: Path | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """The pane; images through `previews` (None: no images); its width is kept in
        `state_path`'s folder."""
        super().__init__(id=id, classes=classes)
        self._previews = previews
        self._state_path = state_path
        self._preferences: LayoutPreferences | None = None
        self.item: AnalysisItem | None = None
        self.project: KnownProject | None = None
        self.width_percent = DEFAULT_WIDTH
        self._applied: str | None = "unset"
        self._keys: list[str] | None = None  # the image's keys, read again when bindings change

    def compose(self) -> ComposeResult:
        """Label and status, the scores, the image, the rest."""
        yield DetailText(self._head, id="detail-head")
        yield DetailText(self._scores, id="detail-scores")
        yield ScreenImage(self._previews, id="detail-image")
        yield DetailText(self._rest, id="detail-body")

    def on_mount(self) -> None:
        """Start empty, at the default width; read the width the user chose; follow the
        screen's layout (below 120 columns the screen's style decides the width)."""
        self.query_one(ScreenImage).show(None)
        self.screen.screen_layout_refresh_signal.subscribe(self, lambda _s: self._apply_width())
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._apply_width()
        if self._state_path is not None:
            self._read_width(self._state_path)

    def show(self, item: AnalysisItem | None, project: KnownProject | None) -> None:
        """Show `item` (None: nothing highlighted) with what is known of its project; the
        reader's place is kept when it is the same analysis (a newer copy of it)."""
        same = item is not None and self.item is not None and item.id == self.item.id
        self.item, self.project = item, project
        for text in self.query(DetailText):
            text.refresh(layout=True)
        self.query_one(ScreenImage).show(item if isinstance(item, Analysis) else None)
        label = ""
        if isinstance(item, Analysis):
            label = clean(item.label, limit=DISPLAY_LIMIT) or "(no label)"
        self.border_title = Content(label or "Detail")
        if not same:
            self.scroll_home(animate=False)

    def mark_offline(self, words: str) -> None:
        """Say in the lower border that the server cannot be reached and how old what is
        shown is ("offline · data from 15:47"): at 80×24 the detail hides the status line
        that says so. "" takes the words away."""
        self.border_subtitle = Content(words)

    # Width

    def widen(self, step: int) -> None:
        """Take `step` more percent of the screen (less when negative), within bounds, and
        remember it."""
        wanted = self.width_percent + step
        if wanted not in WIDTHS or wanted == self.width_percent:
            return
        self.width_percent = wanted
        self._apply_width()
        if self._preferences is not None:
            self._remember_width(self._preferences, wanted)

    def on_unmount(self) -> None:
        """Stop following the screen's layout and its bindings."""
        self.screen.screen_layout_refresh_signal.unsubscribe(self)
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: object) -> None:
        """The keys that show the image are read again at the next paint (a remap, focus)."""
        if self._keys is not None:
            self._keys = None
            self.query_one("#detail-body", DetailText).refresh(layout=True)

    def _apply_width(self) -> None:
        width = None if self.screen.has_class("-narrow") else f"{self.width_percent}%"
        if width != self._applied:  # setting it lays the screen out again: once is enough
            self._applied = width
            self.styles.width = width

    @work(group="detail-file", exit_on_error=False)
    async def _read_width(self, state_path: Path) -> None:
        preferences = await asyncio.to_thread(LayoutPreferences, state_path)
        self._preferences = preferences
        chosen = preferences.detail_width
        if chosen is not None and chosen in WIDTHS:
            self.width_percent = chosen
            self._apply_width()

    @work(group="detail-file", exit_on_error=False)
    async def _remember_width(self, preferences: LayoutPreferences, percent: int) -> None:
        await asyncio.to_thread(preferences.remember_detail_width, percent)

    # Texts

    def _address(self) -> str:
        item = self.item
        if not isinstance(item, Analysis):
            return ""
        address = item.image_url or ""
        previews = self.query_one(ScreenImage).previews
        return previews.display_url(address) if previews is not None else address

    def _head(self, width: int) -> Content:
        # The title shows the label; a label longer than the title has room for is written
        # out here too, so it is read whole.
        cut = isinstance(self.item, Analysis) and cell_len(self.label) > width - TITLE_MARGIN
        return detail_text.head(self.item, with_label=cut)

    @property
    def label(self) -> str:
        """The label of the analysis shown, as its title shows it ("" when none is)."""
        return str(self.border_title) if isinstance(self.item, Analysis) else ""

    def _scores(self, width: int) -> Content:
        textured = low_colour(self.app)
        return detail_text.scores(self.item, self.project, width, textured=textured)

    def _rest(self, width: int) -> Content:
        if self._keys is None:
            self._keys = self._image_keys()
        return detail_text.rest(self.item, self.project, self._address(), width, self._keys)

    def _image_keys(self) -> list[str]:
        """How to see the image, with the keys bound now: "i full screen", "o in a
        browser", "Y copies the URL" (full screen only when images are drawn)."""
        keys = bound_keys(self.screen, IMAGE_KEYS)
        drawn = self._previews is not None and self._previews.graphics.enabled
        return [
            f"{keys[name]} {words}"
            for name, words in IMAGE_KEYS.items()
            if name in keys and (drawn or name != "image")
        ]

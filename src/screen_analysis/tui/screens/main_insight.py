"""What the main screen offers stakeholders: the overview of the project shown (`v`), and
two analyses compared (`m` marks the highlighted one, `c` on another opens them side by
side; the mark shows in the table).

A part the screen composes (through `HighlightActions`), not a base class. The overview and
compare screens are imported when first opened: the app's first screen needs neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from screen_analysis.api.models import Analysis
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import now_utc

COMPARE_IMAGE_ROWS = 12  # each side's picture, in rows of half-cell blocks

if TYPE_CHECKING:
    from textual.widget import Widget

    from screen_analysis.insight.aggregates import Overview
    from screen_analysis.tui.screens.main import MainScreen
    from screen_analysis.tui.widgets.screen_image import ImagePreviews


class InsightActions:
    """Opens the overview and the comparison; keeps the read overviews and the mark."""

    NAMES = frozenset({"overview", "mark", "compare"})

    def __init__(self, screen: MainScreen, highlighted: Callable[[], Analysis | None]) -> None:
        """`highlighted` gives the analysis under the cursor (saying so when there is none)."""
        self._screen = screen
        self._highlighted = highlighted
        self.kept: dict[str | None, Overview] = {}  # by project id: kept until refreshed
        self.marked: Analysis | None = None

    def _notify(self, text: str, severity: str = "information") -> None:
        self._screen.notify(text, severity=severity, markup=False)  # type: ignore[arg-type]

    def overview(self) -> None:
        """The overview of the project shown, or of all projects."""
        from screen_analysis.tui.screens.overview import OverviewScreen

        screen = self._screen
        clock = getattr(screen.app, "clock", now_utc)  # the app's clock (fixed in tests)
        overview = OverviewScreen(
            screen.feed.client, screen.view.project_id, kept=self.kept, clock=clock
        )
        screen.app.push_screen(overview)

    def mark(self) -> None:
        """Mark the highlighted analysis as A of a comparison (again: unmark it)."""
        item = self._highlighted()
        if item is None:
            return
        if self.marked is not None and self.marked.id == item.id:
            self.marked = None
            self._screen.table.mark(None)
            self._notify("Mark removed.")
            return
        self.marked = item
        self._screen.table.mark(item.id)
        label = clean(item.label) or clean(item.id)
        self._notify(f"Marked {label} as A; press c on another analysis to compare.")

    def compare(self) -> None:
        """Compare the marked analysis (A) with the highlighted one (B)."""
        item = self._highlighted()
        if item is None:
            return
        if self.marked is None:
            self._notify("Mark an analysis with m first, then press c on another.", "warning")
            return
        if self.marked.id == item.id:
            self._notify("Highlight another analysis to compare with the marked one.", "warning")
            return
        from screen_analysis.tui.screens.compare import CompareScreen

        slot = image_slot(getattr(self._screen.app, "previews", None))
        self._screen.app.push_screen(CompareScreen(self.marked, item, image_slot=slot))


def image_slot(previews: ImagePreviews | None) -> Callable[[Analysis], Widget]:
    """What shows each side's image in the comparison: the screen-image widget when images
    are on, else the image's address (relative to the API server when it is there)."""
    from textual.content import Content
    from textual.widgets import Static

    from screen_analysis.tui.widgets.screen_image import ScreenImage

    def slot(item: Analysis) -> Widget:
        if previews is not None and previews.graphics.enabled:
            picture = ScreenImage(previews, settle_s=0.0, classes="compare-image")
            picture.styles.height = COMPARE_IMAGE_ROWS
            picture.show(item)  # asked for once mounted and sized
            return picture
        url = previews.display_url(item.image_url or "") if previews else item.image_url
        text = "Image: " + (clean(url) or "(no image address)")
        return Static(Content(text), classes="image-address", markup=False)

    return slot

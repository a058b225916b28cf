"""What the main screen offers stakeholders: the overview of the project shown (`v`), and
two analyses compared (`m` marks the highlighted one, `c` on another opens them side by
side; the mark shows in the table).

A part the screen composes (`MainScreen.insight`), given the analysis to act on. The overview
and compare screens are imported when first opened: the app's first screen needs neither.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.models import Analysis
from screen_analysis.safe_text import DISPLAY_LIMIT, TITLE_LIMIT, clean
from screen_analysis.tui.screens.main.actions import DialogHost

COMPARE_IMAGE_ROWS = 12  # each side's picture, in rows of half-cell blocks

if TYPE_CHECKING:
    from textual.widget import Widget

    from screen_analysis.cache import LocalCache
    from screen_analysis.insight.aggregates import Overview
    from screen_analysis.tui.widgets.screen_image import ImagePreviews


class InsightActions:
    """Opens the overview and the comparison; keeps the overviews read and the mark."""

    def __init__(
        self, host: DialogHost, previews: ImagePreviews | None, clock: Callable[[], datetime]
    ) -> None:
        """Act for `host`; images through `previews`; `clock` tells the overview "now"."""
        self._host = host
        self._previews = previews
        self._clock = clock
        self.kept: dict[str | None, Overview] = {}  # by project id: kept until refreshed
        self.marked: Analysis | None = None

    def overview(
        self, current: CurrentClient, project_id: str | None, cache: LocalCache | None
    ) -> None:
        """The overview of `project_id`, or of all projects (None), read with the client
        `current` holds; offline, from what `cache` kept."""
        from screen_analysis.tui.screens.overview import OverviewScreen

        screen = OverviewScreen(current, project_id, kept=self.kept, clock=self._clock, cache=cache)
        self._host.show(screen)

    def mark(self, item: Analysis) -> str | None:
        """Mark `item` as A of a comparison (again: unmark it); the id marked now, if any."""
        if self.marked is not None and self.marked.id == item.id:
            self.marked = None
            self._host.say("Mark removed.")
            return None
        self.marked = item
        label = clean(item.label, limit=TITLE_LIMIT) or clean(item.id, limit=TITLE_LIMIT)
        self._host.say(f"Marked {label} as A; press c on another analysis to compare.")
        return item.id

    def compare(self, item: Analysis) -> None:
        """Compare the marked analysis (A) with `item` (B)."""
        if self.marked is None:
            self._host.say("Mark an analysis with m first, then press c on another.", "warning")
            return
        if self.marked.id == item.id:
            self._host.say("Highlight another analysis to compare with the marked one.", "warning")
            return
        from screen_analysis.tui.screens.compare import CompareScreen

        self._host.show(CompareScreen(self.marked, item, image_slot=image_slot(self._previews)))


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
        text = "Image: " + (clean(url, limit=DISPLAY_LIMIT) or "(no image address)")
        return Static(Content(text), classes="image-address", markup=False)

    return slot

"""The keys of the main screen that act on the highlighted analysis: copy its id or its
image's address, open its image (in a browser, full screen), mark it and compare it.

`AnalysisKeys` is the screen `MainScreen` builds on: it owns the parts that do these things
(`on_analysis`, `insight`) and the screen's services, and reads the highlighted analysis
from its table. The bindings themselves are the main screen's (`keys.MAIN_KEYS`) and your
own commands' (`own_commands`: `run_command(NAME)`); watching is `watch` and `watch_view`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from textual.screen import Screen

from screen_analysis.api.models import Analysis
from screen_analysis.tui.one import One
from screen_analysis.tui.own_commands import CommandDesk
from screen_analysis.tui.screens.main.actions import AnalysisActions
from screen_analysis.tui.screens.main.host import ScreenServices
from screen_analysis.tui.screens.main.insight import InsightActions
from screen_analysis.tui.watching import WatchDesk
from screen_analysis.tui.widgets.screen_image import ImagePreviews
from screen_analysis.tui.widgets.table import AnalysesTable


class AnalysisKeys(Screen[None]):
    """A screen whose keys act on the analysis its table highlights."""

    table = One(AnalysesTable)
    watches: WatchDesk | None = None  # set by the screen that composes the table
    commands: CommandDesk | None = None

    def __init__(
        self,
        base_url: Callable[[], str],
        previews: ImagePreviews | None,
        clock: Callable[[], datetime],
    ) -> None:
        """Serve the screen's parts (`base_url` names the server problems are about);
        images through `previews`; `clock` tells the overview "now"."""
        super().__init__()
        self.services = ScreenServices(self, base_url)
        self.on_analysis = AnalysisActions(self.services, previews)
        self.insight = InsightActions(self.services, previews, clock)

    def _on_highlighted(self, act: Callable[[Analysis], object]) -> None:
        """`act` on the highlighted analysis, or say that none is."""
        item = self.table.highlighted_item
        if isinstance(item, Analysis):
            act(item)
        else:
            self.services.say("No analysis is highlighted.", "warning")

    def action_copy_id(self) -> None:
        """Copy the highlighted analysis's id."""
        self._on_highlighted(self.on_analysis.copy_id)

    def action_copy_url(self) -> None:
        """Copy the highlighted analysis's image URL."""
        self._on_highlighted(self.on_analysis.copy_url)

    def action_open_image(self) -> None:
        """Open the highlighted analysis's image in a browser, or show it to copy."""
        self._on_highlighted(self.on_analysis.open_image)

    def action_show_image(self) -> None:
        """The highlighted analysis's image full screen."""
        self._on_highlighted(self.on_analysis.show_image)

    def action_mark(self) -> None:
        """Mark the highlighted analysis as A of a comparison (again: unmark it)."""
        self._on_highlighted(lambda item: self.table.mark(self.insight.mark(item)))

    def action_compare(self) -> None:
        """Compare the marked analysis with the highlighted one."""
        self._on_highlighted(self.insight.compare)

    def action_watch(self) -> None:
        """Watch the highlighted analysis until its scoring ends (again: stop)."""
        if self.watches is not None:
            self._on_highlighted(self._watch)

    def _watch(self, item: Analysis) -> None:
        assert self.watches is not None
        self.services.say(self.watches.watch([item], self.spot))

    def action_watch_view(self) -> None:
        """Watch every pending or processing analysis loaded in the view."""
        if self.watches is not None:
            rows = [item for item in self.table.items if isinstance(item, Analysis)]
            self.services.say(self.watches.watch(rows, self.spot))

    def spot(self, analysis_id: str) -> str | None:
        """Where an analysis can be found again: the first page (the watch moves down)."""
        return None

    def action_run_command(self, name: str) -> None:
        """Run your command `name` on the highlighted analysis (or the view's rows)."""
        if self.commands is not None:
            self.commands.run(name, self.table.highlighted_item, list(self.table.items))

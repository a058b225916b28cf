"""What the main screen does with the highlighted analysis and the loaded rows: copy its id
or image address, open the image in a browser or full screen, find a row by label, ask for
a project id, fold the project sidebar, export the view (`main_export.ViewExport`).

A part the screen composes (`MainScreen.actions`), not a base class: it reaches the screen's
table through the screen it was given and runs the browser hand-off in a named worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from textual.app import App

from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.safe_text import clean, shorten
from screen_analysis.tui.browser import has_graphical_browser, is_web_url, open_in_browser
from screen_analysis.tui.clipboard import copy_text
from screen_analysis.tui.screens.main_insight import InsightActions

if TYPE_CHECKING:
    from screen_analysis.tui.screens.main import MainScreen
    from screen_analysis.tui.screens.main_export import ViewExport


def find_label(items: Sequence[AnalysisItem], query: str, start: int) -> int | None:
    """The first row at or after `start` (wrapping) whose label contains `query`, any case."""
    needle = query.casefold()
    count = len(items)
    for step in range(count):
        index = (start + step) % count
        item = items[index]
        if isinstance(item, Analysis) and needle in clean(item.label).casefold():
            return index
    return None


class HighlightActions:
    """The main screen's actions on the highlighted analysis and on the loaded labels."""

    NAMES = frozenset(
        {
            "find",
            "find_next",
            "copy_id",
            "copy_url",
            "open_image",
            "show_image",
            "toggle_sidebar",
            "export",
        }
    ) | (InsightActions.NAMES)

    def __init__(self, screen: MainScreen) -> None:
        self._screen = screen
        self._find_query = ""
        self.insight = InsightActions(screen, self._highlighted)
        self._export: ViewExport | None = None  # built on the first `e`

    # Overview and comparison (see `InsightActions`)

    def overview(self) -> None:
        """The overview of the project shown, or of all projects."""
        self.insight.overview()

    def mark(self) -> None:
        """Mark the highlighted analysis as A of a comparison."""
        self.insight.mark()

    def compare(self) -> None:
        """Compare the marked analysis with the highlighted one."""
        self.insight.compare()

    def export(self) -> None:
        """Write the view (the loaded rows or every page) to a CSV or JSON Lines file."""
        if self._export is None:
            from screen_analysis.tui.screens.main_export import ViewExport

            self._export = ViewExport(self._screen)
        self._export.start()

    def toggle_sidebar(self) -> None:
        """Fold the project sidebar away to give the table the width, or bring it back."""
        self._screen.sidebar.toggle_fold()

    @property
    def _app(self) -> App[Any]:
        return self._screen.app

    def _notify(self, text: str, severity: str = "information") -> None:
        self._screen.notify(text, severity=severity, markup=False)  # type: ignore[arg-type]

    # Find

    def find(self) -> None:
        """Ask for text to find in the loaded labels."""
        from screen_analysis.tui.dialogs.prompt import FindDialog

        self._app.push_screen(FindDialog(self._find_query), self._found)

    def _found(self, query: str | None) -> None:
        if query:
            self._find_query = query
            self._find(self._screen.table.cursor_row)

    def find_next(self) -> None:
        """Find the next row matching the last search (ask when there was none)."""
        if self._find_query:
            self._find(self._screen.table.cursor_row + 1)
        else:
            self.find()

    def _find(self, start: int) -> None:
        table = self._screen.table
        items = table.items
        index = find_label(items, self._find_query, start) if items else None
        if index is None:
            shown = repr(shorten(clean(self._find_query)))
            self._notify("No loaded row has a label containing " + shown, "warning")
            return
        table.move_cursor(index)
        table.focus()

    # Projects

    def ask_project(self, add: Callable[[str], None]) -> None:
        """Ask for a project id; `add` it when one is given."""

        def added(project_id: str | None) -> None:
            if project_id:
                add(project_id)

        from screen_analysis.tui.dialogs.prompt import AddProjectDialog

        self._app.push_screen(AddProjectDialog(), added)

    # The highlighted analysis

    def _highlighted(self) -> Analysis | None:
        item = self._screen.table.highlighted_item
        if isinstance(item, Analysis):
            return item
        self._notify("No analysis is highlighted.", "warning")
        return None

    def copy_id(self) -> None:
        """Copy the highlighted analysis's id."""
        if (item := self._highlighted()) is not None:
            self._notify("Copied the id " + copy_text(self._app, item.id))

    def copy_url(self) -> None:
        """Copy the highlighted analysis's image URL."""
        if (item := self._highlighted()) is None:
            return
        if not item.image_url:
            self._notify("This analysis has no image URL.", "warning")
            return
        copy_text(self._app, item.image_url)
        self._notify("Copied the image URL.")

    def open_image(self) -> None:
        """Open the image URL in a browser, or show it to copy."""
        if (item := self._highlighted()) is None:
            return
        url = item.image_url or ""
        if not is_web_url(url):
            reason = "This image address is not an http(s) URL, so it is not opened:"
            self.show_url(url or "(none)", reason)
        elif has_graphical_browser():
            self._screen.run_worker(self._open(url), group="browser", exit_on_error=False)
        else:
            self.show_url(url, "No browser on this machine; copy the address:")

    def show_image(self) -> None:
        """The highlighted analysis's image full screen, its scores beside it."""
        if (item := self._highlighted()) is None:
            return
        previews = getattr(self._app, "previews", None)
        if previews is None or not previews.graphics.enabled:
            self._notify("Images are off; start with --images auto (or halfcell).", "warning")
            return
        from screen_analysis.tui.screens.image_view import ImageView

        self._app.push_screen(ImageView(item, previews))

    async def _open(self, url: str) -> None:
        """Hand the address to the browser from a thread (webbrowser blocks)."""
        try:
            opened = await asyncio.to_thread(open_in_browser, url)
        except Exception:
            self.show_url(url, "The browser could not be started; copy the address:")
            return
        if not opened:
            self.show_url(url, "No browser took the address; copy it:")

    def show_url(self, url: str, reason: str) -> None:
        """Show an address with the offer to copy it."""

        def copy_if_asked(copy: bool | None) -> None:
            if copy:
                copy_text(self._app, url)
                self._notify("Copied the image URL.")

        from screen_analysis.tui.dialogs.show_url import ShowUrlDialog

        self._app.push_screen(ShowUrlDialog(url, reason), copy_if_asked)

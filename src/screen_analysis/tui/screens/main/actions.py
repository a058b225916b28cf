"""What the main screen does with one analysis: copy its id or image address, open the image
in a browser or full screen, and the dialogs those may need; and finding a row by label.

A part the screen composes (`MainScreen.on_analysis`): every method takes the analysis it
acts on, so nothing here reaches into the screen's widgets; the host is only asked to show
a screen, say something or run a worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, Protocol

from textual.screen import Screen

from screen_analysis.api.models import Analysis
from screen_analysis.numbers import format_count
from screen_analysis.safe_text import clean, shorten
from screen_analysis.tui.browser import has_graphical_browser, is_web_url, open_in_browser
from screen_analysis.tui.widgets.screen_image import ImagePreviews
from screen_analysis.tui.widgets.table import AnalysesTable


class DialogHost(Protocol):
    """What actions need of the screen that offers them."""

    def say(self, text: str, severity: str = "information") -> None:
        """One notification (plain text)."""

    def show(self, screen: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        """Push `screen`; `then` gets what it is dismissed with."""

    def copy(self, text: str) -> str:
        """Copy `text` to the clipboard; what was copied."""

    def background(self, work: Coroutine[Any, Any, None], group: str) -> None:
        """Run `work` in a named worker."""


class AnalysisActions:
    """Copy, open and show the highlighted analysis."""

    def __init__(self, host: DialogHost, previews: ImagePreviews | None) -> None:
        """Act for `host`; images through `previews` (None: images are off)."""
        self._host = host
        self._previews = previews

    def copy_id(self, item: Analysis) -> None:
        """Copy the analysis's id."""
        self._host.say("Copied the id " + self._host.copy(item.id))

    def copy_url(self, item: Analysis) -> None:
        """Copy the analysis's image URL."""
        if not item.image_url:
            self._host.say("This analysis has no image URL.", "warning")
            return
        self._host.copy(item.image_url)
        self._host.say("Copied the image URL.")

    def open_image(self, item: Analysis) -> None:
        """Open the image URL in a browser, or show it to copy."""
        url = item.image_url or ""
        if not is_web_url(url):
            reason = "This image address is not an http(s) URL, so it is not opened:"
            self.show_url(url or "(none)", reason)
        elif has_graphical_browser():
            self._host.background(self._open(url), "browser")
        else:
            self.show_url(url, "No browser on this machine; copy the address:")

    def show_image(self, item: Analysis) -> None:
        """The analysis's image full screen, its scores beside it."""
        previews = self._previews
        if previews is None or not previews.graphics.enabled:
            why = previews.graphics.reason if previews is not None else ""
            self._host.say(why or "Images are off.", "warning")
            return
        from screen_analysis.tui.screens.image_view import ImageView

        self._host.show(ImageView(item, previews))

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
                self._host.copy(url)
                self._host.say("Copied the image URL.")

        from screen_analysis.tui.dialogs.show_url import ShowUrlDialog

        self._host.show(ShowUrlDialog(url, reason), copy_if_asked)


class Paging(Protocol):
    """How far the view's pages are loaded (the feed)."""

    @property
    def started(self) -> bool:
        """Whether the view was asked for."""

    @property
    def done(self) -> bool:
        """Whether its last page is loaded."""

    @property
    def total(self) -> int | None:
        """How many analyses it holds, as the server last said."""


KeysBound = Callable[[Iterable[str]], dict[str, str]]


class FindInRows:
    """Find in the loaded labels (`/`, then `n` for the next match); the last query kept.
    When nothing loaded matches, it says what it did not search and how to load it."""

    def __init__(
        self, host: DialogHost, paging: Paging | None = None, keys: KeysBound | None = None
    ) -> None:
        """Ask and say things through `host`; `paging` tells what is not loaded yet, and
        `keys` the keys bound now to the ids it names ("L loads the rest")."""
        self._host = host
        self._paging = paging
        self._keys = keys
        self.query = ""

    def ask(self, table: AnalysesTable) -> None:
        """Ask for text to find, then go to the first row at or after the cursor with it."""
        from screen_analysis.tui.dialogs.prompt import FindDialog

        def found(query: str | None) -> None:
            if query:
                self.query = query
                self._find(table, table.cursor_row)

        self._host.show(FindDialog(self.query), found)

    def next(self, table: AnalysesTable) -> None:
        """The next row matching the last query (ask when there was none)."""
        if self.query:
            self._find(table, table.cursor_row + 1)
        else:
            self.ask(table)

    def _find(self, table: AnalysesTable, start: int) -> None:
        index = table.find(self.query, start)
        if index is None:
            words = "No loaded row has a label containing " + repr(shorten(clean(self.query)))
            if unsearched := self._unsearched(len(table.items)):
                words += " — " + unsearched
            self._host.say(words, "warning")
            return
        table.move_cursor(index)
        table.focus()

    def _unsearched(self, loaded: int) -> str:
        """The rows a search of the `loaded` ones did not see, and the keys that reach them:
        "200 of 5,001 rows are loaded; L loads the rest, then n finds again"."""
        paging = self._paging
        if paging is None or paging.done or not paging.started:
            return ""
        of = f" of {format_count(paging.total)}" if paging.total is not None else ""
        words = f"{format_count(loaded)}{of} rows are loaded"
        keys = self._keys(("load-all", "find-next")) if self._keys is not None else {}
        if "load-all" in keys:
            again = f", then {keys['find-next']} finds again" if "find-next" in keys else ""
            words += f"; {keys['load-all']} loads the rest{again}"
        return words

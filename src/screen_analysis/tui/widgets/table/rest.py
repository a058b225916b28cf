"""Loading the rest of the pane's view (`L`): page after page through its pager, with
progress, until the end or 100,000 rows; Esc stops it, keeping what arrived.

A part the analyses pane composes: it runs the load in a named worker of the pane, hands
each page to the pane to draw and a failure back to it, and says how the load goes in
notifications. It posts nothing: the pane tells the other widgets what they need.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from textual.notifications import SeverityLevel

from screen_analysis.api.describe import describe_error
from screen_analysis.browse import Page
from screen_analysis.browse.load_all import LoadProgress, load_rest
from screen_analysis.numbers import format_count
from screen_analysis.tui.widgets.table.source import PageSource
from screen_analysis.tui.workers import Workers

GROUP = "load-all"


class RestHost(Protocol):
    """What the load of the rest asks of the pane it serves."""

    def draw(self, page: Page) -> None:
        """Draw a page the pager yielded."""

    def rest_failed(self, error: Exception, words: str) -> None:
        """The load of the rest failed (`words` say so)."""

    def update_status(self) -> None:
        """Say again how paging stands."""

    def say(self, text: str, severity: SeverityLevel = "information") -> None:
        """One notification."""


class RestLoader:
    """One load of the rest at a time, in the pane's worker."""

    def __init__(self, source: PageSource, host: RestHost, workers: Workers) -> None:
        """Load `source`'s pages for `host`, in one of its `workers`."""
        self._source = source
        self._host = host
        self._workers = workers

    @property
    def running(self) -> bool:
        """Whether a load of the rest is under way."""
        return self._workers.busy(GROUP)

    def start(self) -> None:
        """Load every remaining page (unless at the end, loading, or already at it)."""
        source, say = self._source, self._host.say
        if self.running:
            say("Already loading the rest; Esc stops.")
        elif source.done:
            say(f"All {format_count(source.loaded)} rows are loaded.")
        elif source.loading:
            say("A page is loading; try again in a moment.")
        elif source.filtering:
            source.scan_all()
            self._workers.run(self._run, GROUP)
            say("Scanning the rest of the view… Esc stops.")
        else:
            self._workers.run(self._run, GROUP)
            say("Loading the rest of the view… Esc stops.")

    def stop(self, *, quiet: bool = False) -> bool:
        """Stop a load under way (the rows that arrived stay); False when none ran."""
        if not self.running:
            return False
        self._workers.cancel(GROUP)
        if not quiet:
            self._host.say(f"Stopped with {format_count(self._source.loaded)} rows loaded.")
        self._host.update_status()
        return True

    async def _run(self) -> None:
        host = self._host
        try:
            progress = await load_rest(self._source, self._page)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            host.update_status()
            words = describe_error(error, prefix="Loading the rest stopped") + " — r retries"
            host.rest_failed(error, words)
            return
        host.update_status()
        host.say(progress.describe())

    def _page(self, page: Page, _progress: LoadProgress) -> None:
        self._host.draw(page)

"""Loading the rest of the pane's view (`L`): page after page through the feed, with
progress, until the end or 100,000 rows; Esc stops it, keeping what arrived.

A part the analyses pane composes; it runs the load in the pane's "load-all" worker, adds
each page's rows to the pane's table (posting `RowsArrived` and `TotalSeen` as the pane
does), and posts a failure as the pane's `Failed`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.widget import Widget

from screen_analysis.api.describe import describe_error
from screen_analysis.numbers import format_count
from screen_analysis.tui.feed import Accepted, PageSource
from screen_analysis.tui.feed.load_all import LoadProgress, load_rest
from screen_analysis.tui.widgets.table.messages import Failed, RowsArrived, TotalSeen
from screen_analysis.tui.widgets.table.table import AnalysesTable

GROUP = "load-all"


class RestLoader:
    """One load of the rest at a time, in a worker of `widget`."""

    def __init__(
        self,
        widget: Widget,
        source: PageSource,
        table: Callable[[], AnalysesTable],
        ended: Callable[[], None],
    ) -> None:
        """Load `source`'s pages in `widget`'s worker into its `table`; `ended` is told after
        each page and when it stops either way."""
        self._widget = widget
        self._source = source
        self._table = table
        self._ended = ended

    @property
    def running(self) -> bool:
        """Whether a load of the rest is under way."""
        return any(
            w.node is self._widget and w.group == GROUP and not w.is_finished
            for w in self._widget.workers
        )

    def start(self) -> None:
        """Load every remaining page (unless at the end, loading, or already at it)."""
        source, say = self._source, self._say
        if self.running:
            say("Already loading the rest; Esc stops.")
        elif source.done:
            say(f"All {format_count(source.loaded)} rows are loaded.")
        elif source.loading:
            say("A page is loading; try again in a moment.")
        else:
            self._widget.run_worker(self._run(), group=GROUP, exclusive=True, exit_on_error=False)
            say("Loading the rest of the view… Esc stops.")

    def stop(self, *, quiet: bool = False) -> bool:
        """Stop a load under way (the rows that arrived stay); False when none ran."""
        if not self.running:
            return False
        for worker in self._widget.workers:
            if worker.node is self._widget and worker.group == GROUP:
                worker.cancel()
        if not quiet:
            self._say(f"Stopped with {format_count(self._source.loaded)} rows loaded.")
        self._ended()
        return True

    async def _run(self) -> None:
        try:
            progress = await load_rest(self._source, self._page)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._ended()
            words = describe_error(error, prefix="Loading the rest stopped") + " — r retries"
            self._widget.post_message(Failed(error, self.start, words, True))
            return
        self._ended()
        self._say(progress.describe())

    def _page(self, accepted: Accepted, progress: LoadProgress) -> None:
        items, table = accepted.items, self._table()
        table.append_items(items)
        table.can_grow = not self._source.done
        if items:
            self._widget.post_message(RowsArrived(items))
        if (total := self._source.total) is not None:  # the tab says what the line says
            self._widget.post_message(TotalSeen(self._source.view, total))
        self._ended()

    def _say(self, text: str, **options: Any) -> None:
        self._widget.notify(text, markup=False, **options)

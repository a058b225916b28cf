"""The app's watches: the one book (`browse.watch.WatchBook`) over every project's listing,
one page of it per refresh interval whatever is watched, the ends told, kept between runs.

A part the main screen composes: it is given the client holder, the refresh schedule (a
round runs when a refresh would: not while paused, held or backing off), a `Teller` and the
screen's `Workers`; the screen's timer calls `tick` and its keys call `watch`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.describe import describe_error
from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.browse import PAGE_SIZE, RefreshSchedule
from screen_analysis.browse.watch import FINISHED, WatchBook, WatchEvent
from screen_analysis.numbers import count_of
from screen_analysis.state.watches import WatchedFile
from screen_analysis.tui.watching.tell import Kind, Teller, tell
from screen_analysis.tui.workers import Workers

GROUP = "watch"
IN_FLIGHT = (AnalysisStatus.PENDING, AnalysisStatus.PROCESSING)


class WatchDesk:
    """The watched analyses of one connection (see the module)."""

    def __init__(
        self,
        current: CurrentClient,
        schedule: RefreshSchedule,
        teller: Teller,
        workers: Workers,
        *,
        kinds: tuple[Kind, ...],
        kept: WatchedFile | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Watch through `current`, a round when `schedule` would refresh; tell ends in
        `kinds` through `teller`; keep the watches in `kept` (None: for this run only)."""
        self._current = current
        self._schedule = schedule
        self._teller = teller
        self._workers = workers
        self.kinds = kinds
        self._kept = kept
        self._clock = clock
        self._last = clock()
        self.book = WatchBook()
        self.rounds = 0
        self._failing = False
        if kept is not None:
            for key, status, spot in kept.read():
                self.book.watch(key, status, spot)

    def watch(self, analyses: Iterable[Analysis], spot: Callable[[str], str | None]) -> str:
        """Watch `analyses` (those in flight; `spot` tells where each was loaded); a
        watched one alone is unwatched. What was done, in words."""
        wanted = [a for a in analyses if a.known_status in IN_FLIGHT]
        if not wanted:
            return "Nothing to watch: no analysis here is pending or processing."
        if len(wanted) == 1 and wanted[0].id in self.book:
            self.book.unwatch(wanted[0].id)
            self._keep()
            return "No longer watching this analysis."
        added = sum(self.book.watch(a.id, a.status, spot(a.id)) for a in wanted)
        self._keep()
        if not added:
            return "Watching as many analyses as can be watched; none was added."
        return f"Watching {count_of(added, 'analysis', 'analyses')}: told when scoring ends."

    def tick(self) -> None:
        """The timer's call: a round when one is due (something watched, the refresh
        schedule running, its interval passed since the last round, none under way)."""
        if not self.book or not self._schedule.enabled or self._workers.busy(GROUP):
            return
        if self._clock() - self._last < self._schedule.interval_s:
            return
        self._last = self._clock()
        self._workers.run(self._round, GROUP)

    async def _round(self) -> None:
        await self.round()

    async def round(self) -> list[WatchEvent]:
        """One page of every project's listing, the one the book asks for; the ends told."""
        ask = self.book.due()
        if ask is None:
            return []
        try:
            client = await self._current.asking()
            page = await client.list_analyses(None, None, PAGE_SIZE, ask.cursor)
        except Exception as exc:
            if not self._failing:  # once a streak: the view's own refresh says the rest
                self._teller.toast(describe_error(exc, prefix="Couldn't check"), "warning")
            self._failing = True
            return []
        self._failing = False
        self.rounds += 1
        events = self.book.seen(page.items, ask, page.next_cursor)
        for event in events:
            if event.analysis.known_status in FINISHED:
                tell(event, self.kinds, self._teller)
        self._keep()
        return events

    def seen(self, rows: Iterable[Analysis]) -> None:
        """Rows the view loaded anyway: a watched one among them that finished is told."""
        for event in self.book.seen(rows):
            if event.finished:
                tell(event, self.kinds, self._teller)

    def _keep(self) -> None:
        if self._kept is not None:
            self._kept.write(self.book.entries())

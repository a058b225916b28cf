"""Watching a scope (a project or every one, a status or all) for changes, headless: what
`screen-analysis watch` prints.

A round asks at most two pages, the auto-refresh's budget whatever is watched: the
listing's first page (arrivals: `created`; changes of what is on it) and, when an analysis
seen in flight is further down, the one page the watch book asks for (`browse.watch`).
Rounds are `interval` apart; a round that fails for a reason worth another try (a 429, a
5xx, the network) is tried again after twice the interval (the one `backoff`, up to a
minute), never before the server's Retry-After. The first round is the baseline: it says
nothing, and what is in flight then is what `--until done` waits for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from enum import Enum
from typing import NamedTuple

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.errors import RateLimitError
from screen_analysis.api.models import Analysis, AnalysisItem, AnalysisStatus
from screen_analysis.api.retry import backoff
from screen_analysis.browse.clock import RETRYABLE, Clock
from screen_analysis.browse.refresh import IN_FLIGHT, newer_than
from screen_analysis.browse.views import PAGE_SIZE, ViewKey
from screen_analysis.browse.watch import Ask, EventKind, WatchBook, WatchEvent, finished_ids

BACKOFF_CAP_S = 60.0


class ScopeWatch:
    """The changes in one scope, a round at a time (see the module)."""

    def __init__(
        self,
        client: ScreenAnalysisClient,
        project_id: str | None = None,
        status: AnalysisStatus | None = None,
        *,
        page_size: int = PAGE_SIZE,
    ) -> None:
        """Watch `project_id` (None: every project), saying only the changes that leave an
        analysis in `status` (None: any)."""
        self.client = client
        self.key = ViewKey(project_id, status)
        self.page_size = page_size
        self.book = WatchBook()
        self.top: AnalysisItem | None = None
        self.rounds = 0

    async def baseline(self) -> set[str]:
        """The first round: nothing said. It also reads the first page of the scope's
        pending and of its processing listing (pending first, so one that moves between
        the two is still seen), so what is in flight further down is watched too; returns
        the in-flight analyses in scope now."""
        await self.round()
        for status in IN_FLIGHT:
            page = await self.client.list_analyses(self.key.project_id, status, self.page_size)
            for item in page.analyses:
                if item.id not in self.book:
                    self.book.watch(item.id, item.status)
        return set(self.book.ids)

    async def round(self) -> list[WatchEvent]:
        """One round: the first page, and the book's page when that is another."""
        project = self.key.project_id
        first = await self.client.list_analyses(project, None, self.page_size)
        self.rounds += 1
        baseline = self.rounds == 1
        created = [] if baseline else newer_than(first.items, self.top, ViewKey(project))
        if first.items:
            self.top = first.items[0]
        arrived = [WatchEvent(EventKind.CREATED, a) for a in created if isinstance(a, Analysis)]
        events = arrived[::-1] + self.book.seen(first.items, Ask(None), first.next_cursor)
        for analysis in first.analyses:
            if analysis.known_status in IN_FLIGHT and analysis.id not in self.book:
                self.book.watch(analysis.id, analysis.status, None)
        ask = self.book.due()
        if ask is not None and ask.cursor is not None:
            more = await self.client.list_analyses(project, None, self.page_size, ask.cursor)
            events += self.book.seen(more.items, ask, more.next_cursor)
        return [] if baseline else [e for e in events if self._in_scope(e)]

    def _in_scope(self, event: WatchEvent) -> bool:
        return self.key.status is None or event.analysis.status == self.key.status

    def awaited(self, in_flight: set[str]) -> set[str]:
        """Of `in_flight`, those the scope's status leaves to wait for (all without one)."""
        status = self.key.status
        if status is None or status in IN_FLIGHT:
            return set(in_flight)
        return set()


class WatchEnd(Enum):
    """How a watch ended."""

    DONE = "done"  # every analysis awaited has finished
    TIMED_OUT = "timed out"


class WatchOutcome(NamedTuple):
    """The end, and what was still awaited then."""

    end: WatchEnd
    waiting: frozenset[str]


async def run_watch(
    watch: ScopeWatch,
    *,
    clock: Clock,
    interval: float,
    on_events: Callable[[Sequence[WatchEvent]], Awaitable[None]],
    until_done: bool = False,
    timeout: float | None = None,
    on_failure: Callable[[BaseException, float], None] | None = None,
) -> WatchOutcome:
    """Round after round until Ctrl-C; with `until_done`, until what was in flight in scope
    at the baseline has finished; with `timeout`, no longer than that (seconds). A failure
    worth another try is told to `on_failure` with the pause before the next round; others
    are raised."""
    started = clock.monotonic()
    deadline = None if timeout is None else started + timeout
    failures = 0
    awaited: set[str] | None = None
    while True:
        try:
            if awaited is None:
                awaited = watch.awaited(await watch.baseline())
            else:
                events = await watch.round()
                awaited -= finished_ids(events)
                awaited &= set(watch.book.ids)  # a watch the book dropped has ended
                if events:
                    await on_events(events)
            failures, pause = 0, interval
        except RETRYABLE as exc:
            failures += 1
            pause = backoff(interval, failures, max(BACKOFF_CAP_S, interval))
            if isinstance(exc, RateLimitError) and exc.retry_after is not None:
                pause = max(pause, exc.retry_after)
            if on_failure is not None:
                on_failure(exc, pause)
        if until_done and awaited is not None and not awaited:
            return WatchOutcome(WatchEnd.DONE, frozenset())
        if deadline is not None:
            left = deadline - clock.monotonic()
            if left <= 0:
                return WatchOutcome(WatchEnd.TIMED_OUT, frozenset(awaited or ()))
            pause = min(pause, left)
        await clock.sleep(pause)

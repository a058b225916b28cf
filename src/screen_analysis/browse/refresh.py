"""What one auto-refresh asks for, within a budget of two requests whatever the scroll depth,
and the asking (`ask_refresh`; the pager applies what comes back).

Headless: no Textual. A refresh asks for the view's first page (new arrivals, the view's
total) and, when pending or processing rows are on screen further down, the page that holds
them, asked again with the cursor it was loaded with. Nothing walks from the top. A round
that needs one page leaves its second request to a total that is due (`RefreshJob.spare`):
at the default 30 s a round, an idle minute costs at most four requests of any kind.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import NamedTuple, Protocol

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import BadRequestError
from screen_analysis.api.models import Analysis, AnalysisItem, AnalysisPage, AnalysisStatus
from screen_analysis.browse.views import ViewKey
from screen_analysis.cache.kept import KeptCache


class PageCursors(Protocol):
    """Where loaded analyses came from: a view's page numbers and their cursors."""

    def cursor_of(self, analysis_id: str) -> tuple[int, str | None] | None:
        """The page number `analysis_id` was loaded on and the cursor it was asked with."""


IN_FLIGHT = (AnalysisStatus.PENDING, AnalysisStatus.PROCESSING)
ROUND_REQUESTS = 2  # every request a round may cause: its pages, then totals that are due


class RefreshJob(NamedTuple):
    """One refresh of one generation of a view: the first page, and `again` (the cursor
    of the page holding the visible in-flight rows) when that is not the first page."""

    generation: int
    key: ViewKey
    again: str | None = None

    @property
    def pages(self) -> int:
        """How many pages this refresh asks for (1 or 2)."""
        return 1 if self.again is None else 2

    @property
    def spare(self) -> int:
        """The requests of the round's budget its pages leave (for totals that are due)."""
        return ROUND_REQUESTS - self.pages


def is_in_flight(item: AnalysisItem) -> bool:
    """Whether the row may still change (pending or processing)."""
    return isinstance(item, Analysis) and item.known_status in IN_FLIGHT


def page_to_ask_again(listing: PageCursors, visible: Sequence[AnalysisItem]) -> str | None:
    """The cursor of the page holding most visible in-flight rows (the upper one on a tie);
    None when there are none or they are on the first page (asked anyway)."""
    pages: Counter[tuple[int, str | None]] = Counter()
    for item in visible:
        if is_in_flight(item) and item.id is not None:
            found = listing.cursor_of(item.id)
            if found is not None:
                pages[found] += 1
    if not pages:
        return None
    (_number, cursor), _count = min(pages.items(), key=lambda entry: (-entry[1], entry[0][0]))
    return cursor


def newer_than(
    items: Sequence[AnalysisItem], top: AnalysisItem | None, key: ViewKey
) -> list[AnalysisItem]:
    """The rows of `items` (newest first) that sort before `top` and match `key`'s status."""
    arrived: list[AnalysisItem] = []
    top_key = _sort_key(top) if top is not None else None
    for item in items:
        if not isinstance(item, Analysis):
            continue
        item_key = _sort_key(item)
        if top_key is not None and (item_key is None or item_key <= top_key):
            break
        if key.status is None or item.status == key.status:
            arrived.append(item)
    return arrived


def _sort_key(item: AnalysisItem) -> tuple[datetime, str] | None:
    """The server's order (created_at, then id, both descending) as a comparable key."""
    if not isinstance(item, Analysis) or item.created_at is None:
        return None
    return item.created_at, item.id


class RefreshPages(NamedTuple):
    """What a refresh's requests brought: the view's first page, the rows of the page asked
    again (none when it was not asked, or its cursor was refused) and whether it was."""

    top: AnalysisPage
    again: Sequence[AnalysisItem]
    refused: bool


async def ask_refresh(
    current: CurrentClient, kept: KeptCache, job: RefreshJob, page_size: int
) -> RefreshPages:
    """Ask for `job`'s pages at once with the client `current` holds, telling `kept` what
    the answers say of the key. An old cursor the server no longer takes is said
    (`refused`): the first page still counts. A failure is raised as the first request's."""
    key = job.key
    async with kept.told(), _first_failure(), asyncio.TaskGroup() as group:
        first = current.client.list_analyses
        top = group.create_task(first(key.project_id, key.status, page_size))
        again = None
        if job.again is not None:
            again = group.create_task(_again(current, job, page_size))
    rows, refused = again.result() if again is not None else ((), False)
    return RefreshPages(top.result(), rows, refused)


async def _again(
    current: CurrentClient, job: RefreshJob, page_size: int
) -> tuple[Sequence[AnalysisItem], bool]:
    key = job.key
    try:
        page = await current.client.list_analyses(key.project_id, key.status, page_size, job.again)
    except BadRequestError:
        return (), True  # the old cursor is no longer taken: the first page still counts
    return page.items, False


@contextlib.asynccontextmanager
async def _first_failure() -> AsyncIterator[None]:
    """Requests sent together fail as the first of them failed (not as an exception group),
    so a refused key is still recognised as one."""
    try:
        yield
    except ExceptionGroup as group:
        raise group.exceptions[0] from group

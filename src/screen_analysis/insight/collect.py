"""Feed an `OverviewBuilder` (or any other page sink) from the API: every page of a listing,
through the client's one walk (`iter_pages`), the next page asked for while this one is
added up.

A row that moves across a page boundary while the pages are read is counted once: the walk
remembers the ids of the last few pages only (`DEDUP_PAGES`), so memory stays flat over a
listing of any length."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Protocol, TypeVar

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.errors import ScreenAnalysisError
from screen_analysis.api.models import AnalysisItem
from screen_analysis.browse.scope import Filter
from screen_analysis.insight.aggregates import Overview, OverviewBuilder

PAGE_SIZE = 100  # the API's largest page: fewest requests
DEDUP_PAGES = 4  # pages whose ids are remembered, to count a row that moved once
MAX_NAMED_PROJECTS = 50  # project look-ups after a walk, at most


class PageSink(Protocol):
    """What takes a listing's pages: `OverviewBuilder`, the quality gate's collector."""

    def add_page(self, items: Iterable[AnalysisItem], total: int | None = None) -> None:
        """Take in one page; `total` is the listing's total as the server sent it."""


SinkT = TypeVar("SinkT", bound=PageSink)

Progress = Callable[[OverviewBuilder, int | None], None]
"""Called after each page with the builder and the listing's total."""


async def fill(
    client: ScreenAnalysisClient,
    builder: SinkT,
    *,
    project_id: str | None = None,
    status: str | None = None,
    on_page: Callable[[SinkT, int | None], None] | None = None,
    page_size: int = PAGE_SIZE,
) -> None:
    """Add every page of the listing to `builder`; a failure or a cancellation propagates
    and leaves `builder` with what it took in so far."""
    walk = client.iter_pages(
        project_id, status, limit=page_size, prefetch=True, dedup_window=DEDUP_PAGES
    )
    async with walk:
        async for page in walk:
            builder.add_page(page.items, page.total)
            if on_page is not None:
                on_page(builder, page.total)


async def collect_overview(
    client: ScreenAnalysisClient,
    *,
    project_id: str | None = None,
    status: str | None = None,
    since: datetime | None = None,
    on_page: Progress | None = None,
    page_size: int = PAGE_SIZE,
    where: Filter | None = None,
) -> Overview:
    """The overview of one project (its weights and name fetched first) or of all, of the
    analyses `where` matches (a scope)."""
    project = await client.get_project(project_id) if project_id is not None else None
    builder = OverviewBuilder(project, since=since, by_project=project_id is None, where=where)
    await fill(
        client, builder, project_id=project_id, status=status, on_page=on_page, page_size=page_size
    )
    return builder.result()


async def project_names(client: ScreenAnalysisClient, overview: Overview) -> dict[str, str]:
    """Names of the projects the overview shows (its rows per project first, then those its
    tables of screens mention), one look-up each and at most `MAX_NAMED_PROJECTS`; an id
    stays where a look-up fails."""
    rows = overview.projects.rows if overview.projects is not None else ()
    ids = [row.project_id for row in rows if row.project_id]
    screens = (*overview.best, *overview.worst, *overview.failures)
    ids += sorted({ref.project_id for ref in screens if ref.project_id})
    names = {overview.project_id: overview.scope} if overview.project_id else {}
    for project_id in [i for i in dict.fromkeys(ids) if i not in names][:MAX_NAMED_PROJECTS]:
        with contextlib.suppress(ScreenAnalysisError):
            names[project_id] = (await client.get_project(project_id)).name
    return names

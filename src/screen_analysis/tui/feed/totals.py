"""The totals per status (the status filter's numbers): one limit=1 request per view, each
living or dying on its own, so one odd or failed answer costs its own tab only.

Headless: no Textual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import NamedTuple

from screen_analysis.api.errors import AuthenticationError
from screen_analysis.api.models import AnalysisPage
from screen_analysis.cache import LocalCache
from screen_analysis.tui.feed.views import ViewKey


class Totals(NamedTuple):
    """What the count requests brought: a total per view that answered (None: the server's
    total was no count, shown as unknown), and the first failure among those that did not
    (their views are left out; their old numbers stay, marked stale)."""

    found: dict[ViewKey, int | None]
    error: BaseException | None = None


async def fetch_totals(
    first: Callable[[ViewKey], Awaitable[AnalysisPage]],
    keys: Sequence[ViewKey],
    cache: LocalCache | None,
) -> Totals:
    """The total of each key, from its own request (`first`, a limit=1 page). A refused key
    is raised (nothing else would work either), as is a failure of every request; the
    totals that are counts are kept in `cache`."""
    answers = await asyncio.gather(*(first(key) for key in keys), return_exceptions=True)
    found: dict[ViewKey, int | None] = {}
    failures: list[BaseException] = []
    for key, answer in zip(keys, answers, strict=True):
        if isinstance(answer, asyncio.CancelledError):
            raise answer
        if isinstance(answer, BaseException):
            failures.append(answer)
        else:
            found[key] = answer.total
    refused = [error for error in failures if isinstance(error, AuthenticationError)]
    if refused or (failures and not found):
        raise (refused or failures)[0]
    if cache is not None:
        for project_id in {key.project_id for key in found}:
            mine = {k.status: t for k, t in found.items() if k.project_id == project_id}
            known = {status: total for status, total in mine.items() if total is not None}
            if known:
                cache.store_totals(project_id, known)
    return Totals(found, failures[0] if failures else None)

"""The totals per status (the status filter's numbers), headless: one limit=1 request per
view, each living or dying on its own, so one odd or failed answer costs its own tab only
(`Totals`); and the last number seen for each view and when, kept until a new one comes
and said to be stale once old (`CountCache`).

An idle app asks for a total again only when it is due: after `TOTALS_DUE_S`, and then in
the requests an auto-refresh round leaves spare (`refresh.ROUND_REQUESTS`). Anything that
says totals moved (the view's total changed, a row on screen changed, `r`) asks at once.
Between the two the old number stays, marked stale after `COUNT_TTL_S`.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import NamedTuple

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import AuthenticationError
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.browse.views import ViewKey
from screen_analysis.cache import LocalCache
from screen_analysis.cache.kept import KeptCache

COUNT_TTL_S = 30.0  # shown as stale ("~") once older
TOTALS_DUE_S = 180.0  # asked again by an idle app once older


class Counts(NamedTuple):
    """What the count requests brought: a total per view that answered (None: the server's
    total was no count, shown as unknown), and the first failure among those that did not
    (their views are left out; their old numbers stay, marked stale)."""

    found: dict[ViewKey, int | None]
    error: BaseException | None = None


class Totals:
    """The views' totals, asked of the server and kept in the local cache, and those the
    cache kept as the key in use may see them."""

    def __init__(
        self, current: CurrentClient, kept: KeptCache, cache: LocalCache | None = None
    ) -> None:
        """Ask with the client `current` holds; tell `kept` what the answers said of the
        key; keep the counts in `cache` (None: nothing is kept)."""
        self._current = current
        self._kept = kept
        self._cache = cache

    async def fetch_totals(self, keys: Sequence[ViewKey]) -> Counts:
        """The total of each key, from its own limit=1 request. A refused key is raised
        (nothing else would work either), as is a failure of every request; the totals that
        are counts are kept in the cache."""
        async with self._kept.told():
            answers = await asyncio.gather(*map(self._first, keys), return_exceptions=True)
            found: dict[ViewKey, int | None] = {}
            failures: list[BaseException] = []
            for key, answer in zip(keys, answers, strict=True):
                if isinstance(answer, asyncio.CancelledError):
                    raise answer
                if isinstance(answer, BaseException):
                    failures.append(answer)
                else:
                    found[key] = answer
            refused = [error for error in failures if isinstance(error, AuthenticationError)]
            if refused or (failures and not found):
                raise (refused or failures)[0]
        self._keep(found)
        return Counts(found, failures[0] if failures else None)

    async def _first(self, key: ViewKey) -> int | None:
        client = await self._current.asking()
        page = await client.list_analyses(key.project_id, key.status, 1)
        return page.total

    def _keep(self, found: dict[ViewKey, int | None]) -> None:
        if self._cache is None:
            return
        for project_id in {key.project_id for key in found}:
            mine = {k.status: t for k, t in found.items() if k.project_id == project_id}
            known = {status: total for status, total in mine.items() if total is not None}
            if known:
                self._cache.store_totals(project_id, known)

    async def kept_totals(self, project_id: str | None) -> dict[str | None, tuple[int, datetime]]:
        """The totals the cache kept for a project's statuses (None: all) and when each
        was fetched, once the key in use may see them (else none)."""
        return await self._kept.when_open(lambda: self._kept.totals(project_id), {})


class CountCache:
    """Totals per (project, status): the last number seen for each and when (None: the
    server's was no count, shown as unknown). An old number is kept, and said to be stale,
    until a new one comes: a total never goes blank."""

    def __init__(
        self,
        ttl_s: float = COUNT_TTL_S,
        clock: Callable[[], float] = time.monotonic,
        due_s: float = TOTALS_DUE_S,
    ) -> None:
        """Totals stale after `ttl_s` and due again after `due_s` seconds of `clock`."""
        self.ttl_s = ttl_s
        self.due_s = due_s
        self.clock = clock
        self._values: dict[ViewKey, tuple[int | None, float]] = {}

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def get(self, key: ViewKey) -> int | None:
        """The last total seen for `key`, however old; None when none was, or unknown."""
        entry = self._values.get(key)
        return None if entry is None else entry[0]

    def is_fresh(self, key: ViewKey) -> bool:
        """Whether `key`'s total was seen within the time-to-live."""
        entry = self._values.get(key)
        return entry is not None and self.clock() - entry[1] <= self.ttl_s

    def put(self, key: ViewKey, total: int | None, *, age_s: float = 0.0) -> None:
        """Remember a total seen now (or `age_s` seconds ago); None: unknown."""
        self._values[key] = (total, self.clock() - age_s)

    def forget(self, key: ViewKey) -> None:
        """Forget `key`'s total (it is no longer to be shown)."""
        self._values.pop(key, None)

    def missing(self, keys: Sequence[ViewKey]) -> list[ViewKey]:
        """The keys with no fresh total."""
        return [key for key in keys if not self.is_fresh(key)]

    def due(self, keys: Sequence[ViewKey]) -> list[ViewKey]:
        """The keys an idle app asks for again: no total yet, or one older than `due_s`;
        the oldest first."""
        now = self.clock()
        ages = {
            key: now - self._values[key][1] if key in self._values else math.inf for key in keys
        }
        return sorted((key for key in keys if ages[key] > self.due_s), key=lambda k: -ages[k])

    def by_status(self, project_id: str | None) -> dict[AnalysisStatus | None, int | None]:
        """The totals seen for a project's status filters, fresh or not (None: unknown)."""
        keys = ViewKey(project_id).siblings()
        return {key.status: self._values[key][0] for key in keys if key in self._values}

    def stale(self, project_id: str | None) -> set[AnalysisStatus | None]:
        """The status filters of a project whose known total is no longer fresh."""
        keys = ViewKey(project_id).siblings()
        return {key.status for key in keys if key in self._values and not self.is_fresh(key)}

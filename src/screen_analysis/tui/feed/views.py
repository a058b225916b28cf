"""What the main table shows (a view), and the totals per status kept for a short time.

Headless: no Textual.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from screen_analysis.api.models import AnalysisStatus

PAGE_SIZE = 100
COUNT_TTL_S = 30.0
STATUSES: tuple[AnalysisStatus | None, ...] = (
    None,
    AnalysisStatus.PENDING,
    AnalysisStatus.PROCESSING,
    AnalysisStatus.COMPLETED,
    AnalysisStatus.FAILED,
)


class ViewKey(NamedTuple):
    """What the table shows: one project (or all) and one status (or all)."""

    project_id: str | None = None
    status: AnalysisStatus | None = None

    def siblings(self) -> list[ViewKey]:
        """This project's views for every status filter (All first)."""
        return [ViewKey(self.project_id, status) for status in STATUSES]


EMPTY_WORDS: dict[AnalysisStatus | None, str] = {
    None: "No analyses {where} yet.",
    AnalysisStatus.PENDING: "Nothing is waiting to be scored {where}: the queue is empty.",
    AnalysisStatus.PROCESSING: "Nothing is being scored {where} right now.",
    AnalysisStatus.COMPLETED: "No analysis {where} has completed yet.",
    AnalysisStatus.FAILED: "No analysis {where} has failed.",
}


def empty_words(key: ViewKey) -> str:
    """The one sentence a view with no analyses says, by its status and scope: "Nothing is
    waiting to be scored in this project: the queue is empty." """
    where = "in this project" if key.project_id is not None else "on this server"
    return EMPTY_WORDS[key.status].format(where=where)


class CountCache:
    """Totals per (project, status): the last number seen for each and when (None: the
    server's was no count, shown as unknown). An old number is kept, and said to be stale,
    until a new one comes: a total never goes blank."""

    def __init__(
        self, ttl_s: float = COUNT_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_s = ttl_s
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

    def by_status(self, project_id: str | None) -> dict[AnalysisStatus | None, int | None]:
        """The totals seen for a project's status filters, fresh or not (None: unknown)."""
        keys = ViewKey(project_id).siblings()
        return {key.status: self._values[key][0] for key in keys if key in self._values}

    def stale(self, project_id: str | None) -> set[AnalysisStatus | None]:
        """The status filters of a project whose known total is no longer fresh."""
        keys = ViewKey(project_id).siblings()
        return {key.status for key in keys if key in self._values and not self.is_fresh(key)}

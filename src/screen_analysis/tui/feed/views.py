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


class CountCache:
    """Totals per (project, status), kept for a short time."""

    def __init__(
        self, ttl_s: float = COUNT_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self._values: dict[ViewKey, tuple[int, float]] = {}

    def get(self, key: ViewKey) -> int | None:
        """The cached total, or None when missing or too old."""
        entry = self._values.get(key)
        if entry is None or self.clock() - entry[1] > self.ttl_s:
            return None
        return entry[0]

    def put(self, key: ViewKey, total: int) -> None:
        """Remember a total seen now."""
        self._values[key] = (total, self.clock())

    def missing(self, keys: Sequence[ViewKey]) -> list[ViewKey]:
        """The keys with no fresh total."""
        return [key for key in keys if self.get(key) is None]

    def forget(self, project_id: str | None) -> None:
        """Drop a project's totals, so they are asked again."""
        self._values = {k: v for k, v in self._values.items() if k.project_id != project_id}

    def by_status(self, project_id: str | None) -> dict[AnalysisStatus | None, int]:
        """The fresh totals of a project's status filters (missing ones left out)."""
        found = {key.status: self.get(key) for key in ViewKey(project_id).siblings()}
        return {status: total for status, total in found.items() if total is not None}

"""What the main table shows (a view: a project and a status), the statuses it is filtered
by, and what a view with no analyses says. Headless: no Textual.
"""

from __future__ import annotations

from typing import NamedTuple

from screen_analysis.api.models import AnalysisStatus

PAGE_SIZE = 100
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

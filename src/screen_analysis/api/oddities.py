"""What a listing's answers say that does not add up, each kind told once per listing.

The policy (docs/reliability.md, "What a server may send"): what can be read is shown, and
what is odd is said: a total that is no count (shown as unknown), a next_cursor that could
not be read, rows whose status or project is not the one the filter asked for (listed as
sent, never dropped). The command line prints these as warnings on stderr, the app in one
notification per view; both word them here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from screen_analysis.api.models import Analysis, InvalidAnalysis
from screen_analysis.numbers import count_of
from screen_analysis.safe_text import one_line


class OddPage(Protocol):
    """What the notes read of a page (models or raw)."""

    @property
    def odd_total(self) -> str | None:
        """Why the page's total is unknown."""

    @property
    def odd_cursor(self) -> str | None:
        """Why no next page can be asked for."""


UNKNOWN_TOTAL = "?"
"""How a total the server did not give as a count is shown ("Loaded 5 of ?")."""


def _field(item: Any, name: str) -> object:
    """A field of a row as received: a JSON object, a model, an invalid item's raw object."""
    if isinstance(item, Analysis):
        return getattr(item, name)
    if isinstance(item, InvalidAnalysis):
        item = item.raw
    return item.get(name) if isinstance(item, dict) else None


class ListingNotes:
    """The odd things of one listing (a command's, a view's), each said once.

    `page()` returns what a page brings to say that was not said before; `rows()` counts the
    rows that contradict the filters; `summary()` says how many did.
    """

    def __init__(self, project_id: str | None = None, status: str | None = None) -> None:
        self.project_id = project_id
        self.status = status
        self.other_status = 0
        self.other_project = 0
        self._said: set[str] = set()

    def page(self, page: OddPage, *, cursor: bool = True) -> list[str]:
        """The notes of `page` not said yet in this listing (one about the total at most);
        without `cursor`, none about its next_cursor (the walk's error will say it)."""
        notes = []
        if page.odd_total is not None and "total" not in self._said:
            self._said.add("total")
            notes.append(f"{page.odd_total}: the total is shown as unknown ({UNKNOWN_TOTAL})")
        if cursor and page.odd_cursor is not None and "cursor" not in self._said:
            self._said.add("cursor")
            notes.append(f"{page.odd_cursor}: no further page can be asked for")
        return notes

    def rows(self, items: Iterable[Any]) -> None:
        """Count the rows whose status or project is not the filter's (they stay listed)."""
        for item in items:
            status = _field(item, "status")
            if self.status is not None and isinstance(status, str) and status != self.status:
                self.other_status += 1
            project = _field(item, "project_id")
            if self.project_id is not None and isinstance(project, str):
                self.other_project += project != self.project_id

    def new_rows(self, items: Iterable[Any]) -> list[str]:
        """Count `items` as `rows` does; a line for each kind of contradiction the first
        time it shows in the listing (for a view: said once, as it happens)."""
        status, project = self.other_status, self.other_project
        self.rows(items)
        lines = []
        if self.other_status and not status:
            lines.append(f"Some analyses came with a status other than {_quoted(self.status)}")
        if self.other_project and not project:
            lines.append(f"Some analyses came from a project other than {_quoted(self.project_id)}")
        return [line + " (shown as sent)" for line in lines]

    def summary(self) -> list[str]:
        """How many rows contradicted the filters, one line each kind ([] when none did)."""
        lines = []
        if self.other_status:
            lines.append(
                f"{_rows(self.other_status)} a status other than "
                f"{_quoted(self.status)} (listed as sent)"
            )
        if self.other_project:
            lines.append(
                f"{_rows(self.other_project)} a project other than "
                f"{_quoted(self.project_id)} (listed as sent)"
            )
        return lines


def _rows(count: int) -> str:
    return count_of(count, "analysis", "analyses") + " came with"


def _quoted(value: str | None) -> str:
    return repr(one_line(value or "", limit=60))


def other_id(asked: str, got: str) -> str | None:
    """What to say when the server sent another resource than the one asked for (None when
    it sent the one asked for)."""
    if asked == got:
        return None
    return f"asked for {_quoted(asked)}, the server sent {_quoted(got)}"

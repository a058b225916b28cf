"""Which projects the sidebar asks the server about, and when: a bounded number per refresh
(headless).

A page of rows from a server with thousands of projects names a hundred of them; asking
`GET /v1/projects/{id}` for each, as they arrive, sent about two hundred requests for ten
PageDowns. Instead a project is named by its id until it is asked for, and the sidebar
asks for

- the projects the reader is looking at, at once: the entries in the sidebar's view, its
  highlighted one, the project of the analysis in the detail, one chosen or added;
- besides those, at most `PER_REFRESH` others per refresh (a view shown from the top,
  `r`, a refresh round that saw counts move), those that failed first, then in the order
  they were named; the rest wait for a later refresh or to come into view;

and never more than `IN_FLIGHT` at a time.
"""

from __future__ import annotations

from collections.abc import Iterable

PER_REFRESH = 10
IN_FLIGHT = 8


class AskQueue:
    """The projects waiting to be asked for, those being asked for, and what a refresh
    still allows."""

    def __init__(self, per_refresh: int = PER_REFRESH, in_flight: int = IN_FLIGHT) -> None:
        """Start with a refresh's worth to spend (what the first rows name is asked for)."""
        self.per_refresh = per_refresh
        self.in_flight = in_flight
        self._waiting: dict[str, None] = {}  # in the order they are asked for
        self._urgent: dict[str, None] = {}
        self._asking: set[str] = set()
        self._budget = per_refresh

    def wait(self, project_ids: Iterable[str], *, first: bool = False) -> None:
        """Ask for these when a refresh allows (`first`: before those already waiting)."""
        added = dict.fromkeys(project_ids)
        self._waiting = {**added, **self._waiting} if first else {**self._waiting, **added}

    def urge(self, project_ids: Iterable[str]) -> None:
        """Ask for these as soon as one may be asked: the reader is looking at them."""
        self._urgent.update(dict.fromkeys(project_ids))

    def refresh(self) -> None:
        """A refresh: another `per_refresh` may be asked for."""
        self._budget = self.per_refresh

    def forget(self, project_id: str) -> None:
        """Drop a project from every list."""
        self._waiting.pop(project_id, None)
        self._urgent.pop(project_id, None)
        self._asking.discard(project_id)

    def take(self) -> list[str]:
        """The projects to ask for now (each now counted as being asked for): the urgent
        ones, then waiting ones while the refresh allows, up to `in_flight` at a time."""
        taken: list[str] = []
        for source, counted in ((self._urgent, False), (self._waiting, True)):
            for project_id in list(source):
                if len(self._asking) >= self.in_flight or (counted and self._budget <= 0):
                    return taken
                if project_id in self._asking:
                    continue  # asked already: it is asked again once that answer is in
                del source[project_id]
                self._urgent.pop(project_id, None)
                self._waiting.pop(project_id, None)
                self._budget -= counted
                self._asking.add(project_id)
                taken.append(project_id)
        return taken

    def done(self, project_id: str) -> None:
        """The answer about `project_id` came (or the request failed)."""
        self._asking.discard(project_id)

    @property
    def asking(self) -> int:
        """How many projects are being asked for."""
        return len(self._asking)

"""Watched analyses and what a page says of them, headless: the one book the app's `w` and
`screen-analysis watch` keep.

The API lists analyses and has no request for one by its id, so a watched analysis is
found again on a page of one listing (a project's, or every project's, all statuses): its
*spot* is the cursor that page was asked with (None: the first page). Keyset cursors hold:
the rows after a cursor only ever lose rows, so a spot found stays right; an analysis on
the first page slides down as new ones arrive, and when it is not there any more its spot
moves to the page below. Each round asks one page of the listing for the book, whatever
is watched: the spot whose analyses were looked for longest ago (most of them on a tie),
so every spot has its turn. Pages
asked for other reasons (a view's refresh) are told to the book too and cost nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from screen_analysis.api.models import Analysis, AnalysisItem, AnalysisStatus

MAX_WATCHED = 1000  # a bound on what is watched at once (and kept between runs)
FINISHED = (AnalysisStatus.COMPLETED, AnalysisStatus.FAILED)


class EventKind(StrEnum):
    """What happened to an analysis."""

    CREATED = "created"
    STATUS = "status"  # moved on, still in flight (pending → processing)
    COMPLETED = "completed"
    FAILED = "failed"


class WatchEvent(NamedTuple):
    """One change: its kind, the analysis as it is now, and the status it had before."""

    kind: EventKind
    analysis: Analysis
    previous: str | None = None

    @property
    def finished(self) -> bool:
        """Whether the analysis has finished (completed or failed)."""
        return self.kind in (EventKind.COMPLETED, EventKind.FAILED)

    def document(self) -> dict[str, Any]:
        """The event as one JSON object: `{"event", "previous_status", "analysis"}`."""
        return {
            "event": self.kind.value,
            "previous_status": self.previous,
            "analysis": self.analysis.model_dump(mode="json"),
        }


def event_for(analysis: Analysis, previous: str | None) -> WatchEvent | None:
    """The change from `previous` (a status) to `analysis`, or None when there is none."""
    status = analysis.status
    if status == previous:
        return None
    if status == AnalysisStatus.COMPLETED:
        return WatchEvent(EventKind.COMPLETED, analysis, previous)
    if status == AnalysisStatus.FAILED:
        return WatchEvent(EventKind.FAILED, analysis, previous)
    return WatchEvent(EventKind.STATUS, analysis, previous)


class Ask(NamedTuple):
    """The page the book asks for this round: the listing's page asked with `cursor`."""

    cursor: str | None


class _Watched:
    """One watched analysis: its last status, where it is found, rounds since last seen."""

    __slots__ = ("spot", "status", "waited")

    def __init__(self, status: str | None, spot: str | None) -> None:
        self.status = status
        self.spot = spot
        self.waited = 0


class WatchBook:
    """The analyses watched until they finish (see the module): bounded, in watch order."""

    def __init__(self, limit: int = MAX_WATCHED) -> None:
        """Watch at most `limit` analyses at once."""
        self.limit = limit
        self._watched: dict[str, _Watched] = {}

    def __contains__(self, analysis_id: object) -> bool:
        return analysis_id in self._watched

    def __len__(self) -> int:
        return len(self._watched)

    @property
    def ids(self) -> list[str]:
        """The watched ids, oldest watch first."""
        return list(self._watched)

    def entries(self) -> list[tuple[str, str | None, str | None]]:
        """(id, status, spot) of each watched analysis, to keep between runs."""
        return [(key, w.status, w.spot) for key, w in self._watched.items()]

    def watch(self, analysis_id: str, status: str | None, spot: str | None = None) -> bool:
        """Watch an analysis last seen in `status`, found on the page asked with `spot`.
        False (and nothing watched) when it has finished already or the book is full."""
        if status in FINISHED:
            return False
        if analysis_id not in self._watched and len(self._watched) >= self.limit:
            return False
        self._watched[analysis_id] = _Watched(status, spot)
        return True

    def unwatch(self, analysis_id: str) -> bool:
        """Stop watching; False when it was not watched."""
        return self._watched.pop(analysis_id, None) is not None

    def due(self) -> Ask | None:
        """The one page to ask this round, or None when nothing is watched."""
        spots: dict[str | None, tuple[int, int]] = {}
        for watched in self._watched.values():
            waited, count = spots.get(watched.spot, (0, 0))
            spots[watched.spot] = (max(waited, watched.waited), count + 1)
        if not spots:
            return None
        return Ask(max(spots, key=lambda spot: spots[spot]))

    def seen(
        self, rows: Iterable[AnalysisItem], asked: Ask | None = None, next_cursor: str | None = None
    ) -> list[WatchEvent]:
        """What a page says of the watched analyses: their changes, in the page's order; a
        finished one is dropped. `asked` is the book's own page (its listing's, asked with
        that cursor, `next_cursor` the page's): the spots move with it. Rows of other pages
        (a view's refresh) only tell changes."""
        events: list[WatchEvent] = []
        found: set[str] = set()
        for item in rows:
            if not isinstance(item, Analysis) or (watched := self._watched.get(item.id)) is None:
                continue
            found.add(item.id)
            watched.waited = 0
            if asked is not None:
                watched.spot = asked.cursor
            event = event_for(item, watched.status)
            watched.status = item.status
            if event is not None:
                events.append(event)
                if event.finished:
                    del self._watched[item.id]
        if asked is not None:
            self._missing(asked, found, next_cursor)
        return events

    def _missing(self, asked: Ask, found: set[str], next_cursor: str | None) -> None:
        """The watched analyses the asked page should have held and did not: further down
        (the first page's slide as new ones arrive), unless it was the last page."""
        for key, watched in self._watched.items():
            if key in found:
                continue
            if watched.spot != asked.cursor:
                watched.waited += 1  # not looked for this round
                continue
            watched.waited = 0
            if next_cursor is not None:
                watched.spot = next_cursor


def finished_ids(events: Sequence[WatchEvent]) -> set[str]:
    """The ids of the analyses these events say have finished."""
    return {event.analysis.id for event in events if event.finished}

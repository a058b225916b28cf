"""The order rows are shown in: the server's, or sorted by a column among the loaded rows.

Headless. A sort costs O(n log n) once; rows appended afterwards are put in place by
bisection (O(log n) to find, one list insert each), so a page arriving into a sorted table
stays cheap. Ties keep the server's order; rows without a value sort last either way.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from datetime import UTC
from typing import Any, NamedTuple

from screen_analysis.api.models import Analysis, AnalysisItem, AnalysisStatus
from screen_analysis.safe_text import DISPLAY_LIMIT, clean

SORT_COLUMNS = ("score", "created", "label", "status")
"""What the sort key cycles through, in order, before the server's order comes back."""
_FIRST_DESCENDING = {"score": True, "created": False, "label": False, "status": False}
_STATUS_RANK = {status: rank for rank, status in enumerate(AnalysisStatus)}
SortKey = tuple[Any, ...]


class SortOrder(NamedTuple):
    """A column and a direction, or (column None) the server's order."""

    column: str | None = None
    descending: bool = False

    @property
    def arrow(self) -> str:
        """▼ or ▲ for a sorted column, empty for the server's order."""
        if self.column is None:
            return ""
        return "▼" if self.descending else "▲"

    def describe(self) -> str:
        """'score ▼', or '' for the server's order."""
        return f"{self.column} {self.arrow}" if self.column else ""


SERVER_ORDER = SortOrder()


def next_sort(current: SortOrder) -> SortOrder:
    """The key's cycle: score, created, label, status, then the server's order again."""
    if current.column is None:
        column: str | None = SORT_COLUMNS[0]
    else:
        at = SORT_COLUMNS.index(current.column) if current.column in SORT_COLUMNS else -1
        column = SORT_COLUMNS[at + 1] if at + 1 < len(SORT_COLUMNS) else None
    return SortOrder(column, _FIRST_DESCENDING[column]) if column else SERVER_ORDER


def clicked_sort(current: SortOrder, column: str) -> SortOrder:
    """A click on a header: sort by it, then the other way, then the server's order."""
    if column not in SORT_COLUMNS:
        return current
    first = _FIRST_DESCENDING[column]
    if current.column != column:
        return SortOrder(column, first)
    if current.descending == first:
        return SortOrder(column, not first)
    return SERVER_ORDER


def _value(item: AnalysisItem, column: str) -> Any:
    """The comparable value of `item` in `column`, or None when it has none."""
    if not isinstance(item, Analysis):
        return len(_STATUS_RANK) + 1 if column == "status" else None
    if column == "score":
        score = item.score
        return None if isinstance(score, bool) or score is None else float(score)
    if column == "created":
        when = item.created_at
        if when is None:
            return None
        return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()
    if column == "label":
        return clean(item.label, limit=DISPLAY_LIMIT).casefold() or None
    status = item.status
    return _STATUS_RANK[status] if isinstance(status, AnalysisStatus) else len(_STATUS_RANK)


def sort_key(item: AnalysisItem, position: int, order: SortOrder) -> SortKey:
    """The key of the row at `position` (server order) under `order`.

    Descending orders are kept ascending and read backwards, so the key is built to come
    out right that way: missing values first (read last), ties by falling position.
    """
    value = _value(item, order.column or "")
    if order.descending:
        return (value is not None, value if value is not None else 0, -position)
    return (value is None, value if value is not None else 0, position)


class RowOrder:
    """Maps display rows to positions in the server's order, under a `SortOrder`."""

    def __init__(self) -> None:
        self.order = SERVER_ORDER
        self._keys: list[SortKey] = []  # sorted ascending; the position is the last element

    @property
    def sorted(self) -> bool:
        """Whether rows are shown in an order other than the server's."""
        return self.order.column is not None

    def sort(self, items: Sequence[AnalysisItem], order: SortOrder) -> None:
        """Sort all of `items` under `order` (O(n log n))."""
        self.order = order
        if order.column is None:
            self._keys = []
            return
        self._keys = sorted(sort_key(item, i, order) for i, item in enumerate(items))

    def resort(self, items: Sequence[AnalysisItem]) -> None:
        """Sort again under the same order (positions changed: rows were inserted above)."""
        self.sort(items, self.order)

    def add(self, items: Sequence[AnalysisItem], start: int) -> None:
        """Put the rows at positions `start`… (just appended) in their place."""
        if not self.sorted:
            return
        order, keys = self.order, self._keys
        for position in range(start, len(items)):
            bisect.insort(keys, sort_key(items[position], position, order))

    def replace(self, position: int, old: AnalysisItem, new: AnalysisItem) -> None:
        """The row at `position` changed from `old` to `new`: move it where it now belongs."""
        if not self.sorted:
            return
        old_key = sort_key(old, position, self.order)
        new_key = sort_key(new, position, self.order)
        if old_key != new_key:
            del self._keys[bisect.bisect_left(self._keys, old_key)]
            bisect.insort(self._keys, new_key)

    def position(self, row: int) -> int:
        """The server-order position of display row `row`."""
        if not self.sorted:
            return row
        keys = self._keys
        key = keys[len(keys) - 1 - row] if self.order.descending else keys[row]
        position: int = key[-1]
        return -position if self.order.descending else position

    def row(self, item: AnalysisItem, position: int) -> int:
        """The display row of `item`, which is at server-order `position`."""
        if not self.sorted:
            return position
        at = bisect.bisect_left(self._keys, sort_key(item, position, self.order))
        return len(self._keys) - 1 - at if self.order.descending else at

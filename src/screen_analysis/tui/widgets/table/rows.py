"""The loaded rows of the analyses table, headless: server order, an id index, a sort order.

Rows are kept in the order the server sent them (positions); `RowOrder` maps the rows shown
(display rows) to positions. Appending is O(len(page)) unsorted and O(len(page) log n)
sorted; ids map to their first position.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.widgets.table.order import RowOrder, SortOrder


class ItemsView(Sequence[AnalysisItem]):
    """A read-only view of the loaded rows in display order (no copy)."""

    __slots__ = ("_items", "_order")

    def __init__(self, items: list[AnalysisItem], order: RowOrder) -> None:
        self._items = items
        self._order = order

    @overload
    def __getitem__(self, index: int) -> AnalysisItem: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[AnalysisItem]: ...
    def __getitem__(self, index: int | slice) -> AnalysisItem | Sequence[AnalysisItem]:
        if not self._order.sorted:
            return self._items[index]
        if isinstance(index, slice):
            return [self._items[self._order.position(r)] for r in range(len(self))[index]]
        row = index + len(self._items) if index < 0 else index
        if not 0 <= row < len(self._items):
            raise IndexError(index)
        return self._items[self._order.position(row)]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[AnalysisItem]:
        if not self._order.sorted:
            return iter(self._items)
        return (self._items[self._order.position(r)] for r in range(len(self._items)))


class TableRows:
    """The rows of the table: what is loaded, in which order it is shown."""

    def __init__(self) -> None:
        self._items: list[AnalysisItem] = []  # in the server's order
        self._index: dict[str, int] = {}  # id -> first position
        self._order = RowOrder()

    def __len__(self) -> int:
        return len(self._items)

    @property
    def view(self) -> ItemsView:
        """The rows in display order."""
        return ItemsView(self._items, self._order)

    @property
    def order(self) -> SortOrder:
        """The order the rows are shown in."""
        return self._order.order

    @property
    def sorted(self) -> bool:
        """Whether the rows are shown in an order other than the server's."""
        return self._order.sorted

    def sort(self, order: SortOrder) -> None:
        """Show the rows in `order` (O(n log n))."""
        self._order.sort(self._items, order)

    def position(self, row: int) -> int:
        """The server-order position of display row `row`."""
        return self._order.position(row)

    def at_position(self, position: int) -> AnalysisItem:
        """The item at server-order `position`."""
        return self._items[position]

    def item(self, row: int) -> AnalysisItem:
        """The item shown at display row `row`."""
        return self._items[self._order.position(row)]

    def row_of_position(self, position: int) -> int:
        """The display row of the item at server-order `position`."""
        return self._order.row(self._items[position], position)

    def position_of(self, item: AnalysisItem) -> int | None:
        """The position of `item` (by id; by identity for an item without one)."""
        if item.id is not None:
            return self._index.get(item.id)
        return next((i for i, known in enumerate(self._items) if known is item), None)

    def row_of_id(self, analysis_id: str) -> int | None:
        """The display row of the analysis with `analysis_id`, or None."""
        position = self._index.get(analysis_id)
        return None if position is None else self.row_of_position(position)

    def ids(self) -> frozenset[str]:
        """The ids of the loaded rows."""
        return frozenset(self._index)

    def knows(self, analysis_id: str | None) -> bool:
        """Whether an analysis with this id is loaded."""
        return analysis_id is not None and analysis_id in self._index

    def replace_all(self, items: Iterable[AnalysisItem]) -> None:
        """Drop every row and load `items`, in the current order."""
        self._items = list(items)
        self._index = {}
        self._reindex(0)
        self._order.resort(self._items)

    def extend(self, items: Iterable[AnalysisItem]) -> int:
        """Append rows (each put in its place when sorted); returns how many."""
        start = len(self._items)
        self._items.extend(items)
        added = len(self._items) - start
        if added:
            self._reindex(start)
            if added > start:  # more new rows than old: sorting all at once is cheaper
                self._order.resort(self._items)
            else:
                self._order.add(self._items, start)
        return added

    def prepend(self, items: Sequence[AnalysisItem]) -> list[AnalysisItem]:
        """Insert rows above the first (ids already loaded skipped); returns those added."""
        new = [item for item in items if not self.knows(item.id)]
        if new:
            self._items[:0] = new
            self._index = {}
            self._reindex(0)
            self._order.resort(self._items)
        return new

    def update(self, item: AnalysisItem) -> tuple[int, AnalysisItem] | None:
        """Replace the loaded row with `item`'s id; (position, the old item) when it changed."""
        if item.id is None or (position := self._index.get(item.id)) is None:
            return None
        old = self._items[position]
        if old == item:
            return None
        self._items[position] = item
        self._order.replace(position, old, item)
        return position, old

    def _reindex(self, start: int) -> None:
        index = self._index
        for position in range(start, len(self._items)):
            item_id = self._items[position].id
            if item_id is not None and item_id not in index:
                index[item_id] = position

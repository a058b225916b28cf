"""Messages the analyses table posts; reached as `AnalysesTable.Highlighted` and so on.

Handlers are named as for messages declared inside the table (`on_analyses_table_…`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.widgets.table_order import SortOrder

if TYPE_CHECKING:
    from screen_analysis.tui.widgets.table_cursor import RowCursorView

NAMESPACE = "analyses_table"


class TableMessage(Message, namespace=NAMESPACE):
    """A message from the table; `control` is the table."""

    def __init__(self, table: RowCursorView) -> None:
        super().__init__()
        self.table = table

    @property
    def control(self) -> RowCursorView:
        """The table that posted the message."""
        return self.table


class TableRowMessage(TableMessage, namespace=NAMESPACE):
    """A message about one row of the table (`index`: its display row)."""

    def __init__(self, table: RowCursorView, item: AnalysisItem, index: int) -> None:
        super().__init__(table)
        self.item = item
        self.index = index


class Highlighted(TableRowMessage, namespace=NAMESPACE):
    """The cursor moved to another row (or the rows were replaced)."""


class Selected(TableRowMessage, namespace=NAMESPACE):
    """A row was chosen with Enter or a click on the highlighted row."""


class SortChanged(TableMessage, namespace=NAMESPACE):
    """The rows are shown in another order (`order.column` None: the server's)."""

    def __init__(self, table: RowCursorView, order: SortOrder) -> None:
        super().__init__(table)
        self.order = order


class NearEnd(TableMessage, namespace=NAMESPACE):
    """The cursor or the viewport came within the threshold of the last loaded row."""

    def __init__(self, table: RowCursorView, loaded: int) -> None:
        super().__init__(table)
        self.loaded = loaded

"""Messages the analyses table posts; reached as `AnalysesTable.Highlighted` and so on.

Handlers are named as for messages declared inside the table (`on_analyses_table_…`).
"""

from __future__ import annotations

from textual.message import Message
from textual.widget import Widget

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.widgets.table.order import SortOrder

NAMESPACE = "analyses_table"


class TableMessage(Message, namespace=NAMESPACE):
    """A message from the table; `control` is the table."""

    def __init__(self, table: Widget) -> None:
        super().__init__()
        self.table = table

    @property
    def control(self) -> Widget:
        """The table that posted the message."""
        return self.table


class TableRowMessage(TableMessage, namespace=NAMESPACE):
    """A message about one row of the table (`index`: its display row)."""

    def __init__(self, table: Widget, item: AnalysisItem, index: int) -> None:
        super().__init__(table)
        self.item = item
        self.index = index


class Highlighted(TableRowMessage, namespace=NAMESPACE):
    """The cursor moved to another row (or the rows were replaced)."""


class Selected(TableRowMessage, namespace=NAMESPACE):
    """A row was chosen with Enter or a click on the highlighted row."""


class SortChanged(TableMessage, namespace=NAMESPACE):
    """The rows are shown in another order (`order.column` None: the server's)."""

    def __init__(self, table: Widget, order: SortOrder) -> None:
        super().__init__(table)
        self.order = order


class Wanted(TableMessage, namespace=NAMESPACE):
    """The reader needs `rows` rows loaded (the cursor or the view went near or past the
    loaded end while more rows exist); the owner pages them in, one request at a time."""

    def __init__(self, table: Widget, rows: int) -> None:
        super().__init__(table)
        self.rows = rows

"""Messages the analyses table posts; reached as `AnalysesTable.Highlighted` and so on.

Handlers are named as for messages declared inside the table (`on_analyses_table_…`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.message import Message
from textual.widget import Widget

from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.browse import ViewKey
from screen_analysis.browse.order import SortOrder

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


# What the analyses pane posts (reached as `AnalysesPane.RowsArrived` and so on)


class RowsArrived(Message):
    """Rows were added to the table (their projects may be new); `kept`: rows the local
    cache kept, not the server's."""

    def __init__(self, items: Sequence[AnalysisItem], *, kept: bool = False) -> None:
        super().__init__()
        self.items = items
        self.kept = kept

    @property
    def project_ids(self) -> list[str]:
        """The projects of the rows, each once, in order."""
        ids = (i.project_id for i in self.items if isinstance(i, Analysis))
        return list(dict.fromkeys(p for p in ids if p))


class Moved(Message):
    """A refresh round saw rows arrive or change, or the view's total move: counts
    elsewhere are worth reading again (`project_ids`: the projects touched)."""

    def __init__(self, view: ViewKey, project_ids: frozenset[str]) -> None:
        super().__init__()
        self.view = view
        self.project_ids = project_ids


class TotalSeen(Message):
    """The server said how many analyses a view holds (with a page of it); None: its total
    was no count (shown as unknown). `spare`: from an auto-refresh round, the requests its
    budget leaves for other totals that are due; None: from a page the user asked for."""

    def __init__(self, view: ViewKey, total: int | None, spare: int | None = None) -> None:
        super().__init__()
        self.view = view
        self.total = total
        self.spare = spare


class OfflineChanged(Message):
    """The pane went offline, or came back: `mark` is how the parts beside it say so
    ("offline · data from 15:47"; "" once the server answers again)."""

    def __init__(self, mark: str) -> None:
        super().__init__()
        self.mark = mark


class Failed(Message):
    """A request of the pane failed. `again` asks it again; `words` say it for a person;
    `loaded` whether the view had shown rows before."""

    def __init__(
        self, error: Exception, again: Callable[[], None], words: str, loaded: bool
    ) -> None:
        super().__init__()
        self.error = error
        self.again = again
        self.words = words
        self.loaded = loaded

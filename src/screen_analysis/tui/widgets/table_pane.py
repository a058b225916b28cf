"""The centre column of the main screen: the analyses table and the status line under it."""

from __future__ import annotations

from textual import on
from textual.containers import Vertical

from screen_analysis.tui.widgets.analyses_table import AnalysesTable
from screen_analysis.tui.widgets.status_line import StatusLine


class TablePane(Vertical):
    """Holds the table and its status line; tells the status line how the rows are sorted."""

    @on(AnalysesTable.SortChanged)
    def _sort_changed(self, event: AnalysesTable.SortChanged) -> None:
        for status_line in self.query(StatusLine):
            status_line.sorted_by = event.order.describe()

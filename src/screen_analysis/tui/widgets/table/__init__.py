"""The analyses table (`AnalysesTable`) and the pane that pages its rows in
(`AnalysesPane`): a virtualised Line-API table, its rows, order, painting and messages."""

from screen_analysis.tui.widgets.table.pane import AnalysesPane
from screen_analysis.tui.widgets.table.table import MARK, AnalysesTable, layout_columns

__all__ = ["MARK", "AnalysesPane", "AnalysesTable", "layout_columns"]

"""The project sidebar: the widget (`widget`), its list drawn line by line (`project_list`),
what an entry says (`entries`) and which projects it asks the server about (`asking`)."""

from screen_analysis.tui.widgets.project_sidebar.entries import entry_lines, listing_order
from screen_analysis.tui.widgets.project_sidebar.project_list import ALL_ID
from screen_analysis.tui.widgets.project_sidebar.widget import (
    FOLD_BELOW,
    ProjectSidebar,
    ProjectSource,
)

__all__ = [
    "ALL_ID",
    "FOLD_BELOW",
    "ProjectSidebar",
    "ProjectSource",
    "entry_lines",
    "listing_order",
]

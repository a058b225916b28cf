"""The analyses table's keys, as data (every binding has an id; `[keymap]` remaps them):
select, move the cursor (past the loaded rows when more exist), sort."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from screen_analysis.tui.keys import SHOWN, RankedBinding

TABLE_KEYS: list[BindingType] = [
    RankedBinding(
        "enter",
        "select_cursor",
        "Select",
        tooltip="Select the highlighted analysis",
        id="select",
        rank=SHOWN,
    ),
    Binding("up,k", "move('up')", "Cursor up", show=False, id="cursor-up"),
    Binding("down,j", "move('down')", "Cursor down", show=False, id="cursor-down"),
    Binding("pageup", "move('page-up')", "Page up", show=False, id="page-up"),
    Binding("pagedown", "move('page-down')", "Page down", show=False, id="page-down"),
    Binding(
        "home",
        "move('first')",
        "First row",
        show=False,
        id="first-row",
        tooltip="First row (and the analyses that arrived)",
    ),
    Binding("end", "move('last')", "Last loaded row", show=False, id="last-row"),
    Binding(
        "s",
        "cycle_sort",
        "Sort",
        id="sort",
        tooltip="Sort the loaded rows (score, age, label, status)",
    ),
]

"""The main screen's keys, as data: each binding has an id that `[keymap]` can remap, and a
rank in the key bar (what a presenter needs stays in sight at 120 columns)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from screen_analysis.tui.keys import HANDY, IN_SIGHT, SHOWN, RankedBinding
from screen_analysis.tui.widgets.status_filter import CHOICES

MAIN_KEYS: list[BindingType] = [
    *(
        Binding(
            str(number + 1),
            f"status({number})",
            f"Filter: {word}",
            show=False,
            tooltip=f"Show {word.lower()} analyses",
            id=f"filter-{word.lower()}",
        )
        for number, (_status, word) in enumerate(CHOICES)
    ),
    RankedBinding(
        "r",
        "refresh",
        "Refresh",
        tooltip="Reload the view, or retry what failed",
        id="refresh",
        rank=HANDY,
    ),
    Binding(
        "right_square_bracket",
        "next_view(1)",
        "Next view",
        show=False,
        tooltip="Show the next saved view (a [views.NAME] of the config)",
        id="next-view",
    ),
    Binding(
        "left_square_bracket",
        "next_view(-1)",
        "Previous view",
        show=False,
        tooltip="Show the previous saved view",
        id="previous-view",
    ),
    Binding(
        "C",
        "pick_columns",
        "Columns",
        show=False,
        tooltip="Choose the table's columns (criteria too), kept with the view",
        id="columns",
    ),
    Binding(
        "S",
        "save_view",
        "Save view",
        show=False,
        tooltip="Save the filter, sort and columns shown as a view in the config",
        id="save-view",
    ),
    Binding(
        "p", "toggle_auto_refresh", "Pause", tooltip="Pause or resume the auto-refresh", id="pause"
    ),
    Binding(
        "L",
        "load_all",
        "Load all",
        show=False,
        tooltip="Load every page of the view (up to 100,000 rows); Esc stops",
        id="load-all",
    ),
    RankedBinding(
        "slash", "find", "Find", tooltip="Find in the loaded rows by label", id="find", rank=HANDY
    ),
    Binding(
        "n",
        "find_next",
        "Next match",
        show=False,
        tooltip="Find the next row matching the last search",
        id="find-next",
    ),
    Binding("a", "add_project", "Add project", tooltip="Add a project by id", id="add-project"),
    Binding(
        "y",
        "copy_id",
        "Copy id",
        tooltip="Copy the analysis id to the clipboard (also over SSH)",
        id="copy-id",
    ),
    Binding(
        "Y",
        "copy_url",
        "Copy URL",
        show=False,
        tooltip="Copy the image URL to the clipboard (also over SSH)",
        id="copy-url",
    ),
    Binding(
        "w",
        "watch",
        "Watch",
        tooltip="Watch the highlighted analysis: told when its scoring ends (again: unwatch)",
        id="watch",
    ),
    Binding(
        "W",
        "watch_view",
        "Watch view",
        show=False,
        tooltip="Watch every pending or processing analysis of the view",
        id="watch-view",
    ),
    Binding(
        "e",
        "export",
        "Export",
        show=False,  # in help and the palette; the footer keeps its room for browsing
        tooltip="Write the view to a CSV or JSON Lines file",
        id="export",
    ),
    Binding("o", "open_image", "Open", tooltip="Open the image in a browser", id="open-image"),
    RankedBinding(
        "i", "show_image", "Image", tooltip="Show the image full screen", id="image", rank=SHOWN
    ),
    RankedBinding(
        "v",
        "overview",
        "Overview",
        tooltip="Charts of the project shown (or all): scores over time, criteria, failures",
        id="overview",
        rank=SHOWN,
    ),
    RankedBinding(
        "m",
        "mark",
        "Mark",
        tooltip="Mark the highlighted analysis as A of a comparison",
        id="mark",
        rank=HANDY,  # c without a mark says to press m first
    ),
    RankedBinding(
        "c",
        "compare",
        "Compare",
        tooltip="Compare the marked analysis with the highlighted one",
        id="compare",
        rank=SHOWN,
    ),
    RankedBinding(
        "b",
        "toggle_sidebar",
        "Sidebar",
        tooltip="Fold the project sidebar away, or back",
        id="sidebar",
        rank=IN_SIGHT,  # below 130 columns the sidebar folds away: its key is its only trace
    ),
    Binding(
        "less_than_sign",
        "detail_width(-5)",
        "Detail narrower",
        show=False,
        tooltip="Give the detail pane less of the width (remembered)",
        id="detail-narrower",
    ),
    Binding(
        "greater_than_sign",
        "detail_width(5)",
        "Detail wider",
        show=False,
        tooltip="Give the detail pane more of the width (remembered)",
        id="detail-wider",
    ),
    Binding(
        "escape",
        "close_detail",
        "Back",
        show=False,
        tooltip="Back from the detail to the table",
        id="back",
    ),
]

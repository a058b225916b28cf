"""The keys of the screens opened later (overview, comparison, help), as data: light enough
for the app to list in help and check `[keymap]` against without importing the screens (or
the aggregates behind them)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

OVERVIEW_KEYS: list[BindingType] = [
    Binding("escape", "back", "Back", tooltip="Stop reading, or go back", id="overview-back"),
    Binding("r", "reload", "Refresh", tooltip="Read every page again", id="overview-refresh"),
    Binding("e", "export", "Export", tooltip="Write this overview as a report", id="export"),
]

COMPARE_KEYS: list[BindingType] = [
    Binding("escape,q", "back", "Back", tooltip="Back to the analyses", id="compare-back"),
    Binding("s", "swap", "Swap A/B", tooltip="Swap the two sides", id="compare-swap"),
]

HELP_KEYS: list[BindingType] = [
    Binding("escape,q,question_mark,f1", "dismiss", "Close", show=True, id="help-close"),
]

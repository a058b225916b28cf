"""The app's keys as data: every scope of bindings, in the order help lists them.

Help and the command palette are built from these with the user's `[keymap]` applied, and
`[keymap]` is checked against their ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from screen_analysis.tui.keys import binding_ids, key_help
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.screen_keys import COMPARE_KEYS, HELP_KEYS, OVERVIEW_KEYS
from screen_analysis.tui.widgets.table import AnalysesTable

if TYPE_CHECKING:
    from screen_analysis.tui.screens.help import HelpSection

APP_KEYS: list[BindingType] = [
    Binding("q", "quit", "Quit", tooltip="Quit (exit code 0)", id="quit"),
    Binding("question_mark,f1", "help", "Help", tooltip="This help", key_display="?", id="help"),
]
BINDING_SCOPES: tuple[tuple[str, list[BindingType]], ...] = (
    ("Browse", AnalysesTable.BINDINGS),
    ("Act", MainScreen.BINDINGS),
    ("Anywhere", APP_KEYS),
    ("Overview", OVERVIEW_KEYS),
    ("Compare", COMPARE_KEYS),
)


def remappable_ids() -> set[str]:
    """Every binding id a `[keymap]` may name."""
    return binding_ids(*(scope for _title, scope in BINDING_SCOPES), HELP_KEYS)


def help_sections(keymap: Mapping[str, str]) -> list[HelpSection]:
    """The help screen's sections, from the bindings with `keymap` applied."""
    return [(title, key_help(scope, keymap)) for title, scope in BINDING_SCOPES]

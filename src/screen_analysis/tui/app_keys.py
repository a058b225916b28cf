"""The app's keys as data: every scope of bindings, in the order help lists them.

Help, the manual's key table and `[keymap]`'s check are built from these (the key bar and
the palette read the bindings of the screen in front), with the user's `[keymap]` applied.
Screens and dialogs opened later keep their keys in light data modules (`screen_keys`,
`dialog_keys`), so listing them imports none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from screen_analysis.tui.dialogs import dialog_keys
from screen_analysis.tui.keys import binding_ids, key_help
from screen_analysis.tui.screens import screen_keys
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.analysis_detail import AnalysisDetail
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.table import AnalysesTable

if TYPE_CHECKING:
    from screen_analysis.tui.screens.help import HelpSection

APP_KEYS: list[BindingType] = [
    Binding(
        "q",
        "quit",
        "Quit",
        tooltip="Quit (exit code 0); on a screen or dialog opened over this one, q goes back",
        id="quit",
    ),
    Binding("question_mark,f1", "help", "Help", tooltip="This help", id="help"),
]
SCOPES: tuple[tuple[str, tuple[list[BindingType], ...]], ...] = (
    ("Browse", (AnalysesTable.BINDINGS,)),
    ("Act", (MainScreen.BINDINGS,)),
    ("Projects (sidebar)", (ProjectSidebar.BINDINGS,)),
    ("Detail", (AnalysisDetail.BINDINGS,)),
    ("Anywhere", (APP_KEYS,)),
    ("Overview", (screen_keys.OVERVIEW_KEYS,)),
    ("Compare", (screen_keys.COMPARE_KEYS,)),
    ("Image", (screen_keys.IMAGE_VIEW_KEYS,)),
    ("Sign in", (screen_keys.LOGIN_KEYS,)),
    ("Welcome", (screen_keys.WELCOME_KEYS,)),
    (
        "Dialogs",
        (
            dialog_keys.PROMPT_KEYS,
            dialog_keys.CHOICE_KEYS,
            dialog_keys.PROGRESS_KEYS,
            dialog_keys.URL_KEYS,
        ),
    ),
    ("Errors", (dialog_keys.ERROR_KEYS,)),
    ("Help", (screen_keys.HELP_KEYS,)),
)
"""Help's sections: a title and the BINDINGS of each screen, widget or dialog in it (each
its own key map, as in the app)."""
SHARED_IDS = frozenset({"export", "help"})
"""Ids used in more than one scope on purpose: one remap moves the key in each (the
sign-in screen has its own help key: a modal screen keeps the app's from working)."""


def remappable_ids() -> set[str]:
    """Every binding id a `[keymap]` may name."""
    return binding_ids(*(scope for _title, scopes in SCOPES for scope in scopes))


def help_sections(keymap: Mapping[str, str]) -> list[HelpSection]:
    """The help screen's sections, from the bindings with `keymap` applied."""
    return [
        (title, [entry for scope in scopes for entry in key_help(scope, keymap)])
        for title, scopes in SCOPES
    ]

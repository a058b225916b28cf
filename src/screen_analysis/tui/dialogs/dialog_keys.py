"""The dialogs' keys, as data: each binding has an id that `[keymap]` can remap, and the
app lists them in help and checks `[keymap]` against them without importing the dialogs.

A choice dialog's answers are not bindings: each question brings its own (`Choice.key`),
shown on its button. Esc and q close a dialog (as they go back from a screen), except where
q is typed into a field.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

PROMPT_KEYS: list[BindingType] = [
    Binding(
        "escape",
        "cancel",
        "Cancel",
        tooltip="Close a question without an answer",
        id="prompt-cancel",
    ),
]

CHOICE_KEYS: list[BindingType] = [
    Binding(
        "escape,q",
        "cancel",
        "Cancel",
        tooltip="Close a choice without choosing",
        id="choice-cancel",
    ),
]

PROGRESS_KEYS: list[BindingType] = [
    Binding(
        "escape,q",
        "cancel",
        "Cancel",
        tooltip="Stop an export (nothing is written)",
        id="progress-cancel",
    ),
]

ERROR_KEYS: list[BindingType] = [
    Binding("r", "choose('retry')", "Retry", tooltip="Try again what failed", id="error-retry"),
    Binding(
        "d",
        "choose('demo')",
        "Demo",
        tooltip="Start the built-in demo server instead (made-up data, no key)",
        id="error-demo",
    ),
    Binding(
        "c",
        "choose('connect')",
        "Connect…",
        tooltip="Connect to another server",
        id="error-connect",
    ),
    Binding("escape,q", "choose('close')", "Close", tooltip="Close the error", id="error-close"),
]

URL_KEYS: list[BindingType] = [
    Binding("y,c", "copy", "Copy", tooltip="Copy the address shown", id="url-copy"),
    Binding("escape,q,enter", "close", "Close", tooltip="Close the address", id="url-close"),
]

"""The error dialog: what went wrong with the connection, in words, and what to do.

The words come from the one `problems.explain`; the dialog adds a note from the screen
that opened it (what is kept to show instead) and its keys, listed from its bindings as
remapped (the demo's only when the app can start it).
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from screen_analysis.problems import Problem
from screen_analysis.tui.dialogs.dialog_keys import ERROR_KEYS
from screen_analysis.tui.dialogs.frame import DialogFrame
from screen_analysis.tui.keys import bound_keys
from screen_analysis.tui.widgets.key_bar import KeyBar

KEY_WORDS = {  # what each key does, as the dialog's last line says it
    "error-retry": "retry",
    "error-demo": "start the demo",
    "error-connect": "connect to another server",
    "error-close": "close",
}


class ErrorScreen(ModalScreen[str]):
    """Dismissed with "retry", "demo", "connect" or "close" (a modal: the app's own keys wait
    behind it; q closes it, as Esc does, rather than quitting)."""

    BINDINGS: ClassVar[list[BindingType]] = ERROR_KEYS

    DEFAULT_CSS = """
    ErrorScreen {
        align: center middle;
        & > DialogFrame { width: 76; }
        & #error-title { text-style: bold; color: $error; }
        & #error-detail { margin: 1 0; color: $foreground-muted; }
        & #error-note { margin-top: 1; }
        & #error-keys { margin-top: 1; color: $foreground-muted; }
    }
    """

    def __init__(self, problem: Problem, *, note: str = "", demo: bool = False) -> None:
        """Show `problem` and `note` (plain text); offer the demo server when `demo`."""
        super().__init__()
        self.problem = problem
        self.note = note
        self.demo = demo

    def compose(self) -> ComposeResult:
        """Title, detail, advice, the note and the keys, in the dialog frame drawn as an
        error."""
        with DialogFrame(classes="-error"):
            yield Static(Content(self.problem.title), id="error-title", markup=False)
            yield Static(Content(self.problem.detail), id="error-detail", markup=False)
            yield Static(Content(self.problem.advice), id="error-advice", markup=False)
            if self.note:
                yield Static(Content(self.note), id="error-note", markup=False)
            yield Static("", id="error-keys", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        """List the keys as they are bound now."""
        self.query_one("#error-keys", Static).update(Content(self.keys_line()))

    def keys_line(self) -> str:
        """The keys that work here, as remapped: "r retry · d start the demo · …"."""
        keys = bound_keys(self, KEY_WORDS)
        return " · ".join(
            f"{keys[name]} {words}" for name, words in KEY_WORDS.items() if name in keys
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The demo's key works (and shows) only when the demo is offered."""
        if action == "choose" and parameters == ("demo",):
            return self.demo
        return True

    def action_choose(self, choice: str) -> None:
        """Close with the user's choice."""
        self.dismiss(choice)

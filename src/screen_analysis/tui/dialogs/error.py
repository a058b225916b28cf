"""The error dialog: what went wrong with the connection, in words, and what to do.

The words come from the one `problems.explain`; the dialog adds its keys.
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
from screen_analysis.tui.widgets.key_bar import KeyBar


class ErrorScreen(ModalScreen[str]):
    """Dismissed with "retry", "connect" or "close"; q still quits the app."""

    BINDINGS: ClassVar[list[BindingType]] = ERROR_KEYS

    DEFAULT_CSS = """
    ErrorScreen {
        align: center middle;
        & > DialogFrame { width: 76; }
        & #error-title { text-style: bold; color: $error; }
        & #error-detail { margin: 1 0; color: $foreground-muted; }
        & #error-keys { margin-top: 1; color: $foreground-muted; }
    }
    """

    def __init__(self, problem: Problem) -> None:
        """Show `problem`."""
        super().__init__()
        self.problem = problem

    def compose(self) -> ComposeResult:
        """Title, detail, advice and the keys, in the dialog frame drawn as an error."""
        with DialogFrame(classes="-error"):
            yield Static(Content(self.problem.title), id="error-title", markup=False)
            yield Static(Content(self.problem.detail), id="error-detail", markup=False)
            yield Static(Content(self.problem.advice), id="error-advice", markup=False)
            yield Static(
                "r retry · c connect to another server · Esc close · q quit",
                id="error-keys",
                markup=False,
            )
        yield KeyBar()

    def action_choose(self, choice: str) -> None:
        """Close with the user's choice."""
        self.dismiss(choice)

"""A progress dialog for long work: a bar, a line of text, and Esc to cancel."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static

from screen_analysis.tui.dialogs.dialog_keys import PROGRESS_KEYS
from screen_analysis.tui.dialogs.frame import DialogFrame


class ProgressDialog(ModalScreen[bool | None]):
    """Dismissed with True by `finish()` when the work is done, None when Esc cancels it
    (the caller cancels the work in the callback)."""

    BINDINGS: ClassVar[list[BindingType]] = PROGRESS_KEYS

    DEFAULT_CSS = """
    ProgressDialog { align: center middle; & ProgressBar { margin: 1 0; } }
    """

    def __init__(self, title: str, total: int | None) -> None:
        """`total`: the work's size, None when unknown (the bar then pulses)."""
        super().__init__()
        self._title = title
        self._total = total
        self.done = 0

    def compose(self) -> ComposeResult:
        """Title, bar, hint."""
        with DialogFrame():
            yield Static(self._title, classes="dialog-title", markup=False)
            yield ProgressBar(total=self._total, show_eta=False, id="progress")
            yield Static("Esc cancels (nothing is written).", classes="dialog-hint", markup=False)

    def advance(self, amount: int) -> None:
        """`amount` more of the work is done."""
        self.done += amount
        if self.is_mounted:
            self.query_one(ProgressBar).advance(amount)

    def finish(self) -> None:
        """Close: the work is done."""
        self.dismiss(True)

    def action_cancel(self) -> None:
        """Close, asking the caller to cancel the work."""
        self.dismiss(None)

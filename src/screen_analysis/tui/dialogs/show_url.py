"""Shows an address to copy when no browser can open it here."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.dialog_keys import URL_KEYS
from screen_analysis.tui.dialogs.frame import DialogFrame


class ShowUrlDialog(ModalScreen[bool]):
    """The image address, literally; dismissed with True when the user asked to copy it."""

    BINDINGS: ClassVar[list[BindingType]] = URL_KEYS

    DEFAULT_CSS = """
    ShowUrlDialog {
        align: center middle;
        & > DialogFrame { width: 90%; }
    }
    """

    def __init__(self, url: str, reason: str) -> None:
        """Show `url`, saying why it was not opened."""
        super().__init__()
        self._url = url
        self._reason = reason

    def compose(self) -> ComposeResult:
        """Why, the address, what to do."""
        with DialogFrame():
            yield Static(self._reason, classes="dialog-title", markup=False)
            yield Static(Content(clean(self._url)), id="url", markup=False)
            yield Static(
                "y copies it to the clipboard (over SSH too), Esc closes.",
                classes="dialog-hint",
                markup=False,
            )

    def action_copy(self) -> None:
        """Close, asking for a copy."""
        self.dismiss(True)

    def action_close(self) -> None:
        """Close."""
        self.dismiss(False)

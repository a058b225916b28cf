"""The find dialog: text to look for in the labels of the loaded rows."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class FindDialog(ModalScreen[str | None]):
    """Dismissed with the text to find, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    FindDialog {
        align: center top;
        & > Vertical {
            width: 60;
            max-width: 100%;
            height: auto;
            margin-top: 2;
            border: round $primary;
            background: $surface;
            padding: 0 1;
        }
        & .dialog-hint { color: $foreground-muted; }
    }
    """

    def __init__(self, initial: str = "") -> None:
        """Open with `initial` in the field (the last search)."""
        super().__init__()
        self._initial = initial

    def compose(self) -> ComposeResult:
        """The field and a hint."""
        with Vertical():
            yield Input(value=self._initial, placeholder="Find in loaded labels…", id="find")
            yield Static(
                "Enter finds the next match (n repeats), Esc cancels.",
                classes="dialog-hint",
                markup=False,
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Return the text; empty cancels."""
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        """Close without searching."""
        self.dismiss(None)

"""The add-project dialog: asks for a project id."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class AddProjectDialog(ModalScreen[str | None]):
    """Dismissed with the id typed (stripped), or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    AddProjectDialog {
        align: center middle;
        & > Vertical {
            width: 60;
            max-width: 100%;
            height: auto;
            border: round $primary;
            background: $surface;
            padding: 0 1;
        }
        & .dialog-title { text-style: bold; }
        & .dialog-hint { color: $foreground-muted; }
    }
    """

    def compose(self) -> ComposeResult:
        """A title, the id field and a hint."""
        with Vertical():
            yield Static("Add a project", classes="dialog-title", markup=False)
            yield Input(placeholder="proj_…", id="project-id")
            yield Static("Enter adds it, Esc cancels.", classes="dialog-hint", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Return the id; an empty field cancels."""
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        """Close without adding."""
        self.dismiss(None)

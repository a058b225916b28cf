"""The one prompt dialog: a line of text asked for, returned stripped (None: cancelled).

Find and add-project are two `Prompt`s of it; a new question is a new `Prompt`, not a new
modal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from screen_analysis.browse.columns import COLUMNS, DEFAULT_COLUMNS
from screen_analysis.tui.dialogs.dialog_keys import PROMPT_KEYS
from screen_analysis.tui.dialogs.frame import DialogFrame


@dataclass(frozen=True)
class Prompt:
    """What a prompt asks: an optional title, the field's id and placeholder, a hint, and
    whether it opens near the top (to keep the rows it searches in view)."""

    field_id: str
    placeholder: str
    hint: str
    title: str = ""
    at_top: bool = False


FIND = Prompt(
    "find",
    "Find in loaded labels…",
    "Enter finds the next match (n repeats), Esc cancels.",
    at_top=True,
)
ADD_PROJECT = Prompt("project-id", "proj_…", "Enter adds it, Esc cancels.", title="Add a project")
EXPORT = Prompt(
    "export-path",
    "analyses.csv",
    "A .csv or .jsonl file (relative: the current directory). Enter goes on, Esc cancels.",
    title="Export the view to",
)
REPORT = Prompt(
    "export-path",
    "screen-analysis-report.html",
    "A .md name writes Markdown, anything else HTML. Enter writes, Esc cancels.",
    title="Export the report to",
)
PICK_COLUMNS = Prompt(
    "columns",
    ", ".join(DEFAULT_COLUMNS),
    "Columns in order, by name: " + ", ".join(COLUMNS) + ". Enter shows them, Esc cancels.",
    title="Columns",
)
SAVE_VIEW = Prompt(
    "view-name",
    "checkout-weak",
    "Letters, digits, - and _. Saved in the config as [views.NAME]; Enter saves, Esc cancels.",
    title="Save view as…",
)


class PromptDialog(ModalScreen[str | None]):
    """Dismissed with the text typed (stripped), or None when cancelled or left empty."""

    BINDINGS: ClassVar[list[BindingType]] = PROMPT_KEYS

    DEFAULT_CSS = """
    PromptDialog {
        align: center middle;
        &.-top { align: center top; & > DialogFrame { margin-top: 2; } }
    }
    """

    def __init__(self, prompt: Prompt, initial: str = "") -> None:
        """Ask `prompt`, with `initial` in the field (e.g. the last search)."""
        super().__init__(classes="-top" if prompt.at_top else None)
        self.prompt = prompt
        self._initial = initial

    def compose(self) -> ComposeResult:
        """The title (if any), the field and the hint, in the dialog frame."""
        with DialogFrame():
            if self.prompt.title:
                yield Static(self.prompt.title, classes="dialog-title", markup=False)
            yield Input(
                value=self._initial, placeholder=self.prompt.placeholder, id=self.prompt.field_id
            )
            yield Static(self.prompt.hint, classes="dialog-hint", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Return the text; an empty field cancels."""
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.dismiss(None)


class FindDialog(PromptDialog):
    """The prompt for text to find in the labels of the loaded rows."""

    def __init__(self, initial: str = "") -> None:
        """Open with the last search in the field."""
        super().__init__(FIND, initial)


class AddProjectDialog(PromptDialog):
    """The prompt for a project id to add to the sidebar."""

    def __init__(self) -> None:
        """Open with an empty field."""
        super().__init__(ADD_PROJECT)

"""The one choice dialog: a question with a few answers, each on a button and a key.

The export asks two with it (which rows; replace a file that exists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.dialog_keys import CHOICE_KEYS
from screen_analysis.tui.dialogs.frame import DialogFrame


@dataclass(frozen=True)
class Choice:
    """One answer: the key that picks it, the value the dialog returns, the button's label."""

    key: str
    value: str
    label: str


class ChoiceDialog(ModalScreen[str | None]):
    """Dismissed with the chosen answer's value, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = CHOICE_KEYS

    DEFAULT_CSS = """
    ChoiceDialog {
        align: center middle;
        & > DialogFrame { width: 70; }
        & #choices { height: auto; margin-top: 1; }
        & #choices Button { margin-right: 1; }
    }
    """

    def __init__(self, title: str, choices: Sequence[Choice], hint: str = "") -> None:
        """Ask `title` (plain text, shown literally) with `choices`."""
        super().__init__()
        self._title = title
        self._choices = tuple(choices)
        self._hint = hint or "Press a key or a button; Esc cancels."

    def compose(self) -> ComposeResult:
        """The question, the answers, the hint."""
        with DialogFrame():
            yield Static(self._title, classes="dialog-title", markup=False)
            with Horizontal(id="choices"):
                for choice in self._choices:
                    label = f"[{choice.key}] {choice.label}"
                    yield Button(Content(label), id=f"choice-{choice.value}")
            yield Static(self._hint, classes="dialog-hint", markup=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The answer of the button."""
        event.stop()
        for choice in self._choices:
            if event.button.id == f"choice-{choice.value}":
                self.dismiss(choice.value)

    def on_key(self, event: events.Key) -> None:
        """The answer of the key."""
        for choice in self._choices:
            if event.character == choice.key:
                event.stop()
                self.dismiss(choice.value)

    def action_cancel(self) -> None:
        """No answer."""
        self.dismiss(None)


def replace_question(path: Path) -> ChoiceDialog:
    """The one question before a file is replaced: dismissed with "replace" or "keep" (or
    None: Esc, which keeps it too)."""
    return ChoiceDialog(
        f"{clean(str(path))} exists. Replace it?",
        [Choice("y", "replace", "Replace it"), Choice("n", "keep", "Keep it")],
    )

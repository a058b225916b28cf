"""Dialogs of the report export: the file to write, and whether to replace one."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from screen_analysis.safe_text import clean
from screen_analysis.tui.screens.screen_keys import EXPORT_PATH_KEYS, REPLACE_FILE_KEYS

_CSS = """
{name} {{
    align: center middle;
    & > Vertical {{
        width: 72;
        max-width: 100%;
        height: auto;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }}
    & .dialog-title {{ text-style: bold; }}
    & .dialog-hint {{ color: $foreground-muted; }}
}}
"""


class ExportPathDialog(ModalScreen[Path | None]):
    """Asks where to write the report; dismissed with the path, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = EXPORT_PATH_KEYS
    DEFAULT_CSS = _CSS.format(name="ExportPathDialog")

    def __init__(self, suggested: Path) -> None:
        """Open with `suggested` in the field."""
        super().__init__()
        self._suggested = suggested

    def compose(self) -> ComposeResult:
        """Title, field, hint."""
        with Vertical():
            yield Static("Export report", classes="dialog-title", markup=False)
            yield Input(value=str(self._suggested), id="export-path")
            yield Static(
                "A .md name writes Markdown, anything else HTML. Enter writes, Esc cancels.",
                classes="dialog-hint",
                markup=False,
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Return the path (~ expanded); an empty field cancels."""
        event.stop()
        text = event.value.strip()
        self.dismiss(Path(text).expanduser() if text else None)

    def action_cancel(self) -> None:
        """Close without exporting."""
        self.dismiss(None)


class ReplaceFileDialog(ModalScreen[bool]):
    """Asks before a file is replaced; dismissed with True only for an explicit yes."""

    BINDINGS: ClassVar[list[BindingType]] = REPLACE_FILE_KEYS
    DEFAULT_CSS = _CSS.format(name="ReplaceFileDialog")

    def __init__(self, path: Path) -> None:
        """Ask about `path`."""
        super().__init__()
        self._path = path

    def compose(self) -> ComposeResult:
        """The question."""
        with Vertical():
            yield Static("The file exists. Replace it?", classes="dialog-title", markup=False)
            yield Static(Content(clean(str(self._path))), markup=False)
            yield Static("y replaces it, n or Esc keeps it.", classes="dialog-hint", markup=False)

    def action_answer(self, replace: bool) -> None:
        """Close with the answer."""
        self.dismiss(replace)

"""The help screen: every key, grouped, built from the bindings (remapped keys included)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from screen_analysis.tui.keys import KeyHelp
from screen_analysis.tui.screens.screen_keys import HELP_KEYS

NAVIGATION: tuple[tuple[str, str], ...] = (
    ("Tab / Shift+Tab", "Sidebar → table → detail"),
    ("Ctrl+P", "Command palette"),
)

HelpSection = tuple[str, Sequence[KeyHelp]]


def help_rows(sections: Sequence[HelpSection]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each section's title and its (keys, what they do) rows, moving around last."""
    rows = [
        (title, [(row.keys, row.tooltip or row.description) for row in entries])
        for title, entries in sections
    ]
    return [*rows, ("Move around", list(NAVIGATION))]


class HelpScreen(ModalScreen[None]):
    """Keys and what they do; its own (`help-close`: Esc, q, ? or F1) close it and are
    listed last, as remapped."""

    BINDINGS: ClassVar[list[BindingType]] = HELP_KEYS

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        & > VerticalScroll {
            width: 72;
            max-width: 100%;
            height: auto;
            max-height: 100%;
            border: round $primary;
            background: $surface;
            padding: 0 1;
        }
        & #help-title { text-style: bold; color: $primary; margin-bottom: 1; }
        & .help-section { text-style: bold underline; }
        /* keys in one column, what they do in the other: a long line wraps in its own */
        & .help-keys {
            layout: grid;
            grid-size: 2;
            grid-columns: 18 1fr;
            grid-rows: auto;
            height: auto;
            margin-bottom: 1;
        }
        & .help-key { text-style: bold; padding-left: 2; }
    }
    """

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        """Show `sections`: each a title and the keys of one scope, remapped keys included."""
        super().__init__()
        self.sections = sections

    def shown(self) -> list[tuple[str, str]]:
        """The rows as shown: (keys, what they do), for tests and copying."""
        cells = [str(cell.render()) for cell in self.query(".help-keys > Static").results(Static)]
        return list(zip(cells[::2], cells[1::2], strict=True))

    def compose(self) -> ComposeResult:
        """Title, then each section's keys."""
        with VerticalScroll():
            yield Static("screen-analysis — keys", id="help-title", markup=False)
            for title, rows in help_rows(self.sections):
                yield Static(title, classes="help-section", markup=False)
                with Container(classes="help-keys"):
                    for keys, what in rows:
                        yield Static(keys, classes="help-key", markup=False)
                        yield Static(what, classes="help-what", markup=False)

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)

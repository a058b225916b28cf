"""The help screen: every key, grouped, built from the bindings (remapped keys included)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from screen_analysis.tui.keys import KeyHelp
from screen_analysis.tui.screens.screen_keys import HELP_KEYS

NAVIGATION: tuple[tuple[str, str], ...] = (
    ("Tab / Shift+Tab", "Sidebar → table → detail"),
    ("Ctrl+P", "Command palette"),
)

HelpSection = tuple[str, Sequence[KeyHelp]]


def help_text(sections: Sequence[HelpSection]) -> Content:
    """The key table as content (no markup: keys contain bracket-like symbols)."""
    parts: list[Content] = []
    for title, rows in sections:
        parts.append(Content.styled(title, "bold underline"))
        for row in rows:
            what = row.tooltip or row.description
            parts.append(Content.assemble((f"  {row.keys:<16}", "bold"), what))
        parts.append(Content(""))
    parts.append(Content.styled("Move around", "bold underline"))
    parts.extend(Content.assemble((f"  {keys:<16}", "bold"), what) for keys, what in NAVIGATION)
    return Content("\n").join(parts)


class HelpScreen(ModalScreen[None]):
    """Keys and what they do; any of Esc, q, ? or F1 closes it."""

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
        & #help-footer { color: $foreground-muted; }
    }
    """

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        """Show `sections`: each a title and the keys of one scope, remapped keys included."""
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        """Title, keys, how to close."""
        with VerticalScroll():
            yield Static("screen-analysis — keys", id="help-title", markup=False)
            yield Static(help_text(self.sections), markup=False)
            yield Static("Esc, q, ? or F1 closes this help.", id="help-footer", markup=False)

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)

"""The help screen: every key, grouped, built from the bindings (remapped keys included).

A description longer than the line wraps under itself, never back under the keys.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Static

from screen_analysis.tui.keys import KeyHelp
from screen_analysis.tui.screens.screen_keys import HELP_KEYS

NAVIGATION: tuple[tuple[str, str], ...] = (
    ("Tab / Shift+Tab", "Sidebar → table → detail"),
    ("Ctrl+P", "Command palette"),
)

HelpSection = tuple[str, Sequence[KeyHelp]]


KEYS_WIDTH = 18  # two spaces, the keys, room after them


def help_text(sections: Sequence[HelpSection], width: int = 70) -> Content:
    """The key table as content `width` cells wide (no markup: keys contain bracket-like
    symbols); a long description wraps under itself."""
    room = max(10, width - KEYS_WIDTH)

    def row(keys: str, what: str) -> list[Content]:
        lines = textwrap.wrap(what, room) or [""]
        first = Content.assemble((f"  {keys:<{KEYS_WIDTH - 3}} ", "bold"), lines[0])
        return [first, *(Content(" " * KEYS_WIDTH + line) for line in lines[1:])]

    parts: list[Content] = []
    for title, rows in sections:
        parts.append(Content.styled(title, "bold underline"))
        for item in rows:
            parts.extend(row(item.keys, item.tooltip or item.description))
        parts.append(Content(""))
    parts.append(Content.styled("Move around", "bold underline"))
    for keys, what in NAVIGATION:
        parts.extend(row(keys, what))
    return Content("\n").join(parts)


class HelpTable(Static):
    """The key table, wrapped to the width it is given."""

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        """Show `sections`."""
        super().__init__(markup=False)
        self.sections = sections

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the table takes at `width`."""
        return len(help_text(self.sections, width).split("\n"))

    def render(self) -> Content:
        """The table at the current width."""
        return help_text(self.sections, self.size.width or 70)


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
            yield HelpTable(self.sections)
            yield Static("Esc, q, ? or F1 closes this help.", id="help-footer", markup=False)

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)

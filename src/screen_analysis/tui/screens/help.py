"""The help screen: every key, grouped."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Browse",
        (
            ("1 – 5", "All · Pending · Processing · Completed · Failed"),
            ("Tab / Shift+Tab", "Sidebar → table → detail"),
            ("↑ ↓  j k", "Move the cursor"),
            ("PgUp PgDn", "Page up / down"),
            ("Home End", "First row / last loaded row (more load on)"),
            ("Enter", "Open the detail (narrow screens) or focus it"),
            ("Esc", "Back to the table"),
        ),
    ),
    (
        "Act",
        (
            ("r", "Refresh, or retry what failed"),
            ("p", "Pause / resume the auto-refresh"),
            ("/  n", "Find in the loaded rows by label / next match"),
            ("a", "Add a project by id"),
            ("y  Y", "Copy the analysis id / its image URL"),
            ("o", "Open the image URL in a browser"),
            ("Ctrl+P", "Command palette"),
            ("?  F1", "This help"),
            ("q", "Quit"),
        ),
    ),
)


def help_text() -> Content:
    """The key table as content (no markup: the keys contain brackets-like symbols)."""
    parts: list[Content] = []
    for title, rows in KEYS:
        parts.append(Content.styled(title, "bold underline"))
        for key, what in rows:
            parts.append(Content.assemble((f"  {key:<16}", "bold"), what))
        parts.append(Content(""))
    return Content("\n").join(parts)


class HelpScreen(ModalScreen[None]):
    """Keys and what they do; any of Esc, q, ? or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close", show=True),
    ]

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

    def compose(self) -> ComposeResult:
        """Title, keys, how to close."""
        with VerticalScroll():
            yield Static("screen-analysis — keys", id="help-title", markup=False)
            yield Static(help_text(), markup=False)
            yield Static("Esc, q, ? or F1 closes this help.", id="help-footer", markup=False)

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)

"""The error screen: what went wrong with the connection, in words, and what to do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from screen_analysis.api.errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    ScreenAnalysisError,
)
from screen_analysis.safe_text import clean


@dataclass(frozen=True)
class Problem:
    """A failure explained: a title, the detail (from the error, cleaned) and advice."""

    title: str
    detail: str
    advice: str


def explain(error: BaseException, base_url: str) -> Problem:
    """Words for a failure that stops the app from showing anything useful."""
    detail = clean(str(error)) if isinstance(error, ScreenAnalysisError) else clean(repr(error))
    where = clean(base_url)
    if isinstance(error, AuthenticationError):
        return Problem(
            "The server refused the API key",
            detail,
            "Check SCREEN_ANALYSIS_API_KEY (or the key stored for this server), "
            "or press c to connect with another key. The rows already loaded stay.",
        )
    if isinstance(error, APITimeoutError):
        return Problem(
            "The server at " + where + " did not answer in time",
            detail,
            "It may be overloaded or far away; press r to try again.",
        )
    if isinstance(error, APIConnectionError):
        return Problem(
            "Cannot reach the server at " + where,
            detail,
            "Is it running, and is the address right? Check --base-url or "
            "SCREEN_ANALYSIS_BASE_URL, or press c to connect elsewhere.",
        )
    return Problem("The server's answer could not be used", detail, "Press r to try again.")


class ErrorScreen(ModalScreen[str]):
    """Dismissed with "retry", "connect" or "close"; q still quits the app."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('retry')", "Retry"),
        Binding("c", "choose('connect')", "Connect…"),
        Binding("escape", "choose('close')", "Close"),
    ]

    DEFAULT_CSS = """
    ErrorScreen {
        align: center middle;
        & > Vertical {
            width: 76;
            max-width: 100%;
            height: auto;
            max-height: 100%;
            border: thick $error;
            background: $surface;
            padding: 0 1;
        }
        & #error-title { text-style: bold; color: $error; }
        & #error-detail { margin: 1 0; color: $foreground-muted; }
        & #error-keys { margin-top: 1; color: $foreground-muted; }
    }
    """

    def __init__(self, problem: Problem) -> None:
        """Show `problem`."""
        super().__init__()
        self.problem = problem

    def compose(self) -> ComposeResult:
        """Title, detail, advice and the keys."""
        with Vertical():
            yield Static(Content(self.problem.title), id="error-title", markup=False)
            yield Static(Content(self.problem.detail), id="error-detail", markup=False)
            yield Static(Content(self.problem.advice), id="error-advice", markup=False)
            yield Static(
                "r retry · c connect to another server · Esc close · q quit",
                id="error-keys",
                markup=False,
            )
        yield Footer()

    def action_choose(self, choice: str) -> None:
        """Close with the user's choice."""
        self.dismiss(choice)

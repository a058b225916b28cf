"""The error dialog: what went wrong with the connection, in words, and what to do."""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import APIConnectionError, APITimeoutError, AuthenticationError
from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.dialog_keys import ERROR_KEYS
from screen_analysis.tui.dialogs.frame import DialogFrame
from screen_analysis.tui.widgets.key_bar import KeyBar


class Problem(NamedTuple):
    """A failure explained: a title, the detail (from the error, cleaned) and advice."""

    title: str
    detail: str
    advice: str


def explain(error: BaseException, base_url: str) -> Problem:
    """Words for a failure that stops the app from showing anything useful: the detail is
    `describe_error`'s line with the request that failed; title and advice say what to do."""
    detail = describe_error(error, with_request=True)
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

    BINDINGS: ClassVar[list[BindingType]] = ERROR_KEYS

    DEFAULT_CSS = """
    ErrorScreen {
        align: center middle;
        & > DialogFrame { width: 76; }
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
        """Title, detail, advice and the keys, in the dialog frame drawn as an error."""
        with DialogFrame(classes="-error"):
            yield Static(Content(self.problem.title), id="error-title", markup=False)
            yield Static(Content(self.problem.detail), id="error-detail", markup=False)
            yield Static(Content(self.problem.advice), id="error-advice", markup=False)
            yield Static(
                "r retry · c connect to another server · Esc close · q quit",
                id="error-keys",
                markup=False,
            )
        yield KeyBar()

    def action_choose(self, choice: str) -> None:
        """Close with the user's choice."""
        self.dismiss(choice)

"""The welcome screen: no server configured yet — try the demo, or connect to a server.

The connect form and the sign-in itself are the shared `SignInForm`; its `Accepted` goes
up to the app, which browses.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from screen_analysis.tui.screens.screen_keys import WELCOME_KEYS
from screen_analysis.tui.sign_in import SignIn
from screen_analysis.tui.widgets.key_bar import KeyBar
from screen_analysis.tui.widgets.sign_in_form import SignInForm

INTRO = (
    "No server is configured yet. Try the built-in demo (a local reference server with "
    "made-up data, no key needed), or connect to a Screen Analysis Service."
)
ENV_HINT = (
    "Next time you can skip this screen: set SCREEN_ANALYSIS_BASE_URL and "
    "SCREEN_ANALYSIS_API_KEY, or pass --base-url / --demo."
)


class WelcomeScreen(Screen[None]):
    """Posts `DemoRequested`; the form's `SignInForm.Accepted` reaches the app."""

    BINDINGS: ClassVar[list[BindingType]] = WELCOME_KEYS

    DEFAULT_CSS = """
    WelcomeScreen {
        align: center middle;
        & > VerticalScroll { width: 80; max-width: 100%; height: auto; max-height: 100%; }
        & #welcome-box { height: auto; border: round $primary; padding: 0 1; }
        & #welcome-title { text-style: bold; color: $primary; }
        & .welcome-hint { color: $foreground-muted; }
        & #welcome-error { color: $error; }
        & Label { margin-top: 1; }
        & #welcome-buttons { height: auto; margin-top: 1; }
        & Button { margin-right: 2; }
    }
    """

    class DemoRequested(Message):
        """The user wants the demo server."""

    def __init__(
        self,
        sign_in: SignIn,
        *,
        base_url: str | None = None,
        demo_available: bool = True,
        allow_insecure_http: bool = False,
        message: str = "",
    ) -> None:
        """Offer the demo when available, a connect form prefilled with `base_url`; the
        key is kept only when the user ticks the box (and `sign_in` can keep it)."""
        super().__init__()
        self._sign_in = sign_in
        self._base_url = base_url or ""
        self._demo_available = demo_available
        self._allow_insecure_http = allow_insecure_http
        self._message = message

    @property
    def form(self) -> SignInForm:
        """The connect form."""
        return self.query_one(SignInForm)

    def compose(self) -> ComposeResult:
        """Intro, the connect form with the demo button, hint."""
        buttons = [Button("Connect", id="connect", variant="primary")]
        if self._demo_available:
            buttons.append(Button("Try the demo", id="demo"))
        with VerticalScroll(), Vertical(id="welcome-box"):
            yield Static("Welcome to screen-analysis", id="welcome-title", markup=False)
            yield Static(INTRO, classes="welcome-text", markup=False)  # the form's label spaces it
            yield SignInForm(
                self._sign_in,
                buttons=buttons,
                buttons_id="welcome-buttons",
                message_id="welcome-error",
                key_placeholder="your API key",
                empty_key="Enter the API key.",
                base_url=self._base_url,
                message=self._message,
                allow_insecure_http=self._allow_insecure_http,
                offer_storing=True,
                pause_on_note=False,
            )
            yield Static(ENV_HINT, classes="welcome-hint", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        """Focus the demo when offered (the quickest way in), else the form (once it has
        composed its fields)."""
        self.call_after_refresh(self._focus_first)

    def _focus_first(self) -> None:
        if self._demo_available:
            self.query_one("#demo", Button).focus()
        else:
            self.query_one("#base-url" if not self._base_url else "#api-key", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The demo (the form handles connecting)."""
        event.stop()
        if event.button.id == "demo":
            self.action_demo()

    def on_sign_in_form_said(self, event: SignInForm.Said) -> None:
        """Nothing here depends on the message line."""
        event.stop()

    def action_demo(self) -> None:
        """Ask for the demo."""
        if self._demo_available:
            self.show_message("Starting the demo server…")
            self.post_message(self.DemoRequested())

    def show_message(self, text: str, kind: str = "error") -> None:
        """Show a line under the form (server-derived text is cleaned and literal)."""
        self.form.show_message(text, kind)

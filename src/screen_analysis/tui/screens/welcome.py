"""The welcome screen: no server configured yet — try the demo, or connect to a server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Static

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import InsecureTransportError, InvalidBaseURLError
from screen_analysis.auth.transport_policy import check_transport
from screen_analysis.config import Connection
from screen_analysis.safe_text import clean
from screen_analysis.secret import SecretStr

INTRO = (
    "No server is configured yet. Try the built-in demo (a local reference server with "
    "made-up data, no key needed), or connect to a Screen Analysis Service."
)
ENV_HINT = (
    "Next time you can skip this screen: set SCREEN_ANALYSIS_BASE_URL and "
    "SCREEN_ANALYSIS_API_KEY, or pass --base-url / --demo."
)


class WelcomeScreen(Screen[None]):
    """Posts `DemoRequested` or `ConnectRequested`; the app does the connecting."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+d", "demo", "Try the demo"),
    ]

    DEFAULT_CSS = """
    WelcomeScreen {
        align: center middle;
        & > VerticalScroll { width: 80; max-width: 100%; height: auto; max-height: 100%; }
        & #welcome-box { height: auto; border: round $primary; padding: 0 1; }
        & #welcome-title { text-style: bold; color: $primary; }
        & .welcome-text { margin-bottom: 1; }
        & .welcome-hint { color: $foreground-muted; }
        & #welcome-error { color: $error; }
        & Label { margin-top: 1; }
        & #welcome-buttons { height: auto; margin-top: 1; }
        & Button { margin-right: 2; }
    }
    """

    @dataclass
    class DemoRequested(Message):
        """The user wants the demo server."""

    @dataclass
    class ConnectRequested(Message):
        """The user filled in a server and a key; `store_key` asks to keep the key."""

        connection: Connection
        store_key: bool = False

    def __init__(
        self,
        *,
        base_url: str | None = None,
        demo_available: bool = True,
        can_store_key: bool = False,
        allow_insecure_http: bool = False,
        message: str = "",
    ) -> None:
        """Offer the demo when available, a connect form prefilled with `base_url`."""
        super().__init__()
        self._base_url = base_url or ""
        self._demo_available = demo_available
        self._can_store_key = can_store_key
        self._allow_insecure_http = allow_insecure_http
        self._message = message

    def compose(self) -> ComposeResult:
        """Intro, demo button, connect form, hint."""
        with VerticalScroll(), Vertical(id="welcome-box"):
            yield Static("Welcome to screen-analysis", id="welcome-title", markup=False)
            yield Static(INTRO, classes="welcome-text", markup=False)
            yield Label("Base URL")
            yield Input(self._base_url, placeholder="https://api.example.com", id="base-url")
            yield Label("API key")
            yield Input(password=True, placeholder="your API key", id="api-key")
            if self._can_store_key:
                yield Checkbox("Store the key in the system keyring", id="store-key")
            yield Static(Content(clean(self._message)), id="welcome-error", markup=False)
            with Horizontal(id="welcome-buttons"):
                yield Button("Connect", id="connect", variant="primary")
                if self._demo_available:
                    yield Button("Try the demo", id="demo")
            yield Static(ENV_HINT, classes="welcome-hint", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        """Focus the demo when offered (the quickest way in), else the form."""
        if self._demo_available:
            self.query_one("#demo", Button).focus()
        else:
            self.query_one("#base-url" if not self._base_url else "#api-key", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Demo or connect."""
        event.stop()
        if event.button.id == "demo":
            self.action_demo()
        else:
            self._connect()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the URL field moves to the key; Enter in the key connects."""
        event.stop()
        if event.input.id == "base-url":
            self.query_one("#api-key", Input).focus()
        else:
            self._connect()

    def action_demo(self) -> None:
        """Ask for the demo."""
        if self._demo_available:
            self.show_message("Starting the demo server…")
            self.post_message(self.DemoRequested())

    def show_message(self, text: str) -> None:
        """Show a line under the form (server-derived text is cleaned and literal)."""
        self.query_one("#welcome-error", Static).update(Content(clean(text)))

    def _connect(self) -> None:
        raw_url = self.query_one("#base-url", Input).value
        key = self.query_one("#api-key", Input).value.strip()
        try:
            base_url = normalise_base_url(raw_url)
            check_transport(base_url, allow_insecure_http=self._allow_insecure_http)
        except (InvalidBaseURLError, InsecureTransportError) as exc:
            self.show_message(str(exc))
            self.query_one("#base-url", Input).focus()
            return
        if not key:
            self.show_message("Enter the API key.")
            self.query_one("#api-key", Input).focus()
            return
        store = self._can_store_key and self.query_one("#store-key", Checkbox).value
        self.show_message("Connecting…")
        connection = Connection(base_url, SecretStr(key), key_source="session")
        self.post_message(self.ConnectRequested(connection, store_key=store))

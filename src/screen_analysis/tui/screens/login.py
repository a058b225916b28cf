"""The login screen: a base URL and a masked key, checked with the server, then stored.

Shown when no key was found at start, and over the main screen when the server refuses
the key mid-session (the rows stay underneath; the base URL is fixed then).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static
from textual.worker import Worker, WorkerState

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import ENV_VAR, InsecureTransportError, InvalidBaseURLError
from screen_analysis.auth.transport_policy import check_transport
from screen_analysis.config import Connection
from screen_analysis.safe_text import clean
from screen_analysis.secret import SecretStr
from screen_analysis.tui.sign_in import SignIn, SignInError

STORED_HINT = "The key is checked with one request, then kept in the system keyring."
SESSION_HINT = "The key is checked with one request and kept in memory for this session."
SKIP_HINT = f"To skip this screen, set {ENV_VAR} or run `screen-analysis login` once."


class LoginScreen(ModalScreen[Connection | None]):
    """Dismissed with the accepted connection, or None when cancelled (mid-session only)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+q", "app.quit", "Quit"),  # q goes to the fields here
    ]

    DEFAULT_CSS = """
    LoginScreen {
        align: center middle;
        & > VerticalScroll { width: 80; max-width: 100%; height: auto; max-height: 100%; }
        & #login-box {
            height: auto;
            border: round $primary;
            border-title-color: $primary;
            border-title-style: bold;
            padding: 0 1;
            background: $surface;
        }
        & .login-hint { color: $foreground-muted; }
        & #login-message { color: $error; margin-top: 1; }
        /* The message says what matters then; the hints give it their room at 80x24. */
        &.-message .login-hint, &.-no-message #login-message { display: none; }
        & #login-message.-note { color: $warning; }
        & #login-message.-progress { color: $foreground-muted; }
        & Label { margin-top: 1; }
        & #login-buttons { height: auto; margin-top: 1; }
        & Button { margin-right: 2; }
    }
    """

    @dataclass
    class DemoRequested(Message):
        """The user wants the demo server instead."""

    def __init__(
        self,
        sign_in: SignIn,
        *,
        base_url: str | None = None,
        message: str = "",
        demo_available: bool = False,
        allow_insecure_http: bool = False,
        renewing: bool = False,
    ) -> None:
        """Ask for a key for `base_url`; `renewing` fixes the URL and allows Esc."""
        super().__init__()
        self._sign_in = sign_in
        self._base_url = base_url or ""
        self._message = message
        self._demo_available = demo_available and not renewing
        self._allow_insecure_http = allow_insecure_http
        self._renewing = renewing
        self._accepted: Connection | None = None

    def compose(self) -> ComposeResult:
        """The hint, the two fields, the message line and the buttons, in a titled box."""
        with VerticalScroll(), Vertical(id="login-box") as box:
            box.border_title = "The server refused the API key" if self._renewing else "Sign in"
            hint = STORED_HINT if self._sign_in.can_store else SESSION_HINT
            yield Static(hint, classes="login-hint", markup=False)
            yield Label("Base URL")
            yield Input(
                self._base_url,
                placeholder="https://api.example.com",
                id="base-url",
                disabled=self._renewing,
            )
            yield Label("API key")
            yield Input(password=True, placeholder="paste your API key", id="api-key")
            yield Static(Content(clean(self._message)), id="login-message", markup=False)
            with Horizontal(id="login-buttons"):
                yield Button("Sign in", id="sign-in", variant="primary")
                if self._demo_available:
                    yield Button("Try the demo", id="demo")
                if self._renewing:
                    yield Button("Cancel", id="cancel")
            if not self._renewing:
                yield Static(SKIP_HINT, classes="login-hint", markup=False)
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer Esc only while renewing a key (at start there is nothing to go back to)."""
        if action == "cancel":
            return self._renewing
        return True

    def on_mount(self) -> None:
        """Focus the key, or the address when there is none or it was refused."""
        self.set_class(bool(self._message), "-message")
        self.set_class(not self._message, "-no-message")
        refused = bool(self._message) and not self._renewing and self._url_problem() is not None
        field = "#base-url" if not self._base_url or refused else "#api-key"
        self.query_one(field, Input).focus()

    def show_message(self, text: str, kind: str = "error") -> None:
        """Show a line under the form: an error, a note (warning) or progress."""
        line = self.query_one("#login-message", Static)
        line.set_class(kind == "note", "-note")
        line.set_class(kind == "progress", "-progress")
        line.update(Content(clean(text)))
        self.set_class(bool(text), "-message")
        self.set_class(not text, "-no-message")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Sign in, continue, demo or cancel."""
        event.stop()
        if event.button.id == "demo":
            self.action_demo()
        elif event.button.id == "cancel":
            self.action_cancel()
        else:
            self._submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the URL field moves to the key; Enter in the key signs in."""
        event.stop()
        if event.input.id == "base-url":
            self.query_one("#api-key", Input).focus()
        else:
            self._submit()

    def action_demo(self) -> None:
        """Ask for the demo (offered at start only)."""
        if self._demo_available:
            self.show_message("Starting the demo server…", "progress")
            self.post_message(self.DemoRequested())

    def action_cancel(self) -> None:
        """Back to the rows (mid-session only)."""
        if self._renewing:
            self.workers.cancel_group(self, "login")
            self.dismiss(None)

    def _url_problem(self) -> str | None:
        try:
            check_transport(
                normalise_base_url(self.query_one("#base-url", Input).value),
                allow_insecure_http=self._allow_insecure_http,
            )
        except (InvalidBaseURLError, InsecureTransportError) as exc:
            return str(exc)
        return None

    def _submit(self) -> None:
        if self._accepted is not None:
            self.dismiss(self._accepted)  # the user read why the key is kept for now only
            return
        problem = self._url_problem()
        if problem is not None:
            self.show_message(problem)
            self.query_one("#base-url", Input).focus()
            return
        key_field = self.query_one("#api-key", Input)
        key = key_field.value.strip()
        if not key:
            self.show_message("Paste the API key first.")
            key_field.focus()
            return
        base_url = normalise_base_url(self.query_one("#base-url", Input).value)
        self._sign_in_with(Connection(base_url, SecretStr(key), key_source="session"))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failure nobody expected is said on the form, never swallowed."""
        error = event.worker.error
        if event.worker.group == "login" and event.state is WorkerState.ERROR and error:
            key = self.query_one("#api-key", Input).value.strip()
            text = type(error).__name__ + ": " + str(error)
            self.show_message(
                "Signing in failed: " + (text.replace(key, "[redacted]") if key else text)
            )

    @work(exclusive=True, group="login", exit_on_error=False)
    async def _sign_in_with(self, connection: Connection) -> None:
        """Check the key, then store it; the form stays usable meanwhile."""
        button = self.query_one("#sign-in", Button)
        button.disabled = True
        try:
            self.show_message("Checking the key with the server…", "progress")
            try:
                await self._sign_in.check(connection)
            except SignInError as exc:
                self.show_message(str(exc))
                self.query_one("#api-key", Input).focus()
                return
            if self._sign_in.can_store:
                self.show_message("Key accepted. Storing it in the system keyring…", "progress")
            accepted, note = await self._sign_in.store(connection)
        finally:
            button.disabled = False
        if not note:
            self.dismiss(accepted)
            return
        self._accepted = accepted
        self.show_message(note, "note")
        button.label = "Continue"
        for field in self.query(Input):
            field.disabled = True
        button.focus()

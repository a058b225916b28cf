"""The login screen: a base URL and a masked key, checked with the server, then stored.

Shown when no key was found at start, and over the main screen when the server refuses
the key mid-session (the rows stay underneath; the base URL is fixed then). The form and
the sign-in itself are the shared `SignInForm`.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from screen_analysis.auth.connection import NotConnected, Reason
from screen_analysis.auth.errors import ENV_VAR
from screen_analysis.config import Connection
from screen_analysis.tui.screens.screen_keys import LOGIN_KEYS
from screen_analysis.tui.sign_in import SignIn
from screen_analysis.tui.widgets.key_bar import KeyBar
from screen_analysis.tui.widgets.sign_in_form import SignInForm

STORED_HINT = "The key is checked with one request, then kept in the system keyring."
SESSION_HINT = "The key is checked with one request and kept in memory for this session."
SKIP_HINT = f"To skip this screen, set {ENV_VAR} or run `screen-analysis login` once."


def start_line(why: NotConnected) -> str:
    """The line the login screen opens with when there was no connection at start."""
    if why.reason is Reason.NO_KEY:
        return ""  # the form itself says what to do
    if why.reason is Reason.NO_KEYRING:
        return why.keyring_problem
    return why.message


class LoginScreen(ModalScreen[Connection | None]):
    """Dismissed with the accepted connection, or None when cancelled (mid-session only)."""

    BINDINGS: ClassVar[list[BindingType]] = LOGIN_KEYS

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
        & Label { margin-top: 1; }
        & #login-buttons { height: auto; margin-top: 1; }
        & Button { margin-right: 2; }
    }
    """

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
        title: str = "",
    ) -> None:
        """Ask for a key for `base_url`; `renewing` fixes the URL and allows Esc; `title`
        replaces the box's own (plain text)."""
        super().__init__()
        self._sign_in = sign_in
        self._base_url = base_url or ""
        self._message = message
        self._demo_available = demo_available and not renewing
        self._allow_insecure_http = allow_insecure_http
        self._renewing = renewing
        self._title = title

    @property
    def form(self) -> SignInForm:
        """The fields and the sign-in."""
        return self.query_one(SignInForm)

    def compose(self) -> ComposeResult:
        """The hint, the form and the skip hint, in a titled box."""
        buttons = [Button("Sign in", id="sign-in", variant="primary")]
        if self._demo_available:
            buttons.append(Button("Try the demo", id="demo"))
        if self._renewing:
            buttons.append(Button("Cancel", id="cancel"))
        with VerticalScroll(), Vertical(id="login-box") as box:
            default = "The server refused the API key" if self._renewing else "Sign in"
            box.border_title = Content(self._title) if self._title else default
            hint = STORED_HINT if self._sign_in.can_store else SESSION_HINT
            yield Static(hint, classes="login-hint", markup=False)
            yield SignInForm(
                self._sign_in,
                buttons=buttons,
                buttons_id="login-buttons",
                message_id="login-message",
                key_placeholder="paste your API key",
                empty_key="Paste the API key first.",
                base_url=self._base_url,
                message=self._message,
                allow_insecure_http=self._allow_insecure_http,
                fixed_url=self._renewing,
            )
            if not self._renewing:
                yield Static(SKIP_HINT, classes="login-hint", markup=False)
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer Esc only while renewing a key (at start there is nothing to go back to)."""
        if action == "cancel":
            return self._renewing
        return True

    def on_mount(self) -> None:
        """Focus the key, or the address when there is none or it was refused (once the
        form has composed its fields: it mounts them after this screen's own mount)."""
        self._message_shown(bool(self._message))
        self.call_after_refresh(self._focus_first_field)

    def _focus_first_field(self) -> None:
        form = self.form
        refused = bool(self._message) and not self._renewing and form.address_problem() is not None
        field = "#base-url" if not self._base_url or refused else "#api-key"
        form.query_one(field, Input).focus()

    def show_message(self, text: str, kind: str = "error") -> None:
        """Show a line under the form: an error, a note (warning) or progress."""
        self.form.show_message(text, kind)

    @on(SignInForm.Said)
    def _said(self, event: SignInForm.Said) -> None:
        event.stop()
        self._message_shown(event.shown)

    def _message_shown(self, shown: bool) -> None:
        self.set_class(shown, "-message")
        self.set_class(not shown, "-no-message")

    @on(SignInForm.Accepted)
    def _accepted(self, event: SignInForm.Accepted) -> None:
        event.stop()
        self.dismiss(event.connection)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Demo or cancel (the form handles signing in)."""
        event.stop()
        if event.button.id == "demo":
            self.action_demo()
        elif event.button.id == "cancel":
            self.action_cancel()

    def action_demo(self) -> None:
        """Ask for the demo (offered at start only)."""
        if self._demo_available:
            self.show_message("Starting the demo server…", "progress")
            self.post_message(self.DemoRequested())

    def action_cancel(self) -> None:
        """Back to the rows (mid-session only)."""
        if self._renewing:
            self.form.cancel()
            self.dismiss(None)

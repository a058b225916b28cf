"""The one sign-in form: a base URL and a masked key, checked with the server, then kept.

The login and welcome screens both hold it; it runs the one sign-in path (address policy,
the key check, storing) in its own worker and posts `Accepted`. The screens add what is
theirs around it: hints, the demo button, Esc while renewing.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, Static
from textual.worker import Worker, WorkerState

from screen_analysis.auth.connection import NotConnected, check_address
from screen_analysis.config import Connection
from screen_analysis.safe_text import clean
from screen_analysis.secret import SecretStr
from screen_analysis.tui.sign_in import SignIn, SignInError, sign_in_failure


class SignInForm(Vertical):
    """Fields, a message line and buttons; the first button signs in, the others bubble up."""

    DEFAULT_CSS = """
    SignInForm {
        height: auto;
        & .sign-in-message.-note { color: $warning; }
        & .sign-in-message.-progress { color: $foreground-muted; }
    }
    """

    class Accepted(Message):
        """The server accepted the key; `note` says what could not be kept (else empty)."""

        def __init__(self, connection: Connection, note: str = "") -> None:
            super().__init__()
            self.connection = connection
            self.note = note

    class Said(Message):
        """The message line changed; `shown` is whether it holds any text now."""

        def __init__(self, shown: bool) -> None:
            super().__init__()
            self.shown = shown

    def __init__(
        self,
        sign_in: SignIn,
        *,
        buttons: Sequence[Button],
        buttons_id: str,
        message_id: str,
        key_placeholder: str,
        empty_key: str,
        base_url: str = "",
        message: str = "",
        allow_insecure_http: bool = False,
        fixed_url: bool = False,
        offer_storing: bool = False,
        pause_on_note: bool = True,
    ) -> None:
        """`sign_in` checks and keeps keys; `offer_storing` adds a box to keep the key (else
        the key is kept whenever `sign_in` can); `pause_on_note` shows a note about what
        could not be kept and waits for the first button ("Continue") before `Accepted`."""
        super().__init__()
        self._sign_in = sign_in
        self._buttons = list(buttons)
        self._buttons_id = buttons_id
        self._empty_key = empty_key
        self._allow_insecure_http = allow_insecure_http
        self._offer_storing = offer_storing and sign_in.can_store
        self._pause_on_note = pause_on_note
        self._accepted: Connection | None = None
        # Held, not queried: a worker finishing while the screen closes finds them still.
        self._url_field = Input(
            base_url, placeholder="https://api.example.com", id="base-url", disabled=fixed_url
        )
        self._key_field = Input(password=True, placeholder=key_placeholder, id="api-key")
        self._store_box = Checkbox("Store the key in the system keyring", id="store-key")
        self._line = Static(
            Content(clean(message)), id=message_id, classes="sign-in-message", markup=False
        )

    def compose(self) -> ComposeResult:
        """Base URL, key, the optional keep-the-key box, the message line and the buttons."""
        yield Label("Base URL")
        yield self._url_field
        yield Label("API key")
        yield self._key_field
        if self._offer_storing:
            yield self._store_box
        yield self._line
        with Horizontal(id=self._buttons_id):
            yield from self._buttons

    @property
    def submit_button(self) -> Button:
        """The button that signs in (and continues after a note)."""
        return self._buttons[0]

    def address_problem(self) -> str | None:
        """Why the typed address is refused (not a URL, plain HTTP elsewhere), or None."""
        found = check_address(
            self._url_field.value,
            allow_insecure_http=self._allow_insecure_http,
        )
        return found.message if isinstance(found, NotConnected) else None

    def show_message(self, text: str, kind: str = "error") -> None:
        """Show a line under the form: an error, a note (warning) or progress."""
        line = self._line
        line.set_class(kind == "note", "-note")
        line.set_class(kind == "progress", "-progress")
        line.update(Content(clean(text)))
        self.post_message(self.Said(bool(text)))

    def cancel(self) -> None:
        """Stop a sign-in under way."""
        self.workers.cancel_group(self, "sign-in")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The first button signs in; the others are the screen's."""
        if event.button is self.submit_button:
            event.stop()
            self.submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the URL field moves to the key; Enter in the key signs in."""
        event.stop()
        if event.input.id == "base-url":
            self.query_one("#api-key", Input).focus()
        else:
            self.submit()

    def submit(self) -> None:
        """Check the fields, then sign in; after a note, go on with the accepted key."""
        if self._accepted is not None:
            self.post_message(self.Accepted(self._accepted))  # the note was read
            return
        url_field = self._url_field
        found = check_address(url_field.value, allow_insecure_http=self._allow_insecure_http)
        if isinstance(found, NotConnected):
            self.show_message(found.message)
            url_field.focus()
            return
        key_field = self._key_field
        key = key_field.value.strip()
        if not key:
            self.show_message(self._empty_key)
            key_field.focus()
            return
        sign_in = self._sign_in
        if self._offer_storing and not self._store_box.value:
            sign_in = sign_in.session_only()
        self._run(sign_in, Connection(found, SecretStr(key), key_source="session"))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failure nobody expected is said on the form, never swallowed."""
        error = event.worker.error
        if event.worker.group == "sign-in" and event.state is WorkerState.ERROR and error:
            self.show_message(sign_in_failure(error, self._key_field.value.strip()))

    @work(exclusive=True, group="sign-in", exit_on_error=False)
    async def _run(self, sign_in: SignIn, connection: Connection) -> None:
        """Check the key, then keep it; the form stays usable meanwhile."""
        button = self.submit_button
        button.disabled = True
        try:
            self.show_message("Checking the key with the server…", "progress")
            try:
                await sign_in.check(connection)
            except SignInError as exc:
                self.show_message(str(exc))
                self._key_field.focus()
                return
            if sign_in.can_store:
                self.show_message("Key accepted. Storing it in the system keyring…", "progress")
            accepted, note = await sign_in.store(connection)
        finally:
            button.disabled = False
        if not note or not self._pause_on_note:
            self.post_message(self.Accepted(accepted, note))
            return
        self._accepted = accepted
        self.show_message(note, "note")
        button.label = "Continue"
        self._url_field.disabled = self._key_field.disabled = True
        button.focus()

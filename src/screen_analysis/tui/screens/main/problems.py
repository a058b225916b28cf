"""The main screen's one problem line: every failure of its widgets comes here.

A refused key asks the app for another (what it refused is kept and run again once a new
key works); no server at all before anything loaded (and nothing kept to show instead)
opens the error screen, saying so (retry, start the demo, or connect elsewhere); anything
else is one notification in the widget's words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import APIConnectionError, AuthenticationError


class ProblemHost(Protocol):
    """What the desk needs of the screen it serves: words to the user, the error screen."""

    def say_problem(self, words: str) -> None:
        """One notification."""

    def show_unreachable(
        self, error: Exception, closed: Callable[[str | None], None], *, note: str = ""
    ) -> None:
        """The error screen for `error` with `note`; `closed` gets "retry", "demo",
        "connect" or None."""


class ProblemDesk:
    """One problem shown at a time; refused work kept for the next key."""

    def __init__(
        self,
        host: ProblemHost,
        ask_for_key: Callable[[str], None],
        connect: Callable[[], None],
        *,
        demo: Callable[[], None] = lambda: None,
        nothing_kept: Callable[[], str] = lambda: "",
    ) -> None:
        """Serve `host`; `ask_for_key` asks the app for another key (the login screen);
        `connect` and `demo` are what "connect elsewhere" and "start the demo" on the error
        screen do; `nothing_kept` says that nothing is kept to show instead."""
        self._host = host
        self._ask_for_key = ask_for_key
        self._connect = connect
        self._demo = demo
        self._nothing_kept = nothing_kept
        self.open = False
        self._refused: list[Callable[[], None]] = []
        self._retry: Callable[[], None] | None = None

    def handle(
        self, error: Exception, again: Callable[[], None], *, words: str = "", loaded: bool
    ) -> None:
        """A widget's request failed: ask for a key, show the error screen, or say `words`
        (nothing when empty: the widget shows the failure itself)."""
        if isinstance(error, AuthenticationError):
            self._refused.append(again)
            if not self.open:
                self.open = True
                said = describe_error(error, prefix="The server said")
                self._ask_for_key(said + ". Paste a valid key to go on.")
        elif isinstance(error, APIConnectionError) and not loaded:
            if not self.open:
                self.open = True
                self._retry = again
                self._host.show_unreachable(error, self._closed, note=self._nothing_kept())
        elif words:
            self._host.say_problem(words)

    def resume(self, renewed: bool) -> None:
        """The login screen closed: with a new key, run again what the old one was refused
        for; without, keep what is shown (r retries)."""
        self.open = False
        refused, self._refused = self._refused, []
        if renewed:
            for again in refused:
                again()

    def _closed(self, choice: str | None) -> None:
        self.open = False
        retry, self._retry = self._retry, None
        if choice == "retry" and retry is not None:
            retry()
        elif choice == "demo":
            self._demo()
        elif choice == "connect":
            self._connect()

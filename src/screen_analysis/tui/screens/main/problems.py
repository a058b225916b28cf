"""The main screen's one problem line: every failure of its widgets comes here.

A refused key asks the app for another (what it refused is kept and run again once a new
key works); no server at all before anything loaded opens the error screen (retry, or
connect elsewhere); anything else is one notification in the widget's words.
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

    def show_unreachable(self, error: Exception, closed: Callable[[str | None], None]) -> None:
        """The error screen for `error`; `closed` gets "retry", "connect" or None."""


class ProblemDesk:
    """One problem shown at a time; refused work kept for the next key."""

    def __init__(
        self, host: ProblemHost, ask_for_key: Callable[[str], None], connect: Callable[[], None]
    ) -> None:
        """Serve `host`; `ask_for_key` asks the app for another key (the login screen);
        `connect` is what "connect elsewhere" on the error screen does."""
        self._host = host
        self._ask_for_key = ask_for_key
        self._connect = connect
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
                said = "The server said: " + describe_error(error)
                self._ask_for_key(said + ". Paste a valid key to go on.")
        elif isinstance(error, APIConnectionError) and not loaded:
            if not self.open:
                self.open = True
                self._retry = again
                self._host.show_unreachable(error, self._closed)
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
        elif choice == "connect":
            self._connect()

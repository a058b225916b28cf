"""Problems on the main screen that need the user: a refused key (the app asks for another)
or no server at all before anything loaded (an error screen with retry and connect).

A part the screen composes (`MainScreen.problems`). What failed because the key was refused
is kept and run again once a new key is accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import APIConnectionError, AuthenticationError

if TYPE_CHECKING:
    from screen_analysis.tui.screens.main import MainScreen


class ProblemDesk:
    """One problem shown at a time; refused work kept for the next key."""

    def __init__(self, screen: MainScreen) -> None:
        self._screen = screen
        self.open = False
        self._refused: list[Callable[[], None]] = []

    def needs_user(self, error: Exception, again: Callable[[], None], *, loaded: bool) -> bool:
        """Whether `error` is the user's to act on (then shown here, and `again` kept for
        after a new key); False leaves it to the caller."""
        if isinstance(error, AuthenticationError):
            self._refused.append(again)
        elif not (isinstance(error, APIConnectionError) and not loaded):
            return False
        if not self.open:
            self.open = True
            screen = self._screen
            if isinstance(error, AuthenticationError):
                said = "The server said: " + describe_error(error)
                screen.post_message(
                    screen.KeyRejected(screen, said + ". Paste a valid key to go on.")
                )
            else:
                from screen_analysis.problems import explain
                from screen_analysis.tui.dialogs.error import ErrorScreen

                problem = explain(error, screen.base_url)
                screen.app.push_screen(ErrorScreen(problem), self._closed)
        return True

    def resume(self, client: ScreenAnalysisClient | None) -> bool:
        """The login screen closed: True when a new key came with `client`."""
        self.open = False
        return client is not None

    def retry_refused(self) -> None:
        """Run again what the old key was refused for."""
        refused, self._refused = self._refused, []
        for again in refused:
            again()

    def _closed(self, choice: str | None) -> None:
        self.open = False
        if choice == "retry":
            self._screen.refresh_or_retry()
        elif choice == "connect":
            self._screen.post_message(self._screen.ChangeConnection())

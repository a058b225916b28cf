"""What the main screen's parts may ask of the screen: say something, show a screen (and
wait for its answer), copy to the clipboard, run a worker, start the demo server.

One small object the parts are given instead of the screen itself (`DialogHost` for the
actions, `ExportHost` for the export): it reaches nothing of the screen's widgets.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from textual.screen import Screen

from screen_analysis.tui.clipboard import copy_text

if TYPE_CHECKING:  # a progress dialog is made by what shows one (export, load all)
    from screen_analysis.tui.dialogs.progress import ProgressDialog

T = TypeVar("T")


class ScreenServices:
    """The services of one screen (its notifications, its workers, the app's screens)."""

    def __init__(self, screen: Screen[Any], base_url: Callable[[], str]) -> None:
        """Serve the parts of `screen`; `base_url` names the server problems are about."""
        self._screen = screen
        self._base_url = base_url

    def say(self, text: str, severity: str = "information") -> None:
        """One notification (plain text)."""
        self._screen.notify(text, severity=severity, markup=False)  # type: ignore[arg-type]

    def show(self, screen: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        """Push `screen`; `then` gets what it is dismissed with."""
        self._screen.app.push_screen(screen, then)

    def copy(self, text: str) -> str:
        """Copy `text` to the clipboard; what was copied."""
        return copy_text(self._screen.app, text)

    def background(self, work: Coroutine[Any, Any, Any], group: str) -> None:
        """Run `work` in a named worker of the screen."""
        self._screen.run_worker(work, group=group, exit_on_error=False)

    async def ask(self, screen: Screen[T]) -> T:
        """Push `screen` and wait for its answer (in a worker)."""
        return await self._screen.app.push_screen_wait(screen)

    async def show_progress(self, progress: ProgressDialog, closed: Callable[[Any], None]) -> None:
        """Push a progress dialog; `closed` gets what it is dismissed with."""
        await self._screen.app.push_screen(progress, closed)

    def is_shown(self, screen: Screen[Any]) -> bool:
        """Whether `screen` is on top."""
        return self._screen.app.screen is screen

    def say_problem(self, words: str) -> None:
        """One error notification."""
        self._screen.notify(words, severity="error", markup=False)

    def show_unreachable(
        self, error: Exception, closed: Callable[[str | None], None], *, note: str = ""
    ) -> None:
        """The error screen for a server that cannot be reached, with `note` (what is kept
        to show instead): retry, start the demo (when the app can), or connect elsewhere."""
        from screen_analysis.problems import explain
        from screen_analysis.tui.dialogs.error import ErrorScreen

        problem = explain(error, self._base_url())
        screen = ErrorScreen(problem, note=note, demo=self.demo_available)
        self._screen.app.push_screen(screen, closed)

    @property
    def demo_available(self) -> bool:
        """Whether the app can start the built-in demo server."""
        return getattr(self._screen.app, "start_demo", None) is not None

    def start_demo(self) -> None:
        """Ask the app for the demo server, as the welcome screen does (the app's one way
        to start it; it then browses the demo in place of this screen)."""
        from screen_analysis.tui.screens.welcome import WelcomeScreen

        self._screen.app.post_message(WelcomeScreen.DemoRequested())

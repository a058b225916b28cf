"""The terminal app: owns the API client, shows the welcome, main, help and error screens."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import ClassVar

from textual import on, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.worker import Worker, WorkerState

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.config import Connection, Settings
from screen_analysis.safe_text import clean
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.commands import MainCommands
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.welcome import WelcomeScreen

ClientFactory = Callable[[Connection], ScreenAnalysisClient]
SaveKey = Callable[[Connection], None]


def default_client(connection: Connection) -> ScreenAnalysisClient:
    """The client the app uses unless told otherwise."""
    return ScreenAnalysisClient(connection.base_url, connection.api_key)


class ScreenAnalysisApp(App[int]):
    """Browse projects and analyses of a Screen Analysis Service.

    Built by the composition root with settings, a connection (None: the welcome screen asks
    for one), the remembered projects and a clock. `start_demo` starts the embedded server and
    returns its connection; `save_key` stores a key typed on the welcome screen; `make_client`
    lets tests choose client options.
    """

    TITLE = "screen-analysis"
    CSS_PATH = "app.tcss"
    COMMANDS: ClassVar = App.COMMANDS | {MainCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", tooltip="Quit (exit code 0)"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
    ]

    def __init__(
        self,
        settings: Settings,
        connection: Connection | None,
        remembered: RememberedProjects,
        clock: Callable[[], datetime] = now_utc,
        start_demo: Callable[[], Connection] | None = None,
        *,
        save_key: SaveKey | None = None,
        make_client: ClientFactory = default_client,
    ) -> None:
        """Remember what to connect to; nothing is opened before mount."""
        super().__init__()
        self.settings = settings
        self.connection = connection
        self.remembered = remembered
        self.clock = clock
        self.start_demo = start_demo
        self.save_key = save_key
        self.make_client = make_client
        self.client: ScreenAnalysisClient | None = None
        if settings.theme and settings.theme in self.available_themes:
            self.theme = settings.theme

    async def on_mount(self) -> None:
        """Browse when connected, else welcome."""
        if self.connection is None:
            await self.push_screen(self._welcome())
        else:
            await self._browse(self.connection)

    async def on_unmount(self) -> None:
        """Close the client's connections."""
        await self._close_client()

    def _welcome(self, message: str = "") -> WelcomeScreen:
        return WelcomeScreen(
            base_url=self.settings.base_url,
            demo_available=self.start_demo is not None,
            can_store_key=self.save_key is not None,
            allow_insecure_http=self.settings.allow_insecure_http,
            message=message,
        )

    async def _close_client(self) -> None:
        if self.client is not None:
            client, self.client = self.client, None
            await client.aclose()

    async def _browse(self, connection: Connection) -> None:
        """Open a client for `connection` and show the main screen (replacing any other)."""
        await self._close_client()
        self.connection = connection
        self.client = self.make_client(connection)
        self.sub_title = "demo" if connection.is_demo else clean(connection.base_url)
        screen = MainScreen(
            self.client,
            settings=self.settings,
            remembered=self.remembered,
            base_url=connection.base_url,
            clock=self.clock,
        )
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(screen)

    @on(WelcomeScreen.DemoRequested)
    def _demo_requested(self) -> None:
        self._start_demo()

    @work(thread=True, exclusive=True, group="connect", exit_on_error=False)
    def _start_demo(self) -> Connection:
        """Start the embedded server (it takes a moment) and return its connection."""
        assert self.start_demo is not None
        return self.start_demo()

    @on(WelcomeScreen.ConnectRequested)
    async def _connect_requested(self, event: WelcomeScreen.ConnectRequested) -> None:
        if event.store_key and self.save_key is not None:
            self.save_key(event.connection)
        await self._browse(event.connection)

    @on(MainScreen.ChangeConnection)
    async def _change_connection(self) -> None:
        await self._close_client()
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(self._welcome())

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The demo server started, or failed to."""
        if event.worker.group != "connect":
            return
        if event.state is WorkerState.SUCCESS and isinstance(event.worker.result, Connection):
            await self._browse(event.worker.result)
        elif event.state is WorkerState.ERROR and isinstance(self.screen, WelcomeScreen):
            self.screen.show_message("The demo server did not start: " + str(event.worker.error))

    def action_help(self) -> None:
        """Show the keys."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        """Quit with exit code 0."""
        self.exit(0)

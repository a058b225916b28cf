"""The terminal app's connection: the client in use (the one holder), the local cache of
its server, the main screen built for them, and the ways to one: the welcome and login
screens (the one sign-in path), the embedded demo, a refused key renewed, a profile
switched to, another server.

`ConnectingApp` is the app `ScreenAnalysisApp` builds on (the themes, the keys and the
screens that are not about the connection are that one's); nothing else replaces the
client or the cache.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING

from textual import on, work
from textual.worker import Worker, WorkerState

from screen_analysis.api.current import CurrentClient
from screen_analysis.auth.connection import NotConnected, Reason
from screen_analysis.auth.key_check import ClientFactory
from screen_analysis.config import Connection, Settings, refresh_interval
from screen_analysis.safe_text import clean
from screen_analysis.state import RememberedProjects, server_key
from screen_analysis.tui.app_keys import remappable_ids
from screen_analysis.tui.compat.textual import CrashReportWithoutLocals
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.graphics import Graphics
from screen_analysis.tui.keys import check_keymap
from screen_analysis.tui.own_commands import OwnSettings, with_commands
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.screen_image import ImagePreviews

if TYPE_CHECKING:
    # The sign-in screens are imported when first opened.
    from screen_analysis.api.client import ScreenAnalysisClient
    from screen_analysis.cache import LocalCache
    from screen_analysis.cache.ahead import CacheAhead
    from screen_analysis.images.disk import DiskCache
    from screen_analysis.tui.profile_switch import ProfileSwitcher
    from screen_analysis.tui.screens.login import LoginScreen
    from screen_analysis.tui.screens.welcome import WelcomeScreen
    from screen_analysis.tui.sign_in import SaveKey, SignIn
    from screen_analysis.tui.widgets.sign_in_form import SignInForm


class ConnectingApp(CrashReportWithoutLocals[int]):
    """An app connected to one server at a time (see the module)."""

    def __init__(
        self,
        settings: Settings,
        connection: Connection | NotConnected | None,
        remembered: RememberedProjects,
        clock: Callable[[], datetime] = now_utc,
        start_demo: Callable[[], Connection] | None = None,
        *,
        make_client: ClientFactory,
        save_key: SaveKey | None = None,
        graphics: Graphics | None = None,
        image_cache: DiskCache | None = None,
        open_cache: Callable[[Connection], LocalCache] | None = None,
        cache_ahead: CacheAhead | None = None,
    ) -> None:
        """Remember what to connect to; nothing is opened before mount.

        `graphics` how images are drawn (None: not at all), `image_cache` where they are
        kept; `open_cache` opens the local cache of a connection (None: no local cache);
        `cache_ahead` is the start connection's, which the composition root began to open
        while the app was imported.
        """
        super().__init__()
        self.settings = settings
        self.own = OwnSettings(settings.commands, settings.notify)  # read once, at start
        self.main_screen = with_commands(MainScreen, self.own.bindings)
        self.connection = connection if isinstance(connection, Connection) else None
        self.not_connected = connection if isinstance(connection, NotConnected) else None
        self.remembered = remembered
        self.clock = clock
        self.start_demo = start_demo
        self.save_key = save_key
        self.make_client = make_client
        self.open_cache = open_cache
        self.cache_ahead = cache_ahead
        self.cache: LocalCache | None = None
        self.current = CurrentClient()
        self.previews = ImagePreviews.made(graphics or Graphics(), image_cache, self.current)
        self._state_warning: str | None = None

    async def on_unmount(self) -> None:
        """Close the client's connections and the local cache (its writes finished)."""
        await self.current.swap(None)
        await self._swap_cache(None)
        if self.cache_ahead is not None:  # the app ended before it browsed
            await asyncio.to_thread(self.cache_ahead.discard)

    async def connect_at_start(self) -> None:
        """Browse the connection the app was built with; without one, the login screen
        saying why (or asking for the key of the configured server), else the welcome."""
        why = self.not_connected
        if self.connection is not None:
            # Textual holds every paint while the app mounts: the main screen pushed from
            # here would be laid out and drawn in vain, then again. It waits for the end.
            self.call_later(self.browse, self.connection)
        elif why is not None and why.reason is not Reason.NO_SERVER:
            from screen_analysis.tui.screens.login import start_line

            await self.push_screen(self.login_screen(start_line(why)), self.signed_in)
        elif why is None and self.settings.base_url:
            await self.push_screen(self.login_screen(), self.signed_in)
        else:
            await self.push_screen(self.welcome_screen())

    async def _swap_cache(self, connection: Connection | None) -> LocalCache | None:
        """Close the cache in use and open the one of `connection` (off the event loop);
        its problem, if any, is said once. The start connection's, opened ahead, is taken
        without a wait when it is open: the main screen follows at once, with no empty
        frame drawn while a thread opens the file."""
        old, self.cache = self.cache, None
        if old is not None:
            await asyncio.to_thread(old.close)
        if connection is None or self.open_cache is None:
            return None
        ahead, self.cache_ahead = self.cache_ahead, None
        opening = None if ahead is None else ahead.take(connection)
        if opening is not None:
            self.cache = opening.result() if opening.done() else await asyncio.wrap_future(opening)
        else:
            if ahead is not None:  # another connection's
                await asyncio.to_thread(ahead.discard)
            self.cache = await asyncio.to_thread(self.open_cache, connection)
        if self.cache.warning:
            self.notify(clean(self.cache.warning), severity="warning", timeout=12, markup=False)
        return self.cache

    def welcome_screen(self, message: str = "") -> WelcomeScreen:
        """The welcome screen: connect, or try the demo."""
        from screen_analysis.tui.screens.welcome import WelcomeScreen

        return WelcomeScreen(
            self._sign_in(),
            base_url=self.settings.base_url,
            demo_available=self.start_demo is not None,
            allow_insecure_http=self.settings.allow_insecure_http,
            message=message,
        )

    def _sign_in(self, *, demo: bool = False) -> SignIn:
        """The one sign-in path; a demo key is never kept."""
        from screen_analysis.tui.sign_in import SignIn

        sign_in = SignIn(self.make_client, self.save_key, self.settings.config_path, self.settings)
        return sign_in.session_only() if demo else sign_in

    def login_screen(self, message: str = "", *, renewing: Connection | None = None) -> LoginScreen:
        """The login screen (`renewing`: for another key to the same server)."""
        from screen_analysis.tui.screens.login import LoginScreen

        return LoginScreen(
            self._sign_in(demo=renewing is not None and renewing.is_demo),
            base_url=renewing.base_url if renewing else self.settings.base_url,
            message=message,
            demo_available=self.start_demo is not None,
            allow_insecure_http=self.settings.allow_insecure_http,
            renewing=renewing is not None,
        )

    async def signed_in(self, connection: Connection | None) -> None:
        """The login screen closed: browse the connection it accepted, if any."""
        if connection is not None:
            await self.browse(connection)

    @property
    def client(self) -> ScreenAnalysisClient | None:
        """The client in use, if connected."""
        return self.current.client if self.current.connected else None

    async def browse(self, connection: Connection, settings: Settings | None = None) -> None:
        """Open a client for `connection` and show the main screen (replacing any other);
        with `settings`, those of the profile switched to. The old client is closed once
        the new one exists; nothing of the old server's view is kept."""
        await self.current.open(lambda: self.make_client(connection), connection.base_url)
        if settings is not None:
            self._adopt(settings)
        self.connection = connection
        where = "demo" if connection.is_demo else clean(connection.base_url)
        self.sub_title = f"{clean(connection.profile)} · {where}" if connection.profile else where
        key = server_key(connection.base_url, is_demo=connection.is_demo)
        self.remembered = self.remembered.for_server(key)
        self.report_state_problem(self.remembered.problem)
        cache = await self._swap_cache(connection)
        trust = None
        if cache is not None:
            from screen_analysis.cache.keys import KeptKeys

            trust = KeptKeys(cache, lambda: self.connection.api_key if self.connection else None)
        screen = self.main_screen(
            self.current,
            settings=self.settings,
            remembered=self.remembered,
            refresh_interval=refresh_interval(self.settings, demo=connection.is_demo),
            clock=self.clock,
            previews=self.previews,
            cache=cache,
            trust=trust,
            own=self.own,
        )
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(screen)

    def _adopt(self, settings: Settings) -> None:
        """The switched-to profile's settings: its theme and keymap apply at once."""
        self.settings = settings
        if settings.theme and settings.theme in self.available_themes:
            self.theme = settings.theme
        self.keymap, _problems = check_keymap(settings.keymap, remappable_ids() | self.own.ids)
        self.set_keymap(self.keymap)

    @cached_property
    def profile_switch(self) -> ProfileSwitcher:
        """Switching profiles (built on first use: start-up does not need it)."""
        from screen_analysis.tui.profile_switch import ProfileSwitcher

        return ProfileSwitcher(self)

    def switch_profile(self, name: str) -> None:
        """Switch to `[profiles.NAME]` once its connection has been checked."""
        self.profile_switch.switch(name)

    def on_welcome_screen_demo_requested(self) -> None:
        """The welcome screen asked for the demo server."""
        self._start_demo()

    def on_login_screen_demo_requested(self) -> None:
        """The login screen asked for the demo server."""
        self._start_demo()

    @work(thread=True, exclusive=True, group="connect", exit_on_error=False)
    def _start_demo(self) -> Connection:
        """Start the embedded server (it takes a moment) and return its connection."""
        assert self.start_demo is not None
        return self.start_demo()

    async def on_sign_in_form_accepted(self, event: SignInForm.Accepted) -> None:
        """The welcome screen's form signed in (the login screen dismisses itself)."""
        await self.browse(event.connection)
        if event.note:
            self.notify(event.note, severity="warning", timeout=20, markup=False)

    @on(MainScreen.KeyRejected)
    def _key_rejected(self, event: MainScreen.KeyRejected) -> None:
        """The login screen over the main one; its rows stay, and what failed is retried."""
        main, old = event.screen, self.connection
        if old is None:
            return
        message = event.detail
        if old.key_source == "env":
            message += (
                " The key came from SCREEN_ANALYSIS_API_KEY, which still wins at the next start."
            )

        async def renewed(connection: Connection | None) -> None:
            if connection is None:
                main.resume(False)
                return
            await self.current.swap(self.make_client(connection))
            self.connection = connection
            main.resume(True)

        self.push_screen(self.login_screen(message, renewing=old), renewed)

    @on(MainScreen.ChangeConnection)
    async def _change_connection(self) -> None:
        await self.current.swap(None)
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(self.welcome_screen())

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The demo server started, or failed to."""
        if event.worker.group != "connect":
            return
        if event.state is WorkerState.SUCCESS and isinstance(event.worker.result, Connection):
            await self.browse(event.worker.result)
        elif event.state is WorkerState.ERROR:
            from screen_analysis.tui.screens.login import LoginScreen
            from screen_analysis.tui.screens.welcome import WelcomeScreen

            if isinstance(self.screen, WelcomeScreen | LoginScreen):
                self.screen.show_message(
                    "The demo server did not start: " + str(event.worker.error)
                )

    def report_state_problem(self, problem: str | None) -> None:
        """A damaged state file: one warning (the app goes on with nothing remembered)."""
        if problem and problem != self._state_warning:
            self._state_warning = problem
            self.notify(clean(problem), severity="warning", timeout=15, markup=False)

"""The terminal app: owns the API client, shows the welcome, main, help and error screens."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.await_complete import AwaitComplete
from textual.binding import BindingType
from textual.command import CommandPalette
from textual.worker import Worker, WorkerState

from screen_analysis.api.current import CurrentClient
from screen_analysis.auth.connection import NotConnected, Reason
from screen_analysis.auth.key_check import ClientFactory
from screen_analysis.config import (
    ConfigError,
    Connection,
    Settings,
    refresh_interval,
    save_config_values,
)
from screen_analysis.safe_text import clean
from screen_analysis.state import RememberedProjects, server_key
from screen_analysis.tui.app_keys import APP_KEYS, help_sections, remappable_ids
from screen_analysis.tui.commands import palette_commands
from screen_analysis.tui.compat.textual import CrashReportWithoutLocals
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.graphics import Graphics, replay_typeahead
from screen_analysis.tui.keys import check_keymap
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.themes import (
    DEFAULT_THEME,
    ThemeLoad,
    load_themes,
    mark_low_colour,
    register_themes,
    user_theme_dir,
    variable_defaults,
)
from screen_analysis.tui.widgets.screen_image import ImagePreviews

if TYPE_CHECKING:
    # The sign-in, help and theme screens are imported when first opened.
    from screen_analysis.api.client import ScreenAnalysisClient
    from screen_analysis.cache import LocalCache
    from screen_analysis.images.disk import DiskCache
    from screen_analysis.tui.profile_switch import ProfileSwitcher
    from screen_analysis.tui.screens.login import LoginScreen
    from screen_analysis.tui.screens.welcome import WelcomeScreen
    from screen_analysis.tui.sign_in import SaveKey, SignIn
    from screen_analysis.tui.widgets.sign_in_form import SignInForm


class ScreenAnalysisApp(CrashReportWithoutLocals[int]):
    """Browse projects and analyses of a Screen Analysis Service.

    Built by the composition root with settings, the connection the one resolver found or
    why there is none (`NotConnected`: no server opens the welcome screen, which offers the
    demo; anything else the login screen, saying why; None decides from the settings alone),
    the remembered projects and a clock. `start_demo` starts the embedded server and returns
    its connection; `save_key` stores a key the server accepted (in the keyring);
    `make_client` is the composition root's client factory.
    """

    TITLE = "screen-analysis"
    CSS_PATH = "app.tcss"
    COMMANDS: ClassVar = set()  # the palette opens with ours only (action_command_palette)
    BINDINGS: ClassVar[list[BindingType]] = APP_KEYS

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
        themes: ThemeLoad | None = None,
        graphics: Graphics | None = None,
        image_cache: DiskCache | None = None,
        open_cache: Callable[[Connection], LocalCache] | None = None,
    ) -> None:
        """Remember what to connect to; nothing is opened before mount.

        `themes` are the loaded theme files (None: load the shipped and the user's now);
        `graphics` how images are drawn (None: not at all), `image_cache` where they are kept;
        `open_cache` opens the local cache of a connection (None: no local cache).
        """
        super().__init__()
        self.settings = settings
        self.connection = connection if isinstance(connection, Connection) else None
        self.not_connected = connection if isinstance(connection, NotConnected) else None
        self.remembered = remembered
        self.clock = clock
        self.start_demo = start_demo
        self.save_key = save_key
        self.make_client = make_client
        self.open_cache = open_cache
        self.cache: LocalCache | None = None
        self.current = CurrentClient()
        self.previews = ImagePreviews.made(graphics or Graphics(), image_cache, self.current)
        self.themes_loaded = themes if themes is not None else load_themes(user_theme_dir())
        register_themes(self, self.themes_loaded.themes)
        self._theme_note = ""
        self._state_warning: str | None = None
        wanted = settings.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self._theme_note = f"The theme {wanted!r} is not available; using {DEFAULT_THEME}."
            wanted = DEFAULT_THEME
        self.theme = wanted
        self.keymap, self._keymap_problems = check_keymap(settings.keymap, remappable_ids())
        self.set_keymap(self.keymap)
        self.palette_commands = palette_commands(self)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The app's variables ($status-*, $score-*) derived from the current theme."""
        defaults = variable_defaults(self.current_theme)
        # Textual's ANSI themes define no $foreground-disabled; the widgets use it.
        return {"foreground-disabled": defaults["score-bar-empty"], **defaults}

    async def on_mount(self) -> None:
        """Report theme problems once; browse when connected, else welcome."""
        mark_low_colour(self)
        self._report_theme_problems()
        replay_typeahead(self, self.previews.graphics.typeahead)
        self._report_state_problem(self.remembered.problem)
        if self._keymap_problems:
            lines = ["[keymap] in " + str(self.settings.config_path) + ": left out, defaults kept:"]
            self.notify("\n".join(lines + self._keymap_problems), severity="warning",
                        timeout=15, markup=False)  # fmt: skip
        self.app_suspend_signal.subscribe(self, lambda _app: self._hold("suspended", True))
        self.app_resume_signal.subscribe(self, lambda _app: self._hold("suspended", False))
        why = self.not_connected
        if self.connection is not None:
            # Textual holds every paint while the app mounts: the main screen pushed from
            # here would be laid out and drawn in vain, then again. It waits for the end.
            self.call_later(self.browse, self.connection)
        elif why is not None and why.reason is not Reason.NO_SERVER:
            from screen_analysis.tui.screens.login import start_line

            await self.push_screen(self._login(start_line(why)), self._signed_in)
        elif why is None and self.settings.base_url:
            await self.push_screen(self._login(), self._signed_in)
        else:
            await self.push_screen(self._welcome())

    def pop_screen(self) -> AwaitComplete:
        """Pop the top screen, its widgets' rendered lines dropped first: Textual keeps the
        style caches of up to 1,024 widgets that are gone (textual#6665), and emptied they
        are small. (`refresh` is what empties them; the screen is not drawn again.)"""
        for widget in self.screen.walk_children(with_self=True):
            widget.refresh()
        return super().pop_screen()

    def watch_app_focus(self, focused: bool) -> None:
        """The terminal lost or regained focus: auto-refreshes wait while it is away."""
        self._hold("focus", not focused)

    def _hold(self, reason: str, held: bool) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.hold_refresh(reason, held)

    async def on_unmount(self) -> None:
        """Close the client's connections and the local cache (its writes finished)."""
        await self.current.swap(None)
        await self._swap_cache(None)

    async def _swap_cache(self, connection: Connection | None) -> LocalCache | None:
        """Close the cache in use and open the one of `connection` (off the event loop);
        its problem, if any, is said once."""
        old, self.cache = self.cache, None
        if old is not None:
            await asyncio.to_thread(old.close)
        if connection is None or self.open_cache is None:
            return None
        self.cache = await asyncio.to_thread(self.open_cache, connection)
        if self.cache.warning:
            self.notify(clean(self.cache.warning), severity="warning", timeout=12, markup=False)
        return self.cache

    def _welcome(self, message: str = "") -> WelcomeScreen:
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

    def _login(self, message: str = "", *, renewing: Connection | None = None) -> LoginScreen:
        from screen_analysis.tui.screens.login import LoginScreen

        return LoginScreen(
            self._sign_in(demo=renewing is not None and renewing.is_demo),
            base_url=renewing.base_url if renewing else self.settings.base_url,
            message=message,
            demo_available=self.start_demo is not None,
            allow_insecure_http=self.settings.allow_insecure_http,
            renewing=renewing is not None,
        )

    async def _signed_in(self, connection: Connection | None) -> None:
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
        await self.current.swap(self.make_client(connection))
        if settings is not None:
            self._adopt(settings)
        self.connection = connection
        where = "demo" if connection.is_demo else clean(connection.base_url)
        self.sub_title = f"{clean(connection.profile)} · {where}" if connection.profile else where
        key = server_key(connection.base_url, is_demo=connection.is_demo)
        self.remembered = self.remembered.for_server(key)
        self._report_state_problem(self.remembered.problem)
        cache = await self._swap_cache(connection)
        trust = None
        if cache is not None:
            from screen_analysis.cache.keys import KeptKeys

            trust = KeptKeys(cache, lambda: self.connection.api_key if self.connection else None)
        screen = MainScreen(
            self.current,
            settings=self.settings,
            remembered=self.remembered,
            refresh_interval=refresh_interval(self.settings, demo=connection.is_demo),
            clock=self.clock,
            previews=self.previews,
            cache=cache,
            trust=trust,
        )
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(screen)

    def _adopt(self, settings: Settings) -> None:
        """The switched-to profile's settings: its theme and keymap apply at once."""
        self.settings = settings
        if settings.theme and settings.theme in self.available_themes:
            self.theme = settings.theme
        self.keymap, _problems = check_keymap(settings.keymap, remappable_ids())
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

        self.push_screen(self._login(message, renewing=old), renewed)

    @on(MainScreen.ChangeConnection)
    async def _change_connection(self) -> None:
        await self.current.swap(None)
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(self._welcome())

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

    def _report_theme_problems(self) -> None:
        problems = self.themes_loaded.problems
        lines = [self._theme_note] if self._theme_note else []
        if problems:
            lines.append(f"Skipped {len(problems)} theme file(s):")
            lines.extend(clean(str(problem)) for problem in problems)
        if lines:
            self.notify("\n".join(lines), severity="warning", timeout=12, markup=False)

    def _report_state_problem(self, problem: str | None) -> None:
        """A damaged state file: one warning (the app goes on with nothing remembered)."""
        if problem and problem != self._state_warning:
            self._state_warning = problem
            self.notify(clean(problem), severity="warning", timeout=15, markup=False)

    def action_change_theme(self) -> None:
        """Choose a theme with a live preview; the one kept is saved in the config file."""
        from screen_analysis.tui.theme_provider import ThemePicker

        if not isinstance(self.screen, ThemePicker):
            self.push_screen(ThemePicker(on_chosen=self._write_theme))

    @work(group="config-file", exit_on_error=False)
    async def _write_theme(self, name: str) -> None:
        """Save the theme kept in the config file (off the event loop)."""
        try:
            await asyncio.to_thread(save_config_values, self.settings.config_path, theme=name)
        except (OSError, ConfigError) as exc:
            self.notify(
                "The theme was not saved: " + clean(str(exc)), severity="warning", markup=False
            )

    def action_command_palette(self) -> None:
        """The palette of our commands only, served by this app's keymap and profile switch."""
        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(CommandPalette([self.palette_commands], id="--command-palette"))

    def action_help(self) -> None:
        """Show the keys."""
        from screen_analysis.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_sections(self.keymap)))

    async def action_quit(self) -> None:
        """Quit with exit code 0."""
        self.exit(0)

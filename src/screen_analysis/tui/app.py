"""The terminal app: its themes, its keys and the screens that are not about the connection
(help, the palette, the theme picker); the connection itself (the client, the local cache,
the main, welcome and login screens) is its base's (`app_connect.ConnectingApp`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.await_complete import AwaitComplete
from textual.binding import BindingType
from textual.command import CommandPalette

from screen_analysis.auth.connection import NotConnected
from screen_analysis.auth.key_check import ClientFactory
from screen_analysis.config import ConfigError, Connection, Settings
from screen_analysis.config_saves import save_config_values
from screen_analysis.safe_text import clean
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app_connect import ConnectingApp
from screen_analysis.tui.app_keys import APP_KEYS, help_sections, remappable_ids
from screen_analysis.tui.commands import palette_commands
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.graphics import Graphics, replay_typeahead
from screen_analysis.tui.keys import check_keymap, key_help
from screen_analysis.tui.own_commands import clashes
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
from screen_analysis.tui.widgets.table import AnalysesTable

if TYPE_CHECKING:
    # The help and theme screens are imported when first opened.
    from screen_analysis.cache import LocalCache
    from screen_analysis.cache.ahead import CacheAhead
    from screen_analysis.images.disk import DiskCache
    from screen_analysis.tui.sign_in import SaveKey


BUILT_IN = (AnalysesTable.BINDINGS, MainScreen.BINDINGS, APP_KEYS)
"""The bindings a command's key could clash with where commands run (the main screen)."""


class ScreenAnalysisApp(ConnectingApp):
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
        cache_ahead: CacheAhead | None = None,
    ) -> None:
        """Remember what to connect to; nothing is opened before mount.

        `themes` are the loaded theme files (None: load the shipped and the user's now);
        `graphics` how images are drawn (None: not at all), `image_cache` where they are kept;
        `open_cache` opens the local cache of a connection (None: no local cache),
        `cache_ahead` is the start connection's, being opened already.
        """
        super().__init__(
            settings,
            connection,
            remembered,
            clock,
            start_demo,
            make_client=make_client,
            save_key=save_key,
            graphics=graphics,
            image_cache=image_cache,
            open_cache=open_cache,
            cache_ahead=cache_ahead,
        )
        ansi_dark = self.current_theme.dark  # which ANSI colours Textual set up
        self.themes_loaded = themes if themes is not None else load_themes(user_theme_dir())
        register_themes(self, self.themes_loaded.themes)
        self._theme_note = ""
        wanted = settings.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self._theme_note = f"The theme {wanted!r} is not available; using {DEFAULT_THEME}."
            wanted = DEFAULT_THEME
        self._first_theme(wanted, ansi_dark=ansi_dark)
        known = remappable_ids() | self.own.ids
        self.keymap, self._keymap_problems = check_keymap(settings.keymap, known)
        self.set_keymap(self.keymap)
        self.palette_commands = palette_commands(self)

    def _first_theme(self, name: str, *, ansi_dark: bool) -> None:
        """Start in theme `name`. Setting `theme` schedules a re-parse of every style rule
        read so far, in a stylesheet of its own, and empties Textual's parse cache, so those
        rules are parsed twice before the first frame (about 5 ms). Nothing is styled yet:
        a theme from a theme file (shipped or the user's) that keeps the ANSI colours
        Textual chose (`ansi_dark`: a dark theme's or a light one's) is set as the setter
        would, without the re-parse: its class and the stylesheet's variables (the dark or
        light mode class is already the theme's). Any other theme goes through the setter:
        a light one also changes the ANSI colours, and Textual's own themes may need more
        of Textual (its ANSI theme does)."""
        if name not in self.themes_loaded.names or self.available_themes[name].dark != ansi_dark:
            self.theme = name
            return
        self.set_reactive(ScreenAnalysisApp.theme, name)
        self.set_class(True, f"-theme-{name}", update=False)
        self.stylesheet.set_variables(self.get_css_variables())

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
        self.report_state_problem(self.remembered.problem)
        own = self.own.problems + clashes(self.own.bindings, BUILT_IN, self.keymap)
        if own:
            self.notify("\n".join(own), severity="warning", timeout=15, markup=False)
        if self._keymap_problems:
            lines = ["[keymap] in " + str(self.settings.config_path) + ": left out, defaults kept:"]
            lines += self._keymap_problems
            self.notify("\n".join(lines), severity="warning", timeout=15, markup=False)
        self.app_suspend_signal.subscribe(self, lambda _app: self._hold("suspended", True))
        self.app_resume_signal.subscribe(self, lambda _app: self._hold("suspended", False))
        await self.connect_at_start()

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

    def _report_theme_problems(self) -> None:
        problems = self.themes_loaded.problems
        lines = [self._theme_note] if self._theme_note else []
        if problems:
            lines.append(f"Skipped {len(problems)} theme file(s):")
            lines.extend(clean(str(problem)) for problem in problems)
        if lines:
            self.notify("\n".join(lines), severity="warning", timeout=12, markup=False)

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
            sections = help_sections(self.keymap)
            if self.own.bindings:
                sections.append(("Your commands", key_help(self.own.bindings, self.keymap)))
            self.push_screen(HelpScreen(sections))

    async def action_quit(self) -> None:
        """Quit with exit code 0."""
        self.exit(0)

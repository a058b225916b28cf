"""The command palette (Ctrl+P): our commands only. The keys of the screen in front (from
its bindings, remapped keys shown), the app's own ("Keys" opens the help, "Theme" the theme
picker, "Quit"), "Switch to NAME" for every other profile in the config, and on the main
screen the projects listed. Textual's developer entries (Maximize, Screenshot) are not
offered.

Textual builds a palette's providers itself, from classes (`Provider(screen)`), so the app
hands the palette what it needs (`PaletteServices`: the keymap in force, the profile switch)
by binding it into the class: `palette_commands(services)`, built once by the app, which
opens the palette with it (`ScreenAnalysisApp.action_command_palette`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from functools import partial
from typing import ClassVar, Protocol

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.screen import Screen

from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.tui.app_keys import APP_KEYS
from screen_analysis.tui.keys import KeyHelp, declared_bindings, key_help
from screen_analysis.tui.screens.main import MainScreen

OURS = "screen_analysis."
SWITCH_HELP = "Profile: checked before switching"
THEME_HELP = "Choose a theme with a live preview (kept in the config file)"
APP_TITLES = {"help": "Keys", "quit": "Quit"}
"""The app's bindings in the palette, by id, with the palette's title for each."""

Choice = tuple[str, Callable[[], object], str]


class ProfileSwitch(Protocol):
    """Switching profiles, as the palette offers it."""

    def targets(self) -> tuple[str, ...]:
        """The profiles one can switch to (reads the config file: call it off the loop)."""

    def switch(self, name: str) -> None:
        """Check profile `name` and switch to it."""


class PaletteServices(Protocol):
    """What the palette needs of the app, handed to it by the app (never looked up)."""

    @property
    def keymap(self) -> Mapping[str, str]:
        """The keys remapped, by binding id (read as the palette opens: a profile switch
        changes it)."""

    @property
    def profile_switch(self) -> ProfileSwitch:
        """Switching profiles."""


def palette_help(key: KeyHelp) -> str:
    """The palette's line under an action: what it does and its keys."""
    return f"{key.tooltip or key.description} ({key.keys})"


def highlight(matcher: Matcher, text: str) -> Content:
    """`text` as literal content with the matched letters styled (never parsed as markup)."""
    content = Content(text)
    _score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets:
        content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def screen_choices(screen: Screen[object], keymap: Mapping[str, str]) -> list[Choice]:
    """One entry per binding (with a description) of the screen in front."""
    return [
        (key.description, partial(screen.run_action, key.action), palette_help(key))
        for key in key_help(declared_bindings(screen, package=OURS), keymap)
    ]


class AppCommands(Provider):
    """Every entry of the palette; `services` is bound by `palette_commands`."""

    services: ClassVar[PaletteServices]
    _targets: tuple[str, ...] = ()

    async def startup(self) -> None:
        """Read the profiles one can switch to once, as the palette opens (off the loop)."""
        self._targets = await asyncio.to_thread(self.services.profile_switch.targets)

    def _choices(self) -> list[Choice]:
        screen, app, services = self.screen, self.app, self.services
        keymap = services.keymap
        choices = screen_choices(screen, keymap)
        for key in key_help(APP_KEYS, keymap):
            title = APP_TITLES.get(key.binding_id, key.description)
            choices.append((title, partial(app.run_action, key.action), palette_help(key)))
        choices.append(("Theme", partial(app.run_action, "change_theme"), THEME_HELP))
        switch = services.profile_switch
        choices += [
            (f"Switch to {clean(name)}", partial(switch.switch, name), SWITCH_HELP)
            for name in self._targets
        ]
        if isinstance(screen, MainScreen):
            choices += project_choices(screen)
        return choices

    async def discover(self) -> Hits:
        """Every action, before anything is typed."""
        for title, callback, help_text in self._choices():
            yield DiscoveryHit(Content(title), callback, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        """Actions and projects matching `query`."""
        matcher = self.matcher(query)
        for title, callback, help_text in self._choices():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, highlight(matcher, title), callback, text=title, help=help_text)


def palette_commands(services: PaletteServices) -> type[AppCommands]:
    """The palette's provider class with `services` bound into it (Textual constructs the
    provider from the class as the palette opens)."""

    class BoundCommands(AppCommands):
        """The palette's entries for one app."""

    BoundCommands.services = services
    return BoundCommands


def project_choices(screen: MainScreen) -> list[Choice]:
    """ "Show all projects" and "Show project: NAME" for each project listed."""
    choices: list[Choice] = [
        ("Show all projects", partial(screen.choose_project, None), "All projects")
    ]
    for project_id in screen.sidebar.project_ids:
        known = screen.sidebar.entry(project_id)
        named = known.project.name if known and known.project else project_id
        name = clean(named, limit=DISPLAY_LIMIT)
        choices.append(
            ("Show project: " + name, partial(screen.choose_project, project_id), "Project")
        )
    return choices

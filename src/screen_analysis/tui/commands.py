"""The command palette (Ctrl+P): the main screen's bindings (remapped keys shown), the
projects listed, and "Switch to NAME" for every other profile in the config."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content

from screen_analysis.safe_text import clean
from screen_analysis.tui.keys import KeyHelp, key_help
from screen_analysis.tui.screens.main import MainScreen

SWITCH_HELP = "Profile: checked before switching"


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


class MainCommands(Provider):
    """Actions of the main screen and "Show project: …" for each project listed."""

    _targets: tuple[str, ...] = ()

    async def startup(self) -> None:
        """Read the profiles one can switch to once, as the palette opens (off the loop)."""
        switch = getattr(self.app, "profile_switch", None)
        if switch is not None and isinstance(self.screen, MainScreen):
            self._targets = await asyncio.to_thread(switch.targets)

    def _choices(self) -> list[tuple[str, Callable[[], object], str]]:
        screen = self.screen
        if not isinstance(screen, MainScreen):
            return []
        keymap = getattr(self.app, "keymap", {})
        choices: list[tuple[str, Callable[[], object], str]] = [
            (key.description, partial(screen.run_action, key.action), palette_help(key))
            for key in key_help(type(screen).BINDINGS, keymap)
        ]
        switch = getattr(self.app, "profile_switch", None)
        if switch is not None:
            choices += [
                (f"Switch to {clean(name)}", partial(switch.switch, name), SWITCH_HELP)
                for name in self._targets
            ]
        choices.append(("Show all projects", partial(screen.choose_project, None), "All projects"))
        for project_id in screen.sidebar.project_ids:
            known = screen.sidebar.entry(project_id)
            name = clean(known.project.name) if known and known.project else clean(project_id)
            choices.append(
                ("Show project: " + name, partial(screen.choose_project, project_id), "Project")
            )
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

"""Choosing a theme in the command palette, with a live preview of the highlighted one."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import Command, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.widgets import OptionList


class ThemeChoices(Provider):
    """Every theme the app knows, by name; choosing one keeps it."""

    _picker: ThemePicker | None = None

    async def startup(self) -> None:
        """Find the picker this provider serves (the screen on top while it opens)."""
        top = self.app.screen_stack[-1] if self.app.screen_stack else None
        self._picker = top if isinstance(top, ThemePicker) else None

    def _names(self) -> list[str]:
        return sorted(self.app.available_themes)

    def _choose(self, name: str) -> None:
        if self._picker is not None:
            self._picker.chosen = True
        self.app.theme = name

    def _hit_help(self, name: str) -> str:
        return "current theme" if name == self.app.theme else "theme"

    async def discover(self) -> Hits:
        """All themes, before anything is typed."""
        for name in self._names():
            yield DiscoveryHit(
                Content(name), partial(self._choose, name), text=name, help=self._hit_help(name)
            )

    async def search(self, query: str) -> Hits:
        """Themes whose name matches `query`."""
        matcher = self.matcher(query)
        for name in self._names():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self._choose, name), text=name)


class ThemePicker(CommandPalette):
    """A command palette of themes: the highlighted theme is applied at once as a preview;
    Enter keeps it, Esc (or a click outside) goes back to the theme in use before."""

    def __init__(self, on_chosen: Callable[[str], object] | None = None) -> None:
        """List the app's themes; `on_chosen` is told the theme kept (not the previews)."""
        super().__init__(providers=[ThemeChoices], placeholder="Search for themes…")
        self.chosen = False
        self._original: str | None = None
        self._on_chosen = on_chosen

    def on_mount(self) -> None:
        """Remember the theme to go back to."""
        self._original = self.app.theme

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Preview the highlighted theme."""
        option = event.option
        if isinstance(option, Command) and option.hit.text in self.app.available_themes:
            self.app.theme = option.hit.text

    def on_unmount(self) -> None:
        """Unless a theme was chosen, restore the original once the chosen command has run."""
        self.app.call_later(self._restore_unless_chosen)

    def _restore_unless_chosen(self) -> None:
        # Choosing runs the hit's command via call_later before this, setting `chosen`.
        original = self._original
        if self.chosen:
            if self._on_chosen is not None:
                self._on_chosen(self.app.theme)
        elif original is not None and original in self.app.available_themes:
            self.app.theme = original

"""The app's header line: our mark, the title and what the app is connected to.

Read from the screen (and the app) each time it is drawn; it watches only its own screen's
titles, never the app's, so a screen that is left takes its header with it. (Textual's
`Header` watches the app's title, and the app keeps every header that ever watched until
the title changes.)
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

MARK = "◧"  # a screen in two panes: the app's mark, readable without colour


class AppHeader(Widget):
    """One line: the mark, the screen's title and its sub-title (the profile or server)."""

    COMPONENT_CLASSES = {"app-header--mark", "app-header--sub-title"}  # noqa: RUF012

    DEFAULT_CSS = """
    AppHeader {
        dock: top;
        height: 1;
        width: 1fr;
        background: $panel;
        color: $foreground;
        text-style: bold;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .app-header--mark { color: $accent; }
        & > .app-header--sub-title { color: $foreground-muted; text-style: none; }
    }
    """

    def on_mount(self) -> None:
        """Draw again when the screen's titles change (the screen goes with the header)."""
        self.watch(self.screen, "title", self._retitled, init=False)
        self.watch(self.screen, "sub_title", self._retitled, init=False)

    def _retitled(self) -> None:
        self.refresh()

    def render(self) -> Content:
        """ " ◧ screen-analysis · demo"."""
        screen = self.screen
        title = screen.title or self.app.title
        sub_title = screen.sub_title or self.app.sub_title
        mark = Content.styled(MARK, self.get_visual_style("app-header--mark"))
        line = Content(" ") + mark + Content(" " + title)
        if sub_title:
            style = self.get_visual_style("app-header--sub-title")
            line += Content(" · ") + Content.styled(sub_title, style)
        return line

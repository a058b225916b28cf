"""The saved views as tabs above the table: one line of their names, the one shown marked;
a click posts `Chosen`, the keys (`[`, `]`: remappable) are the screen's. Hidden when the
config names no view, so the screen is as it was without them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.safe_text import clean

SEPARATOR = "·"
HEAD = "Views"


class ViewTabs(Widget):
    """The names of the saved views, the current one marked (None: no view is shown)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"view-tabs--active", "view-tabs--separator"}

    DEFAULT_CSS = """
    ViewTabs {
        height: 1;
        text-wrap: nowrap;
        text-overflow: clip;
        background: $panel;
        color: $foreground-muted;
        display: none;
        &.-some { display: block; }
        & > .view-tabs--active { background: $accent; color: $text; text-style: bold; }
        & > .view-tabs--separator { color: $foreground-disabled; }
    }
    """

    names: reactive[tuple[str, ...]] = reactive(tuple, layout=True)
    """The views, in the config's order."""
    current: reactive[str | None] = reactive(None)
    """The view shown (None: the table shows no saved view)."""

    class Chosen(Message):
        """The user clicked a view's tab."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, names: Sequence[str] = (), *, id: str | None = None) -> None:
        """Tabs for `names`."""
        super().__init__(id=id)
        self.set_reactive(ViewTabs.names, tuple(names))
        self.set_class(bool(names), "-some")
        self._spans: list[tuple[int, int, str]] = []

    def watch_names(self, names: tuple[str, ...]) -> None:
        """Shown only when some view exists."""
        self.set_class(bool(names), "-some")

    def render(self) -> Content:
        """ "Views  checkout · contrast · lumen", the current one marked."""
        active = self.get_visual_style("view-tabs--active")
        separator = Content.styled(SEPARATOR, self.get_visual_style("view-tabs--separator"))
        head = f" {HEAD} "
        parts: list[Content] = [Content(head)]
        self._spans = []
        x = cell_len(head)
        for index, name in enumerate(self.names):
            if index:
                parts.append(separator)
                x += cell_len(SEPARATOR)
            chip = f" {clean(name)} "  # the user's text, never markup: Content is literal
            parts.append(Content.styled(chip, active) if name == self.current else Content(chip))
            self._spans.append((x, x + cell_len(chip), name))
            x += cell_len(chip)
        return Content("").join(parts)

    def on_click(self, event: events.Click) -> None:
        """A click on a tab chooses its view."""
        for start, end, name in self._spans:
            if start <= event.x < end:
                event.stop()
                self.post_message(self.Chosen(name))
                return

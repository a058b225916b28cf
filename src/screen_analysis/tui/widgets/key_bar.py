"""The key bar: the keys that work where the focus is, in one line at the bottom.

Read from the screen's active bindings (keys are data: a `[keymap]` remap shows here as it
does in help and the palette), one entry per action, disabled keys dimmed, the palette key
at the right. A click on an entry presses its key.

One widget that repaints when the bindings change. Textual's `Footer` mounts a widget per
key and builds them all again on every focus change; at start-up that cost more than
painting the first rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, NamedTuple

from textual.app import RenderResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.style import Style
from textual.widget import Widget

MORE = "…"


class KeyEntry(NamedTuple):
    """One key as the bar shows it."""

    key: str  # what pressing it sends (the binding's first key)
    display: str  # as shown: "q", "^p", "⏎"
    description: str
    enabled: bool


class KeyBar(Widget, can_focus=False):
    """The active bindings as `key description` pairs; the palette key docked right."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-bar--key", "key-bar--description"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        text-wrap: nowrap;
        color: $footer-foreground;
        background: $footer-background;
        & > .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def on_mount(self) -> None:
        """Repaint whenever the screen's bindings change (focus moved, a key remapped)."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen:
            self.refresh()

    def entries(self) -> tuple[list[KeyEntry], KeyEntry | None]:
        """The keys shown, in binding order (one per action), and the palette key."""
        app = self.app
        active = self.screen.active_bindings
        palette: KeyEntry | None = None
        shown: dict[str, KeyEntry] = {}
        for key, (_node, binding, enabled, _tooltip) in active.items():
            if app.ENABLE_COMMAND_PALETTE and key == app.COMMAND_PALETTE_BINDING:
                palette = _entry(app.get_key_display(binding), binding, enabled)
            elif binding.show and binding.action not in shown:
                shown[binding.action] = _entry(app.get_key_display(binding), binding, enabled)
        return list(shown.values()), palette

    def render(self) -> RenderResult:
        """As many entries as fit, then `…`; the palette key at the right edge."""
        entries, palette = self.entries()
        key_style = self.get_visual_style("key-bar--key", partial=True)
        text_style = self.get_visual_style("key-bar--description", partial=True)
        width = self.size.width
        right = _piece(palette, key_style, text_style) if palette else Content("")
        room = width - right.cell_length - (1 if right.cell_length else 0)
        left = Content("")
        pieces = list(_pieces(entries, key_style, text_style))
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            if left.cell_length + piece.cell_length + (0 if last else len(MORE)) > room:
                left += Content(MORE)
                break
            left += piece
        gap = max(0, width - left.cell_length - right.cell_length)
        return left + Content(" " * gap) + right

    def action_press(self, key: str) -> None:
        """A click on an entry: as if its key were pressed."""
        self.app.simulate_key(key)


def _entry(display: str, binding: Binding, enabled: bool) -> KeyEntry:
    key = binding.key.split(",")[0].strip()
    return KeyEntry(key, display, binding.description, enabled)


def _pieces(entries: list[KeyEntry], key_style: Style, text_style: Style) -> Iterator[Content]:
    for entry in entries:
        yield _piece(entry, key_style, text_style)


def _piece(entry: KeyEntry, key_style: Style, text_style: Style) -> Content:
    click = Style.from_meta({"@click": f"press({entry.key!r})"})
    piece = Content.assemble(
        (f" {entry.display} ", key_style + click),
        (f"{entry.description} " if entry.description else "", text_style + click),
    )
    return piece if entry.enabled else piece.stylize(Style(dim=True))

"""The key bar: the keys that work where the focus is, in one line at the bottom.

Read from the screen's active bindings (keys are data: a `[keymap]` remap shows here as it
does in help and the palette), one entry per binding id, in the order the bindings are
declared, disabled keys dimmed, help and the palette key at the right. When not every key
fits, the bar keeps the keys of the highest rank (`keys.RankedBinding`: the way back to a
pane folded out of sight, then what a demo is made of) and as many others as fit, each in
its place, ending with `…`. A click on an entry presses its key.

One widget that repaints when the bindings change. Textual's `Footer` mounts a widget per
key and builds them all again on every focus change; at start-up that cost more than
painting the first rows.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from textual.app import RenderResult
from textual.content import Content
from textual.events import Click
from textual.screen import Screen
from textual.style import Style
from textual.widget import Widget

from screen_analysis.tui.keys import (
    binding_name,
    declared_bindings,
    declared_order,
    declared_ranks,
)

MORE = "…"
RIGHT_BINDING = "help"  # its id: kept in sight at every width, beside the palette key


class KeyEntry(NamedTuple):
    """One key as the bar shows it."""

    key: str  # what pressing it sends (the binding's first key)
    display: str  # as shown: "q", "^p", "⏎"
    description: str
    enabled: bool
    name: str = ""  # the binding's id (or action)
    rank: int = 0  # when not every key fits, the higher ranks stay


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

    def __init__(self) -> None:
        """An empty bar; it fills itself from the screen's bindings."""
        super().__init__()
        self._hits: list[tuple[int, int, str]] = []  # cells [start, end) of each key

    def on_mount(self) -> None:
        """Repaint whenever the screen's bindings change (focus moved, a key remapped)."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen:
            self.refresh()

    def entries(self) -> tuple[list[KeyEntry], list[KeyEntry]]:
        """The keys shown, one per binding id (or action): the focused widget's first, then
        its containers' and the screen's and the app's, each in the order its BINDINGS
        declare them (a remapped key keeps its place); and those kept at the right edge
        whatever the width: help, then the palette."""
        app = self.app
        shown: dict[str, tuple[tuple[int, int, int], KeyEntry]] = {}
        right: dict[str, KeyEntry] = {}
        nodes: dict[int, tuple[dict[str, int], dict[str, int]]] = {}  # order, ranks
        active = self.screen.active_bindings.items()
        for index, (key, (node, binding, enabled, _tooltip)) in enumerate(active):
            name = binding_name(binding)
            display = app.get_key_display(binding)
            entry = KeyEntry(key, display, binding.description, enabled, name)
            if app.ENABLE_COMMAND_PALETTE and key == app.COMMAND_PALETTE_BINDING:
                right.setdefault("palette", entry)
            elif binding.show and name == RIGHT_BINDING:
                right.setdefault(RIGHT_BINDING, entry)
            elif binding.show and name not in shown:
                if id(node) not in nodes:
                    declared = declared_bindings(node)
                    nodes[id(node)] = declared_order(declared), declared_ranks(declared)
                order, ranks = nodes[id(node)]
                place = (list(nodes).index(id(node)), order.get(name, len(order)), index)
                shown[name] = (place, entry._replace(rank=ranks.get(name, 0)))
        ordered = [entry for _rank, entry in sorted(shown.values(), key=lambda pair: pair[0])]
        return ordered, [right[k] for k in (RIGHT_BINDING, "palette") if k in right]

    def render(self) -> RenderResult:
        """As many entries as fit, then `…`; help and the palette key at the right edge."""
        entries, kept = self.entries()
        key_style = self.get_visual_style("key-bar--key", partial=True)
        text_style = self.get_visual_style("key-bar--description", partial=True)
        width = self.size.width
        right_pieces = [_piece(entry, key_style, text_style) for entry in kept]
        right = Content("").join(right_pieces)
        room = width - right.cell_length - (1 if right.cell_length else 0)
        pieces = [_piece(entry, key_style, text_style) for entry in entries]
        chosen = _fitting(entries, [piece.cell_length for piece in pieces], room)
        left = Content("")
        hits: list[tuple[int, int, str]] = []
        for entry, piece in zip(entries, pieces, strict=True):
            if entry.name in chosen:
                hits.append((left.cell_length, left.cell_length + piece.cell_length, entry.key))
                left += piece
        if len(chosen) < len(entries):
            left += Content(MORE)
        gap = max(0, width - left.cell_length - right.cell_length)
        start = width - right.cell_length
        for entry, piece in zip(kept, right_pieces, strict=True):
            hits.append((start, start + piece.cell_length, entry.key))
            start += piece.cell_length
        self._hits = hits
        return left + Content(" " * gap) + right

    def on_click(self, event: Click) -> None:
        """A click on an entry presses its key."""
        for start, end, key in self._hits:
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(key)
                return


def _fitting(entries: list[KeyEntry], widths: list[int], room: int) -> set[str]:
    """The names of the entries shown in `room` cells: all when they fit; else, the highest
    rank first and in order within a rank, as many as fit beside a closing `…`."""
    if sum(widths) <= room:
        return {entry.name for entry in entries}
    left = room - len(MORE)
    chosen: set[str] = set()
    by_rank = sorted(zip(entries, widths, strict=True), key=lambda pair: -pair[0].rank)
    for entry, cells in by_rank:
        if cells <= left:
            chosen.add(entry.name)
            left -= cells
    return chosen


def _piece(entry: KeyEntry, key_style: Style, text_style: Style) -> Content:
    piece = Content.assemble(
        (f" {entry.display} ", key_style),
        (f"{entry.description} " if entry.description else "", text_style),
    )
    return piece if entry.enabled else piece.stylize(Style(dim=True))

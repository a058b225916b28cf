"""The sidebar's list, drawn line by line: "All projects" on one line, then each project
on two (its name, its numbers). Only the lines on screen are rendered and each entry's
lines are cached, so ten thousand projects cost what twenty do: a new order is a list of
ids, a changed entry drops its own lines, a key press draws the lines in view.

It looks and answers like Textual's `OptionList` (the same styles, keys, highlight, hover
and click), which draws from a list of every option's lines that it lays out again,
whole, on each change — a tenth of a second per change at ten thousand entries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

ALL_ID = "all"
HEAD_LINES = 1  # "All projects"
ENTRY_LINES = 2  # a project: its name, then its count and average
STRIP_CACHE_SIZE = 512  # entries' rendered lines kept (a screenful is a few dozen)

OPTION = "project-list--option"
HIGHLIGHTED = "project-list--option-highlighted"
HOVER = "project-list--option-hover"

# OptionList's own look, for these component classes.
PROJECT_LIST_CSS = """
ProjectList {
    height: auto;
    max-height: 100%;
    color: $foreground;
    overflow-x: hidden;
    border: tall $border-blurred;
    padding: 0 1;
    background: $surface;
    & > .project-list--option-highlighted {
        color: $foreground;
        background: $block-cursor-blurred-background;
        text-style: $block-cursor-blurred-text-style;
    }
    &:focus {
        border: tall $border;
        background-tint: $foreground 5%;
        & > .project-list--option-highlighted {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    & > .project-list--option-hover {
        background: $block-hover-background;
    }
}
"""


class ProjectList(ScrollView, can_focus=True):
    """ "All projects" and the projects in the order given, with a highlight moved by keys
    and the mouse; Enter or a click posts `Chosen`, a scroll or a new highlight `InView`.

    What an entry says comes from `prompt(option_id)`, asked when its lines are drawn;
    `changed(ids)` says which entries to draw again.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {OPTION, HIGHLIGHTED, HOVER}
    DEFAULT_CSS = PROJECT_LIST_CSS

    highlighted: reactive[int | None] = reactive(None, init=False)
    """The index of the highlighted entry (0: "All projects"), or None."""

    class Chosen(Message):
        """An entry was chosen (Enter or a click)."""

        def __init__(self, option_id: str) -> None:
            super().__init__()
            self.option_id = option_id

    class InView(Message):
        """Other entries came into view (a scroll) or the highlight moved."""

    def __init__(self, prompt: Callable[[str], Content], *, id: str | None = None) -> None:
        """An empty list (but for "All projects") whose entries say `prompt(option_id)`."""
        super().__init__(id=id)
        self._prompt = prompt
        self._ids: list[str] = [ALL_ID]
        self._versions: dict[str, int] = {}
        self._strips: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(STRIP_CACHE_SIZE)
        self._hover: str | None = None
        self._quiet = False  # a scroll that keeps the highlight in view after a new order
        self._resize()

    # The entries

    @property
    def option_ids(self) -> Sequence[str]:
        """ "all", then the projects' ids in order."""
        return self._ids

    @property
    def highlighted_id(self) -> str | None:
        """The id of the highlighted entry."""
        index = self.highlighted
        return None if index is None or index >= len(self._ids) else self._ids[index]

    def prompt_of(self, option_id: str) -> Content:
        """What the entry says, as it is drawn."""
        return self._prompt(option_id)

    def set_order(self, project_ids: Sequence[str]) -> None:
        """List these projects, in this order, after "All projects"; the highlight stays on
        the entry it was on, in view if it was. A new order is not the reader's doing: it
        posts no `InView` (entries that move into view are not asked for by it)."""
        kept = self.highlighted_id
        followed = kept is not None and kept in self.in_view()
        self._ids = [ALL_ID, *project_ids]
        self._resize()
        if kept is not None:
            self.set_reactive(ProjectList.highlighted, self._position(kept))
            if followed:
                self._quiet = True
                try:
                    self.scroll_to_highlight()
                finally:
                    self._quiet = False
        self.refresh()

    def changed(self, option_ids: Sequence[str]) -> None:
        """Draw these entries again (what they say changed)."""
        for option_id in option_ids:
            self._versions[option_id] = self._versions.get(option_id, 0) + 1
        shown = set(self.in_view())
        if any(option_id in shown for option_id in option_ids):
            self.refresh()

    def in_view(self) -> list[str]:
        """The ids of the entries on screen, "all" included when it is."""
        top = round(self.scroll_offset.y)
        bottom = top + max(1, self.scrollable_content_region.height)
        first = self._index_at(top)
        last = self._index_at(bottom - 1)
        return self._ids[first : min(last, len(self._ids) - 1) + 1]

    def _position(self, option_id: str) -> int | None:
        """Where `option_id` is listed (a search in C: no index to keep up to date)."""
        try:
            return self._ids.index(option_id)
        except ValueError:
            return None

    def _resize(self) -> None:
        self.virtual_size = Size(0, HEAD_LINES + ENTRY_LINES * (len(self._ids) - 1))

    # Lines

    def _index_at(self, line: int) -> int:
        """The entry drawn on `line` of the whole list."""
        return 0 if line < HEAD_LINES else 1 + (line - HEAD_LINES) // ENTRY_LINES

    def _first_line(self, index: int) -> int:
        return 0 if index == 0 else HEAD_LINES + ENTRY_LINES * (index - 1)

    def render_line(self, y: int) -> Strip:
        """Line `y` of the view: a line of the entry scrolled to it."""
        width = self.scrollable_content_region.width
        line = round(self.scroll_offset.y) + y
        index = self._index_at(line)
        if index >= len(self._ids):
            return Strip.blank(width, self.get_visual_style(OPTION).rich_style)
        strips = self._entry_strips(index, width)
        offset = line - self._first_line(index)
        if offset >= len(strips):
            return Strip.blank(width, self.get_visual_style(OPTION).rich_style)
        return strips[offset]

    def _entry_strips(self, index: int, width: int) -> list[Strip]:
        option_id = self._ids[index]
        state = HOVER if option_id == self._hover else ""
        if index == self.highlighted:
            state = HIGHLIGHTED
        key = (option_id, self._versions.get(option_id, 0), state, width, self.has_focus)
        strips = self._strips.get(key)
        if strips is None:
            style = self.get_visual_style(OPTION, state) if state else self.get_visual_style(OPTION)
            content = self._prompt(option_id)
            drawn = Visual.to_strips(self, content, width, None, style)
            meta = {"option": option_id}
            strips = [s.extend_cell_length(width, style.rich_style).apply_meta(meta) for s in drawn]
            self._strips.set(key, strips)
        return strips

    def notify_style_update(self) -> None:
        """A theme or a style changed: every entry is drawn again."""
        self._strips.clear()
        super().notify_style_update()

    # The highlight

    def watch_highlighted(self, highlighted: int | None) -> None:
        """Keep the highlighted entry in view; say what is in view now."""
        self.refresh()
        if highlighted is not None:
            self.scroll_to_highlight()
        self.post_message(self.InView())

    def scroll_to_highlight(self) -> None:
        """Scroll so that the highlighted entry shows whole."""
        index = self.highlighted
        if index is None or not self.is_mounted:
            return
        height = HEAD_LINES if index == 0 else ENTRY_LINES
        region = Region(0, self._first_line(index), max(1, self.size.width), height)
        self.scroll_to_region(region, animate=False, force=True, immediate=True)

    def on_show(self) -> None:
        """Back in sight (unfolded): the highlight is where it was."""
        self.scroll_to_highlight()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """A scroll brings other entries into view."""
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value) and not self._quiet:
            self.post_message(self.InView())

    def action_cursor_down(self) -> None:
        """Highlight the next entry (the first when none is)."""
        index = self.highlighted
        self.highlighted = 0 if index is None else min(index + 1, len(self._ids) - 1)

    def action_cursor_up(self) -> None:
        """Highlight the previous entry (the last when none is)."""
        index = self.highlighted
        self.highlighted = len(self._ids) - 1 if index is None else max(index - 1, 0)

    def action_first(self) -> None:
        """Highlight "All projects"."""
        self.highlighted = 0

    def action_last(self) -> None:
        """Highlight the last project."""
        self.highlighted = len(self._ids) - 1

    def action_page_down(self) -> None:
        """Move the highlight a screenful down."""
        self._move_page(1)

    def action_page_up(self) -> None:
        """Move the highlight a screenful up."""
        self._move_page(-1)

    def _move_page(self, direction: int) -> None:
        if self.highlighted is None:
            self.highlighted = 0 if direction < 0 else len(self._ids) - 1
            return
        lines = self.scrollable_content_region.height
        line = self._first_line(self.highlighted) + direction * lines
        last_line = self._first_line(len(self._ids) - 1)
        self.highlighted = self._index_at(min(max(line, 0), last_line))

    def action_select(self) -> None:
        """Choose the highlighted entry."""
        option_id = self.highlighted_id
        if option_id is not None:
            self.post_message(self.Chosen(option_id))

    # The mouse

    def _option_at(self, event: events.MouseEvent) -> str | None:
        option_id = event.style.meta.get("option") if event.style else None
        return option_id if isinstance(option_id, str) else None

    async def _on_click(self, event: events.Click) -> None:
        option_id = self._option_at(event)
        index = None if option_id is None else self._position(option_id)
        if index is not None:
            self.highlighted = index
            self.action_select()

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        option_id = self._option_at(event)
        if option_id != self._hover:
            self._hover = option_id
            self.refresh()

    def _on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

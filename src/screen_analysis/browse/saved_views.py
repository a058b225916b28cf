"""Saved views: the `[views.NAME]` tables of the config (a profile's own, where it has
them), each a scope, a sort and columns — read and checked here, headless.

A view that cannot be used is one line naming the view and the key ("view 'checkout':
label: bad glob 'Check[out': a '[' is not closed"); the others stay usable, so the app
says the line and keeps them, and the command line refuses it (exit 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from screen_analysis.browse.scope import SCOPE_KEYS
from screen_analysis.browse.when import ScopeError
from screen_analysis.validation import quoted

if TYPE_CHECKING:
    from screen_analysis.browse.scope_model import SavedView

MAX_VIEWS = 50  # tabs above a table; a config holding more is refused past this many


VIEW_KEYS = (*SCOPE_KEYS, "sort", "columns")


def view_error_name(name: str) -> Any:
    """How an error line names a key of view `name`: "view 'checkout': label"."""
    return lambda key: f"view {quoted(name)}: {key}"


def read_view(name: str, table: object) -> SavedView:
    """The view `table` describes; ScopeError in one line naming the view and the key."""
    if not isinstance(table, Mapping):
        raise ScopeError(f"view {quoted(name)}: expected a table ([views.{name}])")
    # The model (and pydantic) is imported with the first view read, not with the app.
    from screen_analysis.browse.scope_model import SavedView, read_model

    return read_model(SavedView, table, view_error_name(name))


class Views(NamedTuple):
    """The config's views that can be used, in the file's order, and a line for each that
    cannot."""

    views: dict[str, SavedView]
    problems: tuple[str, ...] = ()

    def get(self, name: str) -> SavedView:
        """The view `name`: its problem, or the known views, as a ScopeError."""
        if name in self.views:
            return self.views[name]
        for line in self.problems:
            if line.startswith(f"view {quoted(name)}:"):
                raise ScopeError(line)
        known = ", ".join(self.views) or "none (add a [views.NAME] table to the config)"
        raise ScopeError(f"unknown view {quoted(name)}; known views: {known}")


def read_views(tables: Mapping[str, object]) -> Views:
    """Every view of `tables` (the config's `views`), each checked on its own."""
    views: dict[str, SavedView] = {}
    problems: list[str] = []
    for name, table in list(tables.items())[:MAX_VIEWS]:
        try:
            views[str(name)] = read_view(str(name), table)
        except ScopeError as exc:
            problems.append(str(exc))
    if len(tables) > MAX_VIEWS:
        problems.append(f"views: only the first {MAX_VIEWS} of {len(tables)} are read")
    return Views(views, tuple(problems))

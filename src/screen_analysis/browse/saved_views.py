"""Saved views: the `[views.NAME]` tables of the config (a profile's own, where it has
them), each a scope, a sort and columns — read and checked here, headless.

A view that cannot be used is one line naming the view and the key ("view 'checkout':
label: bad glob 'Check[out': a '[' is not closed"); the others stay usable, so the app
says the line and keeps them, and the command line refuses it (exit 2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from screen_analysis.api.models import AnalysisStatus
from screen_analysis.browse.columns import check_column, check_sort
from screen_analysis.browse.scope import SCOPE_KEYS, check_glob, read_conditions
from screen_analysis.browse.when import ScopeError, read_when
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


def plain_names(tables: Mapping[str, object]) -> tuple[str, ...] | None:
    """The names of the views of `tables` (the config's `views`) when `read_views` surely
    takes every one of them, told without pydantic (`plain_view`): the app shows their tabs
    and reads a view when it is first shown. None when one may not be taken: then
    `read_views` reads them all at once, for the line that says why."""
    if len(tables) > MAX_VIEWS or not all(plain_view(table) for table in tables.values()):
        return None
    return tuple(str(name) for name in tables)


def plain_view(table: object) -> bool:
    """Whether `read_view` surely takes `table`, told without pydantic: a table whose keys
    are among a view's usual ones (status, label, scores, last, since/until, criteria, sort,
    columns) with values of their plain kinds, each passing the check `read_view` applies.
    False leaves it to `read_view` (a project id, a score range, anything odd)."""
    if type(table) is not dict:
        return False
    for key, value in table.items():
        check = _PLAIN_KEYS.get(key)
        try:
            if check is None or not check(value):
                return False
        except ValueError:  # the check's refusal (ScopeError among them)
            return False
    return True


_STATUSES = frozenset(status.value for status in AnalysisStatus)
_WIDEST = 2**53  # a whole score beyond this is left to pydantic's own float conversion


def _text_is(check: Callable[[str], object]) -> Callable[[object], bool]:
    return lambda value: type(value) is str and check(value) is not None


def _score(value: object) -> bool:
    if type(value) is int:
        return -_WIDEST <= value <= _WIDEST
    return type(value) is float and math.isfinite(value)


def _conditions(value: object) -> bool:
    texts = [value] if type(value) is str else value
    if type(texts) is not list or any(type(text) is not str for text in texts):
        return False
    return all(read_conditions(text) for text in texts)


def _columns(value: object) -> bool:
    if type(value) is not list or not value:
        return False
    return all(check_column(name) for name in value)


_PLAIN_KEYS: dict[str, Callable[[object], bool]] = {
    "status": lambda value: type(value) is str and value in _STATUSES,
    "label": _text_is(check_glob),
    "min_score": _score,
    "max_score": _score,
    "last": lambda value: type(value) is int and value >= 1,
    "since": _text_is(lambda text: read_when(text, option="time")),
    "until": _text_is(lambda text: read_when(text, option="time")),
    "criteria": _conditions,
    "sort": _text_is(check_sort),
    "columns": _columns,
}

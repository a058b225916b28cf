"""The saved views of the main screen (`[views.NAME]`): which one is shown, going to the
next, choosing columns, and saving what is shown as a view — written with the one config
writer (`config_saves.save_view_table`: comments kept), off the event loop.

A part the screen composes (`ViewKeys.saved`): it decides what to show and writes the
config; the screen shows it (`show_view`). A view the config cannot give is said once at
start, the others kept.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from screen_analysis.browse.columns import DEFAULT_COLUMNS, check_column
from screen_analysis.browse.order import SortOrder
from screen_analysis.browse.saved_views import plain_names, read_view, read_views
from screen_analysis.browse.views import ViewKey
from screen_analysis.browse.when import ScopeError
from screen_analysis.config import ConfigError, Settings
from screen_analysis.config_saves import save_view_table
from screen_analysis.tui.screens.main.host import ScreenServices

if TYPE_CHECKING:
    from screen_analysis.browse.scope_model import SavedView

VIEW_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def read_columns(text: str) -> tuple[str, ...]:
    """Column names from "status, score label" (commas or spaces); ValueError naming the
    first unknown one."""
    names = [name for name in re.split(r"[,\s]+", text.strip()) if name]
    if not names:
        raise ValueError("name at least one column")
    return tuple(dict.fromkeys(check_column(name) for name in names))


class SavedViews:
    """The config's views, the one shown, and the writes of new ones."""

    def __init__(self, settings: Settings, services: ScreenServices) -> None:
        """The views of `settings` (its profile's, where it has its own)."""
        self._settings = settings
        self._services = services
        # Views that surely read are read when first shown (the first frame draws their
        # tabs without pydantic); otherwise all at once, to say what is wrong at start.
        self._names = plain_names(settings.views)
        self._found = read_views(settings.views) if self._names is None else None
        self.current: str | None = None

    @property
    def views(self) -> dict[str, SavedView]:
        """The views that can be used, by name, read on first use."""
        if self._found is None:
            self._found = read_views(self._settings.views)
        return self._found.views

    @property
    def problems(self) -> tuple[str, ...]:
        """A line for each view the config cannot give."""
        return self._found.problems if self._found is not None else ()

    @property
    def names(self) -> tuple[str, ...]:
        """The views, in the config's order."""
        return tuple(self.views) if self._found is not None else self._names or ()

    def opening(self) -> str | None:
        """The view the app opens on: `--view NAME`, else none (the place decides)."""
        wanted = self._settings.view
        return wanted if wanted in self.names else None

    def say_problems(self) -> None:
        """Each view the config cannot give, in one line (the others stay)."""
        for line in self.problems:
            self._services.say(f"{line} — this view is left out", "warning")

    def step(self, step: int) -> str | None:
        """The view `step` tabs away from the one shown (None: there is none)."""
        names = self.names
        if not names:
            self._services.say("No saved views: add a [views.NAME] table to the config.")
            return None
        at = names.index(self.current) if self.current in names else (-1 if step > 0 else 0)
        return names[(at + step) % len(names)]

    def current_view(self) -> SavedView | None:
        """The view shown, if one is."""
        return self.views.get(self.current) if self.current is not None else None

    def columns_chosen(self, columns: tuple[str, ...]) -> None:
        """Columns were chosen: kept with the view shown (written to the config)."""
        view = self.current_view()
        if view is not None and self.current is not None:
            self._write(self.current, view.model_copy(update={"columns": columns}))

    def save_as(
        self,
        name: str,
        key: ViewKey,
        order: SortOrder,
        columns: tuple[str, ...] | None,
        done: Callable[[str], None],
    ) -> None:
        """Save the view shown (its scope: the saved view's, else the project and status)
        with `order` and `columns` as `[views.NAME]`; `done` gets the name once written."""
        if not VIEW_NAME.fullmatch(name):
            self._services.say(f"A view's name is letters, digits, - and _: not {name!r}", "error")
            return
        base = self.current_view()
        table = base.values() if base is not None else {}
        if base is None:
            if key.project_id is not None:
                table["project_id"] = key.project_id
            if key.status is not None:
                table["status"] = key.status.value
        table["sort"] = order.write()
        table["columns"] = list(columns) if columns is not None else None
        try:
            view = read_view(name, {k: v for k, v in table.items() if v is not None})
        except ScopeError as exc:
            self._services.say(str(exc), "error")
            return
        self._write(name, view, done)

    def _write(self, name: str, view: SavedView, done: Callable[[str], None] | None = None) -> None:
        path = self._settings.config_path

        async def write() -> None:
            try:
                profile = await asyncio.to_thread(self._profile_with_views)
                await asyncio.to_thread(save_view_table, path, profile, name, view.table())
            except (ConfigError, OSError) as exc:
                self._services.say(f"Could not save view {name!r}: {exc}", "error")
                return
            self.views[name] = view
            self._services.say(f"Saved view {name!r} in {path}.")
            if done is not None:
                done(name)

        self._services.background(write(), "save-view")

    def _profile_with_views(self) -> str | None:
        """Where views are written: the profile's own table when it defines views, else the
        top level (which every profile without views of its own shows)."""
        profile = self._settings.profile
        if profile is None:
            return None
        from screen_analysis.config import read_config_file

        try:
            data = read_config_file(self._settings.config_path)
        except ConfigError:
            return None
        table = (data.get("profiles") or {}).get(profile)
        return profile if isinstance(table, dict) and "views" in table else None


def columns_words(columns: tuple[str, ...] | None) -> str:
    """The columns as the prompt shows them."""
    return ", ".join(columns or DEFAULT_COLUMNS)


__all__ = ["SavedViews", "columns_words", "read_columns"]

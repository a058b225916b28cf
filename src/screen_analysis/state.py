"""State kept between runs in the user data dir: the projects seen before, layout choices.

Both live in one JSON file; each writes only its own key, merged under the file's lock
(`user_files.update_text`), so neither drops the other's. A damaged file reads as empty.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from screen_analysis.user_files import update_text

MAX_REMEMBERED = 200


class RememberedProjects:
    """Project ids the user has seen, newest last; read once, written on change."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._ids: list[str] = self._read()

    def _read(self) -> list[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []  # a missing or damaged state file starts empty; it is rewritten on change
        ids = data.get("projects", []) if isinstance(data, dict) else []
        return [i for i in ids if isinstance(i, str) and i][-MAX_REMEMBERED:]

    @property
    def ids(self) -> tuple[str, ...]:
        """The remembered ids, oldest first."""
        return tuple(self._ids)

    def add(self, project_id: str) -> bool:
        """Remember `project_id`; True when it was new. Saved at once."""
        if project_id in self._ids:
            return False
        self._ids = [*self._ids, project_id][-MAX_REMEMBERED:]
        self.save()
        return True

    def remove(self, project_id: str) -> None:
        """Forget `project_id`."""
        if project_id in self._ids:
            self._ids.remove(project_id)
            self.save()

    def save(self) -> None:
        """Write the ids into the state file atomically; a read-only disk is not fatal."""
        save_key(self.path, "projects", self._ids)


def _read_object(text: str | None) -> dict[str, Any]:
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def save_key(path: Path, key: str, value: Any) -> None:
    """Set one key of the state file, keeping the others; failures to write are ignored."""

    def change(text: str | None) -> str:
        return json.dumps({**_read_object(text), key: value}, indent=1)

    # A read-only disk or a held lock: the choice lasts this run only.
    with contextlib.suppress(OSError):
        update_text(path, change)


class LayoutPreferences:
    """Layout choices remembered between runs: whether the project sidebar is folded."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            text = None
        layout = _read_object(text).get("layout")
        folded = layout.get("sidebar_folded") if isinstance(layout, dict) else None
        self._sidebar_folded = folded if isinstance(folded, bool) else None

    @property
    def sidebar_folded(self) -> bool | None:
        """The user's choice, or None: none made (folded below 100 columns)."""
        return self._sidebar_folded

    def remember_sidebar(self, folded: bool) -> None:
        """Keep the choice, in memory and in the state file."""
        self._sidebar_folded = folded
        save_key(self.path, "layout", {"sidebar_folded": folded})

"""State kept between runs in the user data dir: the projects seen before."""

from __future__ import annotations

import json
import os
from pathlib import Path

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
        """Write the state file atomically; a read-only disk is not fatal."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"projects": self._ids}, indent=1), encoding="utf-8")
            tmp.replace(self.path)
        except OSError:
            pass

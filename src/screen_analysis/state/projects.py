"""The projects the user has seen on one server, kept in the state file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from screen_analysis.state.file import MAX_REMEMBERED, StateData, change_state, load_state


class RememberedProjects:
    """Project ids the user has seen on one server, newest last.

    `RememberedProjects(path)` reads the file and knows no server yet (its `ids` are
    empty); `for_server(key)` gives the view of one server's ids (see `server_key`).
    `problem` is the warning line when the file was damaged or unreadable, else None.
    """

    def __init__(self, path: Path, server: str | None = None) -> None:
        self.path = path
        self.server = server
        state, self.problem = load_state(path)
        self._ids: list[str] = state.servers.get(server, []) if server is not None else []

    def for_server(self, server: str) -> RememberedProjects:
        """The projects remembered for `server`, read from the file now."""
        return RememberedProjects(self.path, server)

    @property
    def ids(self) -> tuple[str, ...]:
        """The remembered ids, oldest first."""
        return tuple(self._ids)

    def add(self, project_id: str) -> bool:
        """Remember `project_id`; True when it was new. Saved at once, merged with the file."""
        if project_id in self._ids:
            return False
        self._ids = [*self._ids, project_id][-MAX_REMEMBERED:]
        self._change(lambda ids: [*(i for i in ids if i != project_id), project_id])
        return True

    def remove(self, project_id: str) -> None:
        """Forget `project_id`."""
        if project_id in self._ids:
            self._ids.remove(project_id)
            self._change(lambda ids: [i for i in ids if i != project_id])

    def _change(self, change: Callable[[list[str]], list[str]]) -> None:
        """Apply `change` to this server's list as the file holds it now; a file that cannot
        be read or written (a read-only disk, a directory in its place) is not fatal, and
        one that cannot be read is never overwritten."""
        if self.server is None:
            return  # no server yet: kept in memory only
        server = self.server

        def apply(state: StateData) -> StateData:
            servers = dict(state.servers)
            ids = change(servers.pop(server, []))[-MAX_REMEMBERED:]
            if ids:
                servers[server] = ids  # last: the most recently changed server
            return state._replace(servers=servers)

        try:
            after = change_state(self.path, apply)
        except (OSError, ValueError):  # ValueError: not UTF-8
            return
        if after is not None:  # else the change was not written: kept in memory
            self._ids = after.servers.get(server, [])

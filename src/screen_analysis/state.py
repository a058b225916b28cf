"""State kept between runs in the user data dir: the projects seen before, per server,
and layout choices (`LayoutPreferences`, in a file of their own).

The file is JSON, one list of project ids per server (the embedded demo server is kept
under "demo", since its address changes with every run):

    {"servers": {"https://api.example.com": ["proj_1", "proj_2"], "demo": ["proj_9"]}}

Several copies of the app may run at once (one per browser tab under `serve`), so a change
never writes back a list read earlier: each add or remove re-reads the file under its lock
and applies only that change (`user_files.update_text`). A damaged file (not JSON, the
wrong shape, not UTF-8, nested deeper than `file_reads.MAX_NESTING`) is never overwritten in
place: it is moved aside to `state.json.bad`, the entries that could be read are written
back, and one warning names both files and what was wrong. What is not a regular file (a
named pipe, a directory, a symbolic link: these files are the app's own, and a write
through a planted link would land on another file) or is over `MAX_STATE_BYTES` is neither
read nor written: one warning, and the projects are remembered for the run only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from screen_analysis.file_reads import NESTED_TOO_DEEP, RefusedFile, read_limited, too_deep
from screen_analysis.user_files import locked, update_text, write_atomic

MAX_REMEMBERED = 200  # project ids per server
MAX_SERVERS = 50  # the least recently changed give way
MAX_STATE_BYTES = 4 * 1024 * 1024  # 50 servers × 200 ids is well under 1 MiB
MAX_LAYOUT_BYTES = 64 * 1024
DEMO_SERVER = "demo"

Servers = dict[str, list[str]]


def server_key(base_url: str, *, is_demo: bool) -> str:
    """The key a server's projects are kept under: its base URL, or "demo"."""
    return DEMO_SERVER if is_demo else base_url.rstrip("/")


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return names.get(type(value), type(value).__name__)


def parse_state(text: str) -> tuple[Servers, list[str]]:
    """The servers' lists in `text`, and what was wrong with it (empty: nothing).

    Whatever has the wrong shape is left out; the rest is kept.
    """
    try:
        data: Any = json.loads(text)
    except RecursionError:
        return {}, [NESTED_TOO_DEEP]
    except ValueError as exc:
        return {}, [f"it is not valid JSON ({exc})"]
    if too_deep(data):
        return {}, [NESTED_TOO_DEEP]
    if not isinstance(data, dict):
        return {}, [f"it holds {_kind(data)} where an object was expected"]
    legacy = data.get("projects", [])  # the single list of earlier versions: not used
    if not isinstance(legacy, list):
        return {}, [f'"projects" is {_kind(legacy)} where a list was expected']
    if not all(isinstance(i, str) for i in legacy):
        return {}, ['"projects" holds something other than project ids']
    raw = data.get("servers", {})
    if not isinstance(raw, dict):
        return {}, [f'"servers" is {_kind(raw)} where an object was expected']
    servers: Servers = {}
    problems: list[str] = []
    for key, ids in raw.items():
        if not isinstance(ids, list):
            problems.append(f"the entry for {key!r} is {_kind(ids)} where a list was expected")
        elif not all(isinstance(i, str) and i for i in ids):
            problems.append(f"the list for {key!r} holds something other than project ids")
        else:
            servers[key] = list(dict.fromkeys(ids))[-MAX_REMEMBERED:]
    return servers, problems


def read_state(path: Path) -> tuple[Servers, str | None]:
    """The servers' lists in the file at `path` (absent: none), and one warning line when
    the file could not be read or had the wrong shape. Reads only: see `load_state`."""
    servers, what, _seen = _read(path)
    return servers, _warning(path, what) if what else None


def load_state(path: Path) -> tuple[Servers, str | None]:
    """As `read_state`, and a damaged file (not JSON, the wrong shape, not UTF-8) is moved
    aside to `state.json.bad` under the file's lock, the entries that could be read written
    back, so nothing the user had is lost and the file is never overwritten in place. The
    warning says where the damaged file went."""
    servers, what, seen = _read(path)
    if not what:
        return servers, None
    if seen is None:  # a directory, a file that cannot be read: left where it is
        return servers, _warning(path, what)
    return servers, _set_aside(path, seen, servers, what)


def _read(path: Path) -> tuple[Servers, str, bytes | None]:
    """The servers' lists, what was wrong (empty: nothing), and the bytes read when the
    file could be read at all."""
    try:
        data = read_limited(path, max_bytes=MAX_STATE_BYTES, follow_links=False)
    except RefusedFile as exc:
        return {}, exc.reason, None
    if data is None:
        return {}, "", None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {}, "it is not UTF-8 text", data
    servers, problems = parse_state(text)
    return servers, "; ".join(problems), data


def _set_aside(path: Path, seen: bytes, servers: Servers, what: str) -> str:
    """Move the damaged file to `<name>.bad` (unless another process changed it since it
    was read), write back what could be read; the warning line saying so."""
    bad = path.with_name(path.name + ".bad")
    try:
        with locked(path):
            try:
                current = read_limited(path, max_bytes=MAX_STATE_BYTES, follow_links=False)
            except RefusedFile:
                current = None
            if current != seen:  # repaired or moved aside by another copy of the app
                return _warning(path, what)
            os.replace(path, bad)
            if servers:
                write_atomic(path, _dump(servers), follow_links=False)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return (
            f"The state file {path} was not used: {what}. It could not be moved aside "
            f"({reason}), so projects added now are not remembered."
        )
    kept = "the entries that could be read are kept" if servers else "nothing is remembered"
    return f"The state file {path} was damaged: {what}. It was moved to {bad}; {kept}."


def _warning(path: Path, what: str) -> str:
    """The line for a file that was not used and not moved."""
    return f"The state file {path} was not used: {what}. Remembered projects start empty."


def _dump(servers: Servers) -> str:
    kept = dict(list(servers.items())[-MAX_SERVERS:])
    return json.dumps({"servers": kept}, indent=1) + "\n"


class RememberedProjects:
    """Project ids the user has seen on one server, newest last.

    `RememberedProjects(path)` reads the file and knows no server yet (its `ids` are
    empty); `for_server(key)` gives the view of one server's ids (see `server_key`).
    `problem` is the warning line when the file was damaged or unreadable, else None.
    """

    def __init__(self, path: Path, server: str | None = None) -> None:
        self.path = path
        self.server = server
        servers, self.problem = load_state(path)
        self._ids: list[str] = servers.get(server, []) if server is not None else []

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

        def apply(text: str | None) -> str | None:
            servers, problems = parse_state(text) if text is not None else ({}, [])
            if problems:
                return None  # damaged since it was read: never overwritten in place
            ids = change(servers.pop(server, []))[-MAX_REMEMBERED:]
            if ids:
                servers[server] = ids  # last: the most recently changed server
            return _dump(servers)

        try:
            after = update_text(self.path, apply, follow_links=False)
        except (OSError, ValueError):  # ValueError: not UTF-8
            return
        if after is not None:
            servers, problems = parse_state(after)
            if not problems:  # else the change was not written: kept in memory
                self._ids = servers.get(server, [])


class LayoutPreferences:
    """Layout choices remembered between runs: whether the project sidebar is folded, and
    the share of the screen the detail pane takes.

    Kept in `layout.json` beside the state file (`{"sidebar_folded": true,
    "detail_width": 40}`), written atomically under its lock, each change merged into the
    file as it is then; a damaged or unreadable file means no choice was made.
    """

    def __init__(self, state_path: Path) -> None:
        self.path = state_path.with_name("layout.json")
        data = self._read()
        folded = data.get("sidebar_folded")
        self._sidebar_folded = folded if isinstance(folded, bool) else None
        width = data.get("detail_width")
        valid = isinstance(width, int) and not isinstance(width, bool) and 10 <= width <= 90
        self._detail_width = width if valid else None

    def _read(self) -> dict[str, Any]:
        try:
            raw = read_limited(self.path, max_bytes=MAX_LAYOUT_BYTES, follow_links=False)
            data = json.loads(raw or b"{}")
        except (RefusedFile, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) and not too_deep(data) else {}

    @property
    def sidebar_folded(self) -> bool | None:
        """The user's choice, or None: none made (folded below 130 columns)."""
        return self._sidebar_folded

    @property
    def detail_width(self) -> int | None:
        """The detail pane's share of the screen in percent, or None: none chosen."""
        return self._detail_width

    def remember_sidebar(self, folded: bool) -> None:
        """Keep the choice in memory and in the file; a file that cannot be written is not
        fatal (the choice lasts this run)."""
        self._sidebar_folded = folded
        self._remember("sidebar_folded", folded)

    def remember_detail_width(self, percent: int) -> None:
        """Keep the detail pane's share (percent) in memory and in the file."""
        self._detail_width = percent
        self._remember("detail_width", percent)

    def _remember(self, key: str, value: object) -> None:
        def apply(text: str | None) -> str:
            try:
                data = json.loads(text) if text else {}
            except (ValueError, RecursionError):
                data = {}
            data = data if isinstance(data, dict) and not too_deep(data) else {}
            return json.dumps({**data, key: value}, indent=1) + "\n"

        try:
            update_text(self.path, apply, follow_links=False)
        except (OSError, ValueError):  # ValueError: not UTF-8
            return

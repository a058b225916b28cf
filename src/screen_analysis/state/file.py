"""The state file itself: its shape, reading it defensively, setting a damaged one aside,
and changing it under its lock (see the package for the format)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from screen_analysis.file_reads import NESTED_TOO_DEEP, RefusedFile, read_limited, too_deep
from screen_analysis.user_files import locked, update_text, write_atomic

MAX_REMEMBERED = 200  # project ids per server
MAX_SERVERS = 50  # the least recently changed give way
MAX_PROFILES = 20  # places per server
MAX_ID_CHARS = 200  # a place's ids: longer is not an id
PLACE_FIELDS = ("project", "status", "analysis")
MAX_STATE_BYTES = 4 * 1024 * 1024  # 50 servers × 200 ids is well under 1 MiB
DEMO_SERVER = "demo"

Servers = dict[str, list[str]]
PlaceEntry = dict[str, str | None]  # PLACE_FIELDS to an id, a status, or None
Places = dict[str, dict[str, PlaceEntry]]  # server -> profile ("" for none) -> place


class StateData(NamedTuple):
    """What the state file holds: project ids per server, places per server and profile."""

    servers: Servers
    places: Places


def server_key(base_url: str, *, is_demo: bool) -> str:
    """The key a server's entries are kept under: its base URL, or "demo"."""
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


def parse_state(text: str) -> tuple[StateData, list[str]]:
    """What `text` holds, and what was wrong with it (empty: nothing).

    Whatever has the wrong shape is left out; the rest is kept.
    """
    empty = StateData({}, {})
    try:
        data: Any = json.loads(text)
    except RecursionError:
        return empty, [NESTED_TOO_DEEP]
    except ValueError as exc:
        return empty, [f"it is not valid JSON ({exc})"]
    if too_deep(data):
        return empty, [NESTED_TOO_DEEP]
    if not isinstance(data, dict):
        return empty, [f"it holds {_kind(data)} where an object was expected"]
    legacy = data.get("projects", [])  # the single list of earlier versions: not used
    if not isinstance(legacy, list):
        return empty, [f'"projects" is {_kind(legacy)} where a list was expected']
    if not all(isinstance(i, str) for i in legacy):
        return empty, ['"projects" holds something other than project ids']
    raw = data.get("servers", {})
    if not isinstance(raw, dict):
        return empty, [f'"servers" is {_kind(raw)} where an object was expected']
    servers: Servers = {}
    problems: list[str] = []
    for key, ids in raw.items():
        if not isinstance(ids, list):
            problems.append(f"the entry for {key!r} is {_kind(ids)} where a list was expected")
        elif not all(isinstance(i, str) and i for i in ids):
            problems.append(f"the list for {key!r} holds something other than project ids")
        else:
            servers[key] = list(dict.fromkeys(ids))[-MAX_REMEMBERED:]
    places = _parse_places(data.get("places", {}), problems)
    return StateData(servers, places), problems


def _parse_places(raw: object, problems: list[str]) -> Places:
    """The places that have the right shape; a line in `problems` for each that has not."""
    if not isinstance(raw, dict):
        problems.append(f'"places" is {_kind(raw)} where an object was expected')
        return {}
    places: Places = {}
    for server, profiles in raw.items():
        if not isinstance(profiles, dict):
            problems.append(f"the places of {server!r} are {_kind(profiles)}, not an object")
            continue
        kept: dict[str, PlaceEntry] = {}
        for profile, entry in list(profiles.items())[-MAX_PROFILES:]:
            if _sound_place(entry):
                kept[profile] = {field: entry.get(field) for field in PLACE_FIELDS}
            else:
                problems.append(f"the place for {server!r} ({profile or 'no profile'}) is odd")
        if kept:
            places[server] = kept
    return places


def _sound_place(entry: object) -> bool:
    """Whether `entry` is an object of PLACE_FIELDS, each a short string or null."""
    if not isinstance(entry, dict) or not set(entry) <= set(PLACE_FIELDS):
        return False
    values = entry.values()
    return all(v is None or (isinstance(v, str) and 0 < len(v) <= MAX_ID_CHARS) for v in values)


def read_state(path: Path) -> tuple[StateData, str | None]:
    """What the file at `path` holds (absent: nothing), and one warning line when the file
    could not be read or had the wrong shape. Reads only: see `load_state`."""
    state, what, _seen = _read(path)
    return state, _warning(path, what) if what else None


def load_state(path: Path) -> tuple[StateData, str | None]:
    """As `read_state`, and a damaged file (not JSON, the wrong shape, not UTF-8) is moved
    aside to `state.json.bad` under the file's lock, the entries that could be read written
    back, so nothing the user had is lost and the file is never overwritten in place. The
    warning says where the damaged file went."""
    state, what, seen = _read(path)
    if not what:
        return state, None
    if seen is None:  # a directory, a file that cannot be read: left where it is
        return state, _warning(path, what)
    return state, _set_aside(path, seen, state, what)


def change_state(path: Path, change: Callable[[StateData], StateData]) -> StateData | None:
    """Apply `change` to what the file holds now, under its lock, and write the result;
    what was written, or None when the file was damaged since it was read (never
    overwritten in place). OSError or ValueError (not UTF-8) when it cannot be read or
    written."""

    def apply(text: str | None) -> str | None:
        state, problems = parse_state(text) if text is not None else (StateData({}, {}), [])
        if problems:
            return None
        return dump_state(change(state))

    after = update_text(path, apply, follow_links=False)
    if after is None:
        return None
    state, problems = parse_state(after)
    return None if problems else state


def _read(path: Path) -> tuple[StateData, str, bytes | None]:
    """What the file holds, what was wrong (empty: nothing), and the bytes read when the
    file could be read at all."""
    empty = StateData({}, {})
    try:
        data = read_limited(path, max_bytes=MAX_STATE_BYTES, follow_links=False)
    except RefusedFile as exc:
        return empty, exc.reason, None
    if data is None:
        return empty, "", None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return empty, "it is not UTF-8 text", data
    state, problems = parse_state(text)
    return state, "; ".join(problems), data


def _set_aside(path: Path, seen: bytes, state: StateData, what: str) -> str:
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
            if state.servers or state.places:
                write_atomic(path, dump_state(state), follow_links=False)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return (
            f"The state file {path} was not used: {what}. It could not be moved aside "
            f"({reason}), so projects added now are not remembered."
        )
    kept = "nothing is remembered"
    if state.servers or state.places:
        kept = "the entries that could be read are kept"
    return f"The state file {path} was damaged: {what}. It was moved to {bad}; {kept}."


def _warning(path: Path, what: str) -> str:
    """The line for a file that was not used and not moved."""
    return f"The state file {path} was not used: {what}. Remembered projects start empty."


def dump_state(state: StateData) -> str:
    """The file's text: the most recently changed servers last, the oldest left out."""
    data: dict[str, Any] = {"servers": dict(list(state.servers.items())[-MAX_SERVERS:])}
    if state.places:
        data["places"] = dict(list(state.places.items())[-MAX_SERVERS:])
    return json.dumps(data, indent=1) + "\n"

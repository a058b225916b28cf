"""The analyses watched in the app, kept between runs per server in a file of their own
beside the state file (`watches.json`), so a watch outlives a restart; a finished one is
dropped. Read as untrusted input (a damaged or odd file means nothing is watched, one
line says so; an entry of the wrong shape is left out), bounded, changed under its lock.

    {"servers": {"demo": [["ana_1", "pending", null], ["ana_2", "processing", "c2"]]}}

Each entry: the analysis id, the status it was last seen in, and the cursor of the page it
was last found on (`browse.watch`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from screen_analysis.file_reads import RefusedFile, read_limited, too_deep
from screen_analysis.state.file import MAX_ID_CHARS, MAX_SERVERS
from screen_analysis.user_files import update_text

MAX_WATCHED = 1000  # per server
MAX_CURSOR_CHARS = 2000
MAX_WATCHES_BYTES = 4 * 1024 * 1024
Entry = tuple[str, str | None, str | None]


def _entry(raw: object) -> Entry | None:
    """An entry of the right shape, or None."""
    if not isinstance(raw, list) or len(raw) != 3:
        return None
    key, status, spot = raw
    if not isinstance(key, str) or not 0 < len(key) <= MAX_ID_CHARS:
        return None
    if status is not None and (not isinstance(status, str) or len(status) > MAX_ID_CHARS):
        return None
    if spot is not None and (not isinstance(spot, str) or len(spot) > MAX_CURSOR_CHARS):
        return None
    return key, status, spot


def _parse(text: str | None) -> tuple[dict[str, list[Entry]], str]:
    """The entries per server, and what was wrong ("" : nothing)."""
    if not text:
        return {}, ""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        return {}, "it is not valid JSON"
    if not isinstance(data, dict) or too_deep(data):
        return {}, "it does not hold an object"
    servers = data.get("servers", {})
    if not isinstance(servers, dict):
        return {}, '"servers" is not an object'
    found: dict[str, list[Entry]] = {}
    odd = 0
    for server, entries in list(servers.items())[-MAX_SERVERS:]:
        if not isinstance(entries, list):
            odd += 1
            continue
        kept = [e for e in map(_entry, entries[-MAX_WATCHED:]) if e is not None]
        odd += min(len(entries), MAX_WATCHED) - len(kept)
        found[server] = kept
    return found, (f"{odd} odd entries left out" if odd else "")


class WatchedFile:
    """The watches of one server (`server`: `state.server_key`), in `watches.json`."""

    def __init__(self, state_path: Path, server: str) -> None:
        self.path = state_path.with_name("watches.json")
        self.server = server
        self.problem = ""

    def read(self) -> list[Entry]:
        """This server's watches; a file that cannot be read is none (`problem` says why)."""
        try:
            raw = read_limited(self.path, max_bytes=MAX_WATCHES_BYTES, follow_links=False)
        except RefusedFile as exc:
            self.problem = f"The watches file {self.path} was not used: {exc.reason}."
            return []
        try:
            text = raw.decode("utf-8") if raw is not None else None
        except UnicodeDecodeError:
            text = "\x00"
        found, what = _parse(text)
        if what:
            self.problem = f"The watches file {self.path}: {what}."
        return found.get(self.server, [])

    def write(self, entries: list[Entry]) -> bool:
        """Keep `entries` as this server's watches (merged under the file's lock with what
        other copies of the app keep for other servers); False when it cannot be written
        (the watches then last this run)."""
        server = self.server

        def apply(text: str | None) -> str:
            servers, _what = _parse(text)
            servers.pop(server, None)
            if entries:
                servers[server] = entries[-MAX_WATCHED:]
            kept = dict(list(servers.items())[-MAX_SERVERS:])
            return json.dumps({"servers": kept}, indent=1) + "\n"

        try:
            update_text(self.path, apply, follow_links=False)
        except (OSError, ValueError):
            return False
        return True

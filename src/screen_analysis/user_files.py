"""Files the user owns (config, state, caches): written atomically, changed under a lock.

One mechanism for every such file: `update_text` takes an inter-process lock beside the
file, reads what is there *now*, applies the caller's change and replaces the file through a
temp file with a unique name, so two processes changing the same file at once both keep
their change and a reader never sees half a file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

LOCK_TIMEOUT_S = 10.0


class UserFileError(OSError):
    """A user file could not be changed (locked for too long, or not writable)."""


def lock_path(path: Path) -> Path:
    """The lock file that guards `path` (a hidden sibling)."""
    return path.with_name(f".{path.name}.lock")


def write_atomic(path: Path, text: str | bytes, *, mode: int | None = None) -> None:
    """Replace `path` with `text` (or bytes) through a uniquely named temp file in the same
    folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            tmp.chmod(mode)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_text(path: Path) -> str | None:
    """The file's text, or None when it does not exist."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def update_text(
    path: Path,
    change: Callable[[str | None], str | None],
    *,
    timeout_s: float = LOCK_TIMEOUT_S,
    mode: int | None = None,
) -> str | None:
    """Under the file's lock: read it (None: absent), apply `change`, write the result.

    `change` returning None leaves the file as it is. Returns what the file holds after.
    Raises `UserFileError` when the lock is not had within `timeout_s`, and the OSError of a
    read or write that failed.
    """
    from filelock import FileLock, Timeout  # a save needs it; start-up does not

    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(lock_path(path), timeout=timeout_s):
            before = read_text(path)
            after = change(before)
            if after is not None and after != before:
                write_atomic(path, after, mode=mode)
                return after
            return before
    except Timeout as exc:
        raise UserFileError(f"{path} is locked by another process; try again") from exc

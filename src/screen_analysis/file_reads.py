"""Reading a file from outside the process as untrusted input: the config, the state and
layout files, a baseline, any file about to be changed. One opener, a size limit per kind
of file, one nesting limit for what it holds.

- `read_limited(path, max_bytes=…)`: the file's bytes, None when there is none. A named
  pipe, a socket, a device or a directory is refused by what `fstat` says of it, after an
  open that never waits (a pipe without a writer would block a plain read for ever). A
  symbolic link is followed to a regular file (dotfile managers link config files), or,
  with `follow_links=False` (the app's own files), refused. A link that leads nowhere is
  refused by name rather than taken for "no file".
- `too_deep(value)`: whether parsed JSON or TOML nests deeper than `MAX_NESTING` levels
  (our files need four). A parser that recursed out (RecursionError) means the same.

A refusal is `RefusedFile`, whose `reason` is a few words without the path ("it is a named
pipe (FIFO), not a regular file"); each caller puts it in its own line.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

MAX_NESTING = 32  # levels of arrays and tables/objects in any file we read
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
NESTED_TOO_DEEP = f"it is nested more than {MAX_NESTING} levels deep"

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISLNK, "a symbolic link"),
)


class RefusedFile(Exception):
    """A file that is not read: `reason` says why, in words without the path."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def kind_of(mode: int) -> str:
    """What a file of `mode` (from `stat`/`lstat`) is, in words: "a named pipe (FIFO)"."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def size_words(count: int) -> str:
    """ "1 MiB", "64 KiB", "300 bytes"."""
    for unit, size in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count} bytes"


def read_limited(
    path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES, follow_links: bool = True
) -> bytes | None:
    """The bytes of the regular file at `path` (at most `max_bytes`), or None when nothing
    is there; `RefusedFile` for anything else (see the module)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        if path.is_symlink():
            raise RefusedFile("it is a symbolic link, which is not followed")
        flags |= getattr(os, "O_NOFOLLOW", 0)  # a link made since the check: ELOOP
    try:
        handle = os.open(path, flags)
    except FileNotFoundError:
        if path.is_symlink():
            target = os.readlink(path)
            raise RefusedFile(f"it is a symbolic link to {target}, which does not exist") from None
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            words = "it is a symbolic link, which is not followed"
            raise RefusedFile(words if not follow_links else "its symbolic links loop") from None
        raise RefusedFile(f"it cannot be read ({exc.strerror or exc})") from None
    try:
        return _read_regular(handle, max_bytes)
    finally:
        os.close(handle)


def _read_regular(handle: int, max_bytes: int) -> bytes:
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise RefusedFile(f"it is {kind_of(mode)}, not a regular file")
        os.set_blocking(handle, True)
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(handle, min(1024 * 1024, max_bytes + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:  # a size `fstat` did not tell (/proc, a growing file)
                raise RefusedFile(f"it is larger than {size_words(max_bytes)}")
    except OSError as exc:
        raise RefusedFile(f"it cannot be read ({exc.strerror or exc})") from None
    return b"".join(chunks)


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether `value` (parsed JSON or TOML) holds lists and dicts nested deeper than
    `limit` levels; walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, dict | list):
            continue
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children)
    return False

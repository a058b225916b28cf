"""Where the cache lives on disk, and what may stand in its place.

One SQLite file per user in the platform cache dir (`cache.sqlite3`, with its `-wal` and
`-shm` files), mode 0600 in a 0700 folder. Whatever is found in one of those three places
that is not a regular file — a symbolic link above all, which SQLite would follow and
switch another program's database to WAL mode, or a named pipe, a folder, a device — is
refused before SQLite opens anything: the cache is off for the run, with one line that
says what is there, and nothing is moved. (A link on a folder above, e.g. ~/.cache on
another disk, is the user's choice and is followed.)

A database that is damaged or of another version is moved aside whole (`set_aside`), so
the next open starts a fresh one; a folder where that cannot be done is `CacheUnusable`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import platformdirs

from screen_analysis.file_reads import kind_of

FILE_NAME = "cache.sqlite3"
FILE_SUFFIXES = ("", "-wal", "-shm")  # the database and its WAL files: one cache on disk


class CacheUnusable(Exception):
    """The cache cannot be used in this run (locked by another program, a disk or folder
    that refuses it, something else in its place); the message is one line for the user."""


def default_cache_path() -> Path:
    """`cache.sqlite3` in the user cache dir (e.g. ~/.cache/screen-analysis)."""
    root = platformdirs.user_cache_dir("screen-analysis", appauthor=False)
    return Path(root) / FILE_NAME


def cache_files(path: Path) -> list[Path]:
    """The database at `path` and its WAL files (whether or not they exist)."""
    return [path.with_name(path.name + suffix) for suffix in FILE_SUFFIXES]


def check_place(path: Path) -> None:
    """CacheUnusable when one of the cache's files is there and is not a regular file."""
    for file in cache_files(path):
        try:
            mode = os.lstat(file).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise CacheUnusable(f"the cache {file} cannot be used: {exc.strerror or exc}") from exc
        if stat.S_ISLNK(mode):
            raise CacheUnusable(f"the cache {file} is a symbolic link, which is not followed")
        if not stat.S_ISREG(mode):
            raise CacheUnusable(f"the cache {file} is {kind_of(mode)}, not a regular file")


def create_private(path: Path) -> None:
    """Make the file (and its folder) readable by the user only, before SQLite opens it;
    never through a link, never waiting on a pipe."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    flags = os.O_CREAT | os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    descriptor = os.open(path, flags, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # appeared since `check_place`
            raise CacheUnusable(f"the cache {path} is not a regular file")
        os.fchmod(descriptor, 0o600)
    finally:
        os.close(descriptor)


def set_aside(path: Path, why: str) -> str:
    """Move a damaged or foreign database (and its WAL files) out of the way, so the next
    open starts a fresh one; the one warning line that says so (`why`: "it is damaged …").
    The connections to it must be closed first. CacheUnusable when the folder refuses."""
    aside = path.with_name(path.name + ".bad")
    try:
        for file, moved in zip(cache_files(path), cache_files(aside), strict=True):
            with contextlib.suppress(FileNotFoundError):
                file.replace(moved)
    except OSError as exc:
        raise CacheUnusable(
            f"the cache {path} cannot be used ({why}) nor set aside: {exc.strerror or exc}"
        ) from exc
    return f"The local cache {path} was set aside ({aside.name}): {why}. It starts empty."

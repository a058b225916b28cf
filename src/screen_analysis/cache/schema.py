"""The cache database on disk: where it lives, its schema, and opening it safely.

One SQLite file per user in the platform cache dir, in WAL mode (several copies of the app
may read and write it at once), mode 0600. The schema is versioned with `user_version`; a
file that is damaged (truncated, not a database) or written by another version is moved
aside (`cache.sqlite3.bad`) and a fresh one started, with one warning line for the caller.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import platformdirs

SCHEMA_VERSION = 1
FILE_NAME = "cache.sqlite3"
FILE_SUFFIXES = ("", "-wal", "-shm")  # the database and its WAL files: one cache on disk
BUSY_TIMEOUT_MS = 2000  # another copy of the app writing: wait this long, then give up

SCHEMA = """
CREATE TABLE scopes (
    id INTEGER PRIMARY KEY,
    base_url TEXT NOT NULL,
    profile TEXT NOT NULL,
    UNIQUE (base_url, profile)
);
CREATE TABLE analyses (
    scope INTEGER NOT NULL,
    id TEXT NOT NULL,
    raw TEXT NOT NULL,
    fetched_at REAL NOT NULL,
    PRIMARY KEY (scope, id)
) WITHOUT ROWID;
CREATE TABLE views (
    id INTEGER PRIMARY KEY,
    scope INTEGER NOT NULL,
    project TEXT NOT NULL,
    status TEXT NOT NULL,
    total INTEGER,
    done INTEGER NOT NULL,
    fetched_at REAL NOT NULL,
    viewed_at REAL NOT NULL,
    UNIQUE (scope, project, status)
);
CREATE TABLE view_rows (
    view INTEGER NOT NULL,
    position INTEGER NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (view, position)
) WITHOUT ROWID;
CREATE INDEX view_rows_analysis ON view_rows (analysis);
CREATE TABLE projects (
    scope INTEGER NOT NULL,
    id TEXT NOT NULL,
    raw TEXT NOT NULL,
    fetched_at REAL NOT NULL,
    PRIMARY KEY (scope, id)
) WITHOUT ROWID;
CREATE TABLE keys (
    scope INTEGER NOT NULL,
    digest TEXT NOT NULL,
    accepted_at REAL NOT NULL,
    PRIMARY KEY (scope, digest)
) WITHOUT ROWID;
CREATE TABLE totals (
    scope INTEGER NOT NULL,
    project TEXT NOT NULL,
    status TEXT NOT NULL,
    total INTEGER NOT NULL,
    fetched_at REAL NOT NULL,
    PRIMARY KEY (scope, project, status)
) WITHOUT ROWID;
"""


KEYS_TABLE = (
    "CREATE TABLE IF NOT EXISTS keys (scope INTEGER NOT NULL, digest TEXT NOT NULL,"
    " accepted_at REAL NOT NULL, PRIMARY KEY (scope, digest)) WITHOUT ROWID"
)


def default_cache_path() -> Path:
    """`cache.sqlite3` in the user cache dir (e.g. ~/.cache/screen-analysis)."""
    root = platformdirs.user_cache_dir("screen-analysis", appauthor=False)
    return Path(root) / FILE_NAME


class CacheUnusable(Exception):
    """The cache cannot be used in this run (locked by another program, a disk that refuses
    it); the message is one line for the user."""


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the cache at `path` in WAL mode with a busy timeout."""
    connection = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=OFF")
    return connection


def _create_private(path: Path) -> None:
    """Make the file (and its folder) readable by the user only, before SQLite opens it."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    os.close(descriptor)
    os.chmod(path, 0o600)


def set_aside(path: Path, why: str) -> str:
    """Move a damaged or foreign database (and its WAL files) out of the way, so the next
    open starts a fresh one; the one warning line that says so (`why`: "it is damaged …").
    The connections to it must be closed first."""
    aside = path.with_name(path.name + ".bad")
    for suffix in FILE_SUFFIXES:
        source = path.with_name(path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            source.replace(aside.with_name(aside.name + suffix))
    return f"The local cache {path} was set aside ({aside.name}): {why}. It starts empty."


def open_database(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """The database at `path`, ready to use, and the warning to show once (None: none).

    CacheUnusable when it cannot be used at all (a folder that cannot be written, a file
    locked by another program for longer than the busy timeout)."""
    warning: str | None = None
    for attempt in (1, 2):
        connection: sqlite3.Connection | None = None
        try:
            _create_private(path)
            connection = connect(path)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and _is_empty(connection):
                connection.executescript(SCHEMA)
                connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                return connection, warning
            if version == SCHEMA_VERSION:
                connection.execute("SELECT count(*) FROM scopes").fetchone()
                connection.execute(KEYS_TABLE)  # a file from before the keys were kept
                return connection, warning
            why = f"it was written by another version (schema {version})"
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc):
                _close(connection)
                raise CacheUnusable(f"the cache {path} is locked by another program") from exc
            why = f"it could not be read ({exc})"
        except sqlite3.DatabaseError as exc:
            why = f"it is damaged ({exc})"
        except OSError as exc:
            _close(connection)
            raise CacheUnusable(f"the cache {path} cannot be used: {exc.strerror or exc}") from exc
        _close(connection)
        if attempt == 2:
            break
        warning = set_aside(path, why)
    raise CacheUnusable(f"the cache {path} cannot be used")


def _close(connection: sqlite3.Connection | None) -> None:
    if connection is not None:
        with contextlib.suppress(sqlite3.Error):
            connection.close()


def _is_empty(connection: sqlite3.Connection) -> bool:
    found = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    return bool(found == 0)

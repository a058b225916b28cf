"""The cache database: its schema, and opening it safely (its place on disk: `place`).

WAL mode (several copies of the app read and write it at once). Every row belongs to a
scope (a server and a profile) through a foreign key that deletes it with its scope, and a
scope's id is never given again (AUTOINCREMENT): a clear while another copy writes, or a
row left by an older version, can never show under another server. The schema is made in
one `BEGIN IMMEDIATE` transaction that looks again at what is there, so two copies starting
at once on a fresh file make it once. It is versioned with `user_version`; a file that is
damaged (truncated, not a database, tables missing) or written by another version is set
aside and a fresh one started, with one warning line for the caller. A failure of the place
rather than the file (a folder that refuses new files, a full or read-only disk, a lock
held too long) is `CacheUnusable`, and nothing is moved.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

from screen_analysis.cache.place import CacheUnusable, check_place, create_private, set_aside

SCHEMA_VERSION = 2  # 1: scopes' ids could be given again, rows outlive their scope
BUSY_TIMEOUT_MS = 2000  # another copy of the app writing: wait this long, then give up
WAL_LIMIT_BYTES = 1024 * 1024  # the log after a write (it is emptied after each one)
SHM_BYTES = 32 * 1024  # the WAL index SQLite keeps beside it
SQLITE_BUSY = 5

SCHEMA = """
CREATE TABLE IF NOT EXISTS scopes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    base_url TEXT NOT NULL,
    profile TEXT NOT NULL,
    UNIQUE (base_url, profile)
);
CREATE TABLE IF NOT EXISTS analyses (
    scope INTEGER NOT NULL REFERENCES scopes (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    raw TEXT NOT NULL,
    fetched_at REAL NOT NULL,
    PRIMARY KEY (scope, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS views (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    scope INTEGER NOT NULL REFERENCES scopes (id) ON DELETE CASCADE,
    project TEXT NOT NULL,
    status TEXT NOT NULL,
    total INTEGER,
    done INTEGER NOT NULL,
    cut INTEGER NOT NULL DEFAULT 0,
    fetched_at REAL NOT NULL,
    viewed_at REAL NOT NULL,
    UNIQUE (scope, project, status)
);
CREATE TABLE IF NOT EXISTS view_rows (
    view INTEGER NOT NULL REFERENCES views (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (view, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS view_rows_analysis ON view_rows (analysis);
CREATE TABLE IF NOT EXISTS projects (
    scope INTEGER NOT NULL REFERENCES scopes (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    raw TEXT NOT NULL,
    fetched_at REAL NOT NULL,
    PRIMARY KEY (scope, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS keys (
    scope INTEGER NOT NULL REFERENCES scopes (id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    accepted_at REAL NOT NULL,
    PRIMARY KEY (scope, digest)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS totals (
    scope INTEGER NOT NULL REFERENCES scopes (id) ON DELETE CASCADE,
    project TEXT NOT NULL,
    status TEXT NOT NULL,
    total INTEGER NOT NULL,
    fetched_at REAL NOT NULL,
    PRIMARY KEY (scope, project, status)
) WITHOUT ROWID;
"""

TABLES = ("scopes", "analyses", "views", "view_rows", "projects", "keys", "totals")
SCOPED = ("analyses", "views", "projects", "keys", "totals")  # rows owned by a scope

# SQLite's primary result codes that say the place failed, not the file: nothing to set aside.
_PLACE_FAILURES = {
    3: "permission denied",  # SQLITE_PERM
    5: "locked by another program",  # SQLITE_BUSY
    6: "locked by another program",  # SQLITE_LOCKED
    7: "out of memory",  # SQLITE_NOMEM
    8: "it cannot be written",  # SQLITE_READONLY
    10: "a disk I/O error",  # SQLITE_IOERR
    13: "the disk is full",  # SQLITE_FULL
    14: "it cannot be opened, or its folder refuses its WAL files",  # SQLITE_CANTOPEN
    15: "locked by another program",  # SQLITE_PROTOCOL
}


def place_failure(exc: sqlite3.Error) -> str | None:
    """Why `exc` means the cache's place failed (a lock, a read-only folder, a full disk),
    in words; None when it means the file itself is damaged or foreign."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return "locked by another program" if "locked" in str(exc) else None
    return _PLACE_FAILURES.get(code & 0xFF)


def unusable(path: Path, exc: sqlite3.Error) -> CacheUnusable | None:
    """The CacheUnusable for an error of the place (None: the file is at fault)."""
    why = place_failure(exc)
    return None if why is None else CacheUnusable(f"the cache {path} cannot be used: {why}")


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the cache at `path` in WAL mode with a busy timeout, foreign keys
    enforced, the log kept small, and free pages given back on request (a new file)."""
    connection = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    connection.execute("PRAGMA auto_vacuum=INCREMENTAL")  # only takes on an empty file
    _to_wal(connection)
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
    return connection


def _to_wal(connection: sqlite3.Connection) -> None:
    """WAL mode. Another copy making the same fresh file holds a lock that SQLite does not
    wait for here (it answers "busy" at once), so the switch is tried again for as long as
    any other wait on the file."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL").fetchall()
            return
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF != SQLITE_BUSY:
                raise
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def open_database(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """The database at `path`, ready to use, and the warning to show once (None: none).

    CacheUnusable when it cannot be used at all (see the module and `place`)."""
    warning: str | None = None
    for attempt in (1, 2):
        check_place(path)
        connection: sqlite3.Connection | None = None
        try:
            create_private(path)
            connection = connect(path)
            why = _prepare(connection)
            if why is None:
                return connection, warning
        except sqlite3.DatabaseError as exc:
            _close(connection)
            if (failure := unusable(path, exc)) is not None:
                raise failure from exc
            why = f"it is damaged ({exc})"
        except OSError as exc:
            _close(connection)
            raise CacheUnusable(f"the cache {path} cannot be used: {exc.strerror or exc}") from exc
        _close(connection)
        if attempt == 2:
            break
        warning = set_aside(path, why)
    raise CacheUnusable(f"the cache {path} cannot be used")


def _prepare(db: sqlite3.Connection) -> str | None:
    """Make the schema in a fresh file, or check ours; why the file must be set aside
    (None: ready). Serialised with any other copy by the write lock."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        empty = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
        if version == 0 and empty:
            _create(db)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        elif version != SCHEMA_VERSION:
            db.execute("ROLLBACK")
            return f"it was written by another version (schema {version})"
        else:
            for table in TABLES:  # a table missing or of another shape: damage
                db.execute(f"SELECT * FROM {table} LIMIT 0").fetchall()  # our own names
            _forget_orphans(db)
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return None


def _create(db: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


def _forget_orphans(db: sqlite3.Connection) -> None:
    """Rows whose scope or view is gone (a file another program changed with its foreign
    keys off): never shown, so never kept."""
    for table in SCOPED:
        db.execute(f"DELETE FROM {table} WHERE scope NOT IN (SELECT id FROM scopes)")
    db.execute("DELETE FROM view_rows WHERE view NOT IN (SELECT id FROM views)")


def _close(connection: sqlite3.Connection | None) -> None:
    if connection is not None:
        with contextlib.suppress(sqlite3.Error):
            connection.close()

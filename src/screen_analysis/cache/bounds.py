"""The cache's bounds, kept by its writer after each batch of writes.

Inside the batch's transaction (`keep_within`), until the file holds at most `max_analyses`
analyses in at most `max_bytes` of pages: the least recently viewed views go first, with
the analyses no view lists any more; when one view is left, its last rows are cut (the view
is marked cut: not done, and pages appended later are not kept, so it never has a gap);
then the projects fetched longest ago. So no view ever holds more rows than the bound.

After the transaction (`give_back`): the free pages are returned to the file system
(incremental vacuum) and the write-ahead log is checkpointed and emptied, so the files on
disk are the database within its bound, the shared-memory index (`SHM_BYTES`) and a log of
at most `WAL_LIMIT_BYTES` (when another copy holds a read open at that moment, the log is
emptied at the next batch). The bound never goes below the empty database (about 50 KB).
"""

from __future__ import annotations

import contextlib
import sqlite3

from screen_analysis.cache.schema import BUSY_TIMEOUT_MS

CHECKPOINT_WAIT_MS = 100  # another copy reading: try again at the next batch


def used_bytes(db: sqlite3.Connection) -> int:
    """The bytes the database's pages hold (free pages left out)."""
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def keep_within(db: sqlite3.Connection, *, max_analyses: int, max_bytes: int) -> int:
    """Drop and cut (see the module) until the database is within both bounds; the number
    of views dropped."""
    dropped = 0
    swept = False
    while True:
        analyses = db.execute("SELECT count(*) FROM analyses").fetchone()[0]
        over_count = analyses > max_analyses
        if not over_count and used_bytes(db) <= max_bytes:
            return dropped
        if not swept:  # rows a refreshed view no longer lists go before any view does
            forget_orphans(db)
            swept = True
        elif _drop_oldest_view(db):
            dropped += 1
        elif not _cut_last_view(db, max_analyses if over_count else None) and not (
            _drop_oldest_projects(db)
        ):
            return dropped  # nothing left to let go: the empty database is over the bound


def _drop_oldest_view(db: sqlite3.Connection) -> bool:
    """The least recently viewed view goes (its rows with it), when it is not the only one."""
    if db.execute("SELECT count(*) FROM views").fetchone()[0] <= 1:
        return False
    (oldest,) = db.execute("SELECT id FROM views ORDER BY viewed_at ASC LIMIT 1").fetchone()
    db.execute("DELETE FROM views WHERE id = ?", (oldest,))  # its rows by the foreign key
    forget_orphans(db)
    return True


def _cut_last_view(db: sqlite3.Connection, keep: int | None) -> bool:
    """The one view left keeps its first `keep` rows (None: three quarters of them); False
    when it has no row to cut."""
    found = db.execute("SELECT id FROM views LIMIT 1").fetchone()
    if found is None:
        return False
    (view,) = found
    rows = db.execute("SELECT count(*) FROM view_rows WHERE view = ?", (view,)).fetchone()[0]
    kept = min(rows - 1, rows * 3 // 4 if keep is None else keep)
    if rows == 0 or kept < 0:
        return False
    db.execute(
        "DELETE FROM view_rows WHERE view = ? AND position >= (SELECT position FROM view_rows"
        " WHERE view = ? ORDER BY position LIMIT 1 OFFSET ?)",
        (view, view, kept),
    )
    db.execute("UPDATE views SET done = 0, cut = 1 WHERE id = ?", (view,))
    forget_orphans(db)
    return True


def _drop_oldest_projects(db: sqlite3.Connection) -> bool:
    """A quarter of the projects (at least one) go, those fetched longest ago."""
    count = db.execute("SELECT count(*) FROM projects").fetchone()[0]
    if count == 0:
        return False
    db.execute(
        "DELETE FROM projects WHERE (scope, id) IN (SELECT scope, id FROM projects"
        " ORDER BY fetched_at ASC LIMIT ?)",
        (max(1, count // 4),),
    )
    return True


def forget_orphans(db: sqlite3.Connection) -> None:
    """Analyses no kept view lists."""
    db.execute(
        "DELETE FROM analyses WHERE NOT EXISTS (SELECT 1 FROM view_rows r"
        " JOIN views v ON v.id = r.view"
        " WHERE v.scope = analyses.scope AND r.analysis = analyses.id)"
    )


def give_back(db: sqlite3.Connection) -> None:
    """Outside any transaction: free pages back to the file system, the log emptied (a
    copy that is reading makes it wait for the next batch; never an error)."""
    with contextlib.suppress(sqlite3.OperationalError):
        if db.execute("PRAGMA freelist_count").fetchone()[0]:
            db.executescript("PRAGMA incremental_vacuum;")  # steps until every page is back
    db.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")
    try:
        with contextlib.suppress(sqlite3.OperationalError):
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    finally:
        db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

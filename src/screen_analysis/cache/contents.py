"""What the cache file holds, per server and profile, and forgetting it: `cache info` and
`cache clear` on the command line.

Both open the file the way the app does (`schema.open_database`): a damaged or foreign
database is set aside with one warning and counts as empty, never an error; damage found
only while reading (a table missing, a page malformed) is set aside the same way. A
missing file is an empty cache and is not made. `CacheUnusable` (locked by another
program, a folder that cannot be written, a link or a pipe in the cache's place) is the one
failure left to the caller.

The counts are the file's: every row belongs to a scope (`schema`), so what is listed is
everything there is, and a clear of everything deletes every row of every table (then gives
the space back: free pages returned, the log emptied).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import NamedTuple, TypeVar

from screen_analysis.cache.bounds import give_back
from screen_analysis.cache.place import CacheUnusable, cache_files, check_place, set_aside
from screen_analysis.cache.reads import CacheScope
from screen_analysis.cache.rows import json_object, raw_column, when_of
from screen_analysis.cache.schema import TABLES, open_database, unusable

T = TypeVar("T")


class ScopeContents(NamedTuple):
    """What is kept for one server and profile, and when its newest view was fetched."""

    base_url: str
    profile: str
    views: int
    analyses: int
    newest: datetime | None


class Forgotten(NamedTuple):
    """How much `forget` removed."""

    views: int
    analyses: int

    @property
    def nothing(self) -> bool:
        """Whether nothing at all was kept."""
        return self.views == 0 and self.analyses == 0


def file_bytes(path: Path) -> int:
    """The bytes the cache takes on disk: the database and its WAL files (not a copy that
    was set aside)."""
    total = 0
    for file in cache_files(path):
        with contextlib.suppress(OSError):
            total += file.lstat().st_size  # a link in the cache's place is not followed
    return total


def kept_scopes(path: Path) -> tuple[list[ScopeContents], str | None]:
    """Every server and profile the cache holds something for, and the warning to show
    once (None: none)."""
    return _using(path, _scopes, [])


def forget(path: Path, scope: CacheScope | None) -> tuple[Forgotten, str | None]:
    """Forget one scope's data (None: everything) and give the space back; how much was
    forgotten, and the warning to show once (None: none)."""
    return _using(path, lambda db: _forget(db, scope), Forgotten(0, 0))


def _using(path: Path, use: Callable[[sqlite3.Connection], T], empty: T) -> tuple[T, str | None]:
    """`use` on the database at `path`, opened as the app opens it; `empty` when there is
    no file, or when it was damaged (then set aside, with the warning)."""
    if not any(os.path.lexists(file) for file in cache_files(path)):
        return empty, None
    db, warning = open_database(path)
    try:
        return use(db), warning
    except sqlite3.Error as exc:
        db.close()
        if (failure := unusable(path, exc)) is not None:  # a lock, a disk: not damage
            raise failure from exc
        return empty, set_aside(path, f"it is damaged ({exc})")
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()


def _scopes(db: sqlite3.Connection) -> list[ScopeContents]:
    rows = db.execute(
        "SELECT s.base_url, s.profile,"
        " (SELECT count(*) FROM views v WHERE v.scope = s.id),"
        " (SELECT count(*) FROM analyses a WHERE a.scope = s.id),"
        " (SELECT max(fetched_at) FROM views v WHERE v.scope = s.id),"
        " EXISTS (SELECT 1 FROM projects p WHERE p.scope = s.id)"
        " OR EXISTS (SELECT 1 FROM totals t WHERE t.scope = s.id)"
        " FROM scopes s ORDER BY s.base_url, s.profile"
    ).fetchall()
    return [
        ScopeContents(str(base), str(profile), views, analyses, when_of(at))
        for base, profile, views, analyses, at, more in rows
        if views or analyses or more  # a scope made (by a write that kept nothing) but empty
    ]


def _forget(db: sqlite3.Connection, scope: CacheScope | None) -> Forgotten:
    db.execute("PRAGMA secure_delete=ON")  # what is forgotten is overwritten, not left in pages
    db.execute("BEGIN IMMEDIATE")
    try:
        if scope is None:
            found = _counts(db, "")
            for table in reversed(TABLES):  # every row, whoever it belongs to
                db.execute(f"DELETE FROM {table}")  # our own table names
        else:
            found = _forget_scope(db, scope)
    except BaseException:
        with contextlib.suppress(sqlite3.Error):  # the first error is the one to report
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    give_back(db)  # the space back; a copy of the app reading: at its next write
    return found


def _forget_scope(db: sqlite3.Connection, scope: CacheScope) -> Forgotten:
    row = db.execute(
        "SELECT id FROM scopes WHERE base_url = ? AND profile = ?", tuple(scope)
    ).fetchone()
    if row is None:
        return Forgotten(0, 0)
    (sid,) = row
    found = _counts(db, " WHERE scope = ?", sid)
    db.execute("DELETE FROM scopes WHERE id = ?", (sid,))  # its rows by the foreign keys
    return found


def _counts(db: sqlite3.Connection, where: str, *args: object) -> Forgotten:
    views = db.execute(f"SELECT count(*) FROM views{where}", args).fetchone()[0]
    analyses = db.execute(f"SELECT count(*) FROM analyses{where}", args).fetchone()[0]
    return Forgotten(int(views), int(analyses))


def kept_projects(path: Path, scope: CacheScope) -> list[tuple[str, str | None]]:
    """The projects the cache knows for `scope` — those fetched and those whose views were
    kept — as (id, name or None), the most recently viewed first: what a shell offers for
    a project id. Read only, with nothing sent anywhere: a missing, damaged, foreign or
    locked file is no projects, and nothing is made, moved or set aside."""
    try:
        check_place(path)  # a link or a special file in the cache's place is never opened
    except CacheUnusable:
        return []
    if not path.is_file():
        return []
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return []
    try:
        return _projects_of(db, scope)
    except (sqlite3.Error, ValueError):
        return []
    finally:
        db.close()


def _projects_of(db: sqlite3.Connection, scope: CacheScope) -> list[tuple[str, str | None]]:
    row = db.execute(
        "SELECT id FROM scopes WHERE base_url = ? AND profile = ?", tuple(scope)
    ).fetchone()
    if row is None:
        return []
    (sid,) = row
    viewed = db.execute(
        "SELECT project, max(viewed_at) FROM views WHERE scope = ? AND project != ''"
        " GROUP BY project",
        (sid,),
    ).fetchall()
    names: dict[str, str | None] = {}
    rows = db.execute(f"SELECT id, {raw_column('raw')} FROM projects WHERE scope = ?", (sid,))
    for project, raw in rows:
        data = json_object(raw)  # a row this version cannot read: its id is still known
        name = data.get("name") if data is not None else None
        names[str(project)] = name if isinstance(name, str) else None
    recency = {str(project): float(at) for project, at in viewed}
    known = set(names) | set(recency)
    order = sorted(known, key=lambda project: (-recency.get(project, 0.0), project))
    return [(project, names.get(project)) for project in order]

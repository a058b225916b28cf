"""What `LocalCache` reads from the database, one function per kind of read.

Each finds the scope's rows through its server and profile in the same statement (a scope
cleared and made again by another process is the new one, never an id another server was
given), and reads each row as untrusted input (`rows`): what cannot be read is left out and
counted in `skips`.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import NamedTuple

from screen_analysis.api.models import AnalysisItem, Project
from screen_analysis.cache.rows import (
    Skips,
    analysis_of,
    project_of,
    raw_column,
    when_of,
    whole,
)

_OF_SCOPE = "JOIN scopes s ON s.id = {table}.scope WHERE s.base_url = ? AND s.profile = ?"


class CacheScope(NamedTuple):
    """Whose data: one server (its base URL, or "demo" for the embedded one) and one profile
    ("" for the top level of the config)."""

    base_url: str
    profile: str = ""


class CachedView(NamedTuple):
    """A view as it was last seen: its rows in the server's order, its total, whether its
    last page was loaded, when it was fetched (UTC), and how many of its rows could not be
    read (left out)."""

    items: list[AnalysisItem]
    total: int | None
    done: bool
    fetched_at: datetime
    skipped: int = 0


def read_view(
    db: sqlite3.Connection, scope: CacheScope, project: str, status: str, skips: Skips
) -> tuple[CachedView, int] | None:
    """The view and its row id, or None: never kept, or its own row cannot be read (then
    counted)."""
    found = db.execute(
        "SELECT v.id, v.total, v.done, v.fetched_at, v.scope FROM views v "
        + _OF_SCOPE.format(table="v")
        + " AND v.project = ? AND v.status = ?",
        (*scope, project, status),
    ).fetchone()
    if found is None:
        return None
    view, total, done, fetched, scope_id = found
    when = when_of(fetched)
    if when is None:
        skips.add(1)
        return None
    rows = db.execute(
        f"SELECT {raw_column('a.raw')} FROM view_rows r"
        " JOIN analyses a ON a.scope = ? AND a.id = r.analysis"
        " WHERE r.view = ? ORDER BY r.position",
        (scope_id, view),
    )
    read = [analysis_of(raw) for (raw,) in rows]
    items = [item for item in read if item is not None]
    skipped = skips.add(len(read) - len(items))
    finished = isinstance(done, int) and bool(done)
    return CachedView(items, whole(total), finished, when, skipped), int(view)


def read_analyses(db: sqlite3.Connection, scope: CacheScope, skips: Skips) -> list[AnalysisItem]:
    """Every analysis kept for the scope, in no order."""
    rows = db.execute(
        f"SELECT {raw_column('a.raw')} FROM analyses a " + _OF_SCOPE.format(table="a"),
        tuple(scope),
    )
    read = [analysis_of(raw) for (raw,) in rows]
    items = [item for item in read if item is not None]
    skips.add(len(read) - len(items))
    return items


def read_projects(
    db: sqlite3.Connection, scope: CacheScope, skips: Skips
) -> list[tuple[Project, datetime]]:
    """The projects kept, each with when it was fetched, by id."""
    rows = db.execute(
        f"SELECT {raw_column('p.raw')}, p.fetched_at FROM projects p "
        + _OF_SCOPE.format(table="p")
        + " ORDER BY p.id",
        tuple(scope),
    )
    found = []
    for raw, fetched in rows:
        project, when = project_of(raw), when_of(fetched)
        if project is None or when is None:
            skips.add(1)
        else:
            found.append((project, when))
    return found


def read_totals(
    db: sqlite3.Connection, scope: CacheScope, project: str, skips: Skips
) -> dict[str | None, tuple[int, datetime]]:
    """The totals kept for a project's status filters ("" → None: all statuses)."""
    rows = db.execute(
        "SELECT t.status, t.total, t.fetched_at FROM totals t "
        + _OF_SCOPE.format(table="t")
        + " AND t.project = ?",
        (*scope, project),
    )
    found: dict[str | None, tuple[int, datetime]] = {}
    for status, total, at in rows:
        count, when = whole(total), when_of(at)
        if count is None or when is None or not isinstance(status, str):
            skips.add(1)
        else:
            found[status or None] = (count, when)
    return found


def key_known(db: sqlite3.Connection, scope: CacheScope, digest: str) -> bool:
    """Whether the scope's server accepted the key of `digest` before."""
    found = db.execute(
        "SELECT 1 FROM keys k " + _OF_SCOPE.format(table="k") + " AND k.digest = ?",
        (*scope, digest),
    ).fetchone()
    return found is not None

"""What the cache's writer does with the database: one function per kind of write, and the
bound that lets the least recently viewed views go.

Every function takes an open connection inside a transaction (the writer batches them) and
the scope's row id; analyses are kept as the JSON the API's own parsing reads back.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from screen_analysis.api.models import Analysis, AnalysisItem, InvalidAnalysis, Project

ALL = ""  # the project or status of a view that is not filtered


def raw_of(item: AnalysisItem) -> tuple[str, str] | None:
    """(id, JSON) of an item as the server sent it; None for an item without an id (such a
    row is shown while online but not kept)."""
    if isinstance(item, Analysis):
        return item.id, json.dumps(item.model_dump(mode="json"), separators=(",", ":"))
    if isinstance(item, InvalidAnalysis) and item.id:
        return item.id, json.dumps(item.raw, separators=(",", ":"), default=str)
    return None


def scope_id(db: sqlite3.Connection, base_url: str, profile: str) -> int:
    """The row id of a scope, made when missing."""
    db.execute(
        "INSERT OR IGNORE INTO scopes (base_url, profile) VALUES (?, ?)", (base_url, profile)
    )
    row = db.execute(
        "SELECT id FROM scopes WHERE base_url = ? AND profile = ?", (base_url, profile)
    ).fetchone()
    return int(row[0])


def view_id(db: sqlite3.Connection, scope: int, project: str, status: str, now: float) -> int:
    """The row id of a view, made (empty) when missing; its viewed time set to `now`."""
    db.execute(
        "INSERT OR IGNORE INTO views (scope, project, status, total, done, fetched_at, viewed_at)"
        " VALUES (?, ?, ?, NULL, 0, ?, ?)",
        (scope, project, status, now, now),
    )
    row = db.execute(
        "SELECT id FROM views WHERE scope = ? AND project = ? AND status = ?",
        (scope, project, status),
    ).fetchone()
    db.execute("UPDATE views SET viewed_at = ? WHERE id = ?", (now, row[0]))
    return int(row[0])


def _keep(
    db: sqlite3.Connection, scope: int, items: Iterable[AnalysisItem], now: float
) -> list[str]:
    rows = [found for item in items if (found := raw_of(item)) is not None]
    db.executemany(
        "INSERT OR REPLACE INTO analyses (scope, id, raw, fetched_at) VALUES (?, ?, ?, ?)",
        [(scope, item_id, raw, now) for item_id, raw in rows],
    )
    return list(dict.fromkeys(item_id for item_id, _raw in rows))


def store_rows(
    db: sqlite3.Connection,
    scope: int,
    view: tuple[str, str],
    items: Sequence[AnalysisItem],
    *,
    total: int | None,
    done: bool,
    first: bool,
    now: float,
) -> None:
    """A page of a view: with `first`, the view's rows replaced as a whole by it (an
    analysis the server no longer lists goes away); else appended after the last row."""
    found = view_id(db, scope, *view, now)
    ids = _keep(db, scope, items, now)
    if first:
        db.execute("DELETE FROM view_rows WHERE view = ?", (found,))
        start = 0
    else:
        last = db.execute("SELECT max(position) FROM view_rows WHERE view = ?", (found,))
        top = last.fetchone()[0]
        start = 0 if top is None else top + 1
    db.executemany(
        "INSERT OR REPLACE INTO view_rows (view, position, analysis) VALUES (?, ?, ?)",
        [(found, start + n, item_id) for n, item_id in enumerate(ids)],
    )
    db.execute(
        "UPDATE views SET total = ?, done = ?, fetched_at = ? WHERE id = ?",
        (total, int(done), now, found),
    )


def store_arrivals(
    db: sqlite3.Connection,
    scope: int,
    view: tuple[str, str],
    items: Sequence[AnalysisItem],
    *,
    total: int | None,
    now: float,
) -> None:
    """Rows that arrived above a view's first row (newest first)."""
    found = view_id(db, scope, *view, now)
    ids = _keep(db, scope, items, now)
    first = db.execute("SELECT min(position) FROM view_rows WHERE view = ?", (found,))
    bottom = first.fetchone()[0] or 0
    start = bottom - len(ids)
    db.executemany(
        "INSERT OR REPLACE INTO view_rows (view, position, analysis) VALUES (?, ?, ?)",
        [(found, start + n, item_id) for n, item_id in enumerate(ids)],
    )
    db.execute(
        "UPDATE views SET total = coalesce(?, total), fetched_at = ? WHERE id = ?",
        (total, now, found),
    )


def store_updates(
    db: sqlite3.Connection,
    scope: int,
    view: tuple[str, str],
    items: Iterable[AnalysisItem],
    now: float,
) -> None:
    """New states of analyses already kept, as a refresh of `view` brought them: the
    view's rows are confirmed as of `now`."""
    db.execute(
        "UPDATE views SET fetched_at = ? WHERE scope = ? AND project = ? AND status = ?",
        (now, scope, *view),
    )
    rows = [found for item in items if (found := raw_of(item)) is not None]
    db.executemany(
        "UPDATE analyses SET raw = ?, fetched_at = ? WHERE scope = ? AND id = ?",
        [(raw, now, scope, item_id) for item_id, raw in rows],
    )


def store_project(db: sqlite3.Connection, scope: int, project: Project, now: float) -> None:
    """A project as fetched."""
    raw = json.dumps(project.model_dump(mode="json"), separators=(",", ":"))
    db.execute(
        "INSERT OR REPLACE INTO projects (scope, id, raw, fetched_at) VALUES (?, ?, ?, ?)",
        (scope, project.id, raw, now),
    )


def store_totals(
    db: sqlite3.Connection,
    scope: int,
    project: str,
    totals: Mapping[str, int],
    now: float,
) -> None:
    """Totals per status of a project ("" for all projects, and for all statuses)."""
    db.executemany(
        "INSERT OR REPLACE INTO totals (scope, project, status, total, fetched_at)"
        " VALUES (?, ?, ?, ?, ?)",
        [(scope, project, status, total, now) for status, total in totals.items()],
    )


def used_bytes(db: sqlite3.Connection) -> int:
    """The bytes the database's pages hold (free pages left out)."""
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def keep_within(db: sqlite3.Connection, *, max_analyses: int, max_bytes: int) -> int:
    """Drop the least recently viewed views (and the analyses no view holds any more) until
    the cache holds at most `max_analyses` analyses in at most `max_bytes`; the number of
    views dropped. The view viewed last always stays."""
    dropped = 0
    while True:
        count = db.execute("SELECT count(*) FROM analyses").fetchone()[0]
        if count <= max_analyses and used_bytes(db) <= max_bytes:
            return dropped
        oldest = db.execute(
            "SELECT id FROM views ORDER BY viewed_at ASC LIMIT 1 OFFSET 0"
        ).fetchone()
        views = db.execute("SELECT count(*) FROM views").fetchone()[0]
        if oldest is None or views <= 1:
            return dropped
        db.execute("DELETE FROM view_rows WHERE view = ?", (oldest[0],))
        db.execute("DELETE FROM views WHERE id = ?", (oldest[0],))
        forget_orphans(db)
        dropped += 1


def forget_orphans(db: sqlite3.Connection) -> None:
    """Analyses no kept view lists."""
    db.execute(
        "DELETE FROM analyses WHERE NOT EXISTS (SELECT 1 FROM view_rows r"
        " JOIN views v ON v.id = r.view"
        " WHERE v.scope = analyses.scope AND r.analysis = analyses.id)"
    )


def statuses(totals: Mapping[Any, int]) -> dict[str, int]:
    """Totals by status as stored: "" for all statuses, else the status's value."""
    return {(str(status) if status is not None else ALL): total for status, total in totals.items()}


def remember_key(db: sqlite3.Connection, scope: int, digest: str, now: float) -> None:
    """The server of `scope` accepted the key of `digest` (a digest: `cache.keys`)."""
    db.execute(
        "INSERT OR REPLACE INTO keys (scope, digest, accepted_at) VALUES (?, ?, ?)",
        (scope, digest, now),
    )


def forget_key(db: sqlite3.Connection, scope: int, digest: str) -> None:
    """The server of `scope` refused the key of `digest`."""
    db.execute("DELETE FROM keys WHERE scope = ? AND digest = ?", (scope, digest))

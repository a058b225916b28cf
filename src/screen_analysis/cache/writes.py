"""What the cache's writer does with the database: one function per kind of write (its
bounds: `bounds`).

Every function takes an open connection inside a transaction (the writer batches them) and
the scope's row id, looked up in that transaction (a scope cleared meanwhile is made
again, under a new id); analyses are kept as the JSON the API's own parsing reads back. A
page that continues a view (appended, arrived above it) is kept only while the view is: a
view cleared meanwhile, or cut at the bound, is not filled with rows that do not start it.
A row over `MAX_ROW_BYTES` (or that cannot be written as JSON) is not kept.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from screen_analysis.api.models import AnalysisItem, InvalidAnalysis, Project, as_sent

ALL = ""  # the project or status of a view that is not filtered
MAX_ROW_BYTES = 1024 * 1024  # one analysis or project as JSON; a real one is a few KB


def kept_row(item: AnalysisItem) -> tuple[str, str] | None:
    """(id, JSON) of an item as the server sent it (`as_sent`); None for an item without an
    id (such a row is shown while online but not kept), and for one too large or too odd to
    keep."""
    ident = item.id
    if ident is None or (not ident and isinstance(item, InvalidAnalysis)):
        return None
    try:
        found = ident, json.dumps(as_sent(item), separators=(",", ":"), default=str)
    except (ValueError, TypeError, RecursionError):
        return None
    return found if _fits(found[1]) else None


def _fits(raw: str) -> bool:
    return len(raw) <= MAX_ROW_BYTES  # json.dumps writes ASCII: one byte a character


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
    found = kept_view(db, scope, project, status, now)
    assert found is not None  # made just above, in this transaction
    return found


def kept_view(
    db: sqlite3.Connection, scope: int, project: str, status: str, now: float
) -> int | None:
    """The row id of a view that is kept and may grow (not cut at the bound), its viewed
    time set to `now`; None when there is no such view."""
    row = db.execute(
        "SELECT id FROM views WHERE scope = ? AND project = ? AND status = ? AND cut = 0",
        (scope, project, status),
    ).fetchone()
    if row is None:
        return None
    db.execute("UPDATE views SET viewed_at = ? WHERE id = ?", (now, row[0]))
    return int(row[0])


def _keep(
    db: sqlite3.Connection, scope: int, items: Iterable[AnalysisItem], now: float
) -> list[str]:
    rows = [found for item in items if (found := kept_row(item)) is not None]
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
    analysis the server no longer lists goes away); else appended after the last row (when
    the view is kept and not cut)."""
    found = view_id(db, scope, *view, now) if first else kept_view(db, scope, *view, now)
    if found is None:
        return
    ids = _keep(db, scope, items, now)
    if first:
        db.execute("DELETE FROM view_rows WHERE view = ?", (found,))
        db.execute("UPDATE views SET cut = 0 WHERE id = ?", (found,))
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
    """Rows that arrived above a view's first row (newest first), when the view is kept."""
    found = kept_view(db, scope, *view, now)
    if found is None:
        return
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
    rows = [found for item in items if (found := kept_row(item)) is not None]
    db.executemany(
        "UPDATE analyses SET raw = ?, fetched_at = ? WHERE scope = ? AND id = ?",
        [(raw, now, scope, item_id) for item_id, raw in rows],
    )


def store_project(db: sqlite3.Connection, scope: int, project: Project, now: float) -> None:
    """A project as fetched (one too large to keep is not)."""
    raw = json.dumps(project.model_dump(mode="json"), separators=(",", ":"))
    if not _fits(raw):
        return
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

"""`LocalCache`: the local copy of what the user saw on one server, with one profile.

Reads are quick (indexed) and meant for a thread (`asyncio.to_thread`); writes never block
the caller: they are queued to one writer thread that applies them in batches, one
transaction a batch, then keeps the cache within its bounds (`bounds`). `close()` lets the
writer finish and joins it, so nothing writes while the interpreter exits. Never the API
key: only analyses, projects and totals as the API sent them, each with when it was
fetched.

The scope's row is looked up by its server and profile at each read and inside each
batch's transaction, never remembered: a `cache clear` from another process while this
one runs leaves this one writing under a scope of its own again, never under an id another
server may be given. A row that cannot be read is left out and counted (`skipped`, and per
view `CachedView.skipped`; `rows`).

A cache that cannot be used (locked by another program, a disk that refuses it, damage
found while running) says so once in `warning` and from then on reads nothing and writes
nothing: the app runs as without a cache.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from screen_analysis.api.models import AnalysisItem, Project
from screen_analysis.cache import bounds, reads, writes
from screen_analysis.cache.place import CacheUnusable, default_cache_path
from screen_analysis.cache.reads import CachedView, CacheScope
from screen_analysis.cache.rows import Skips
from screen_analysis.cache.schema import open_database
from screen_analysis.cache.writes import ALL

DEFAULT_MAX_ANALYSES = 50_000
DEFAULT_MAX_MB = 200.0
Write = Callable[[sqlite3.Connection, int, float], None]


def _key(value: object) -> str:
    return ALL if value is None else str(value)


class LocalCache:
    """The cache of one scope in the database at `path` (the user's, by default)."""

    def __init__(
        self,
        scope: CacheScope,
        *,
        path: Path | None = None,
        max_analyses: int = DEFAULT_MAX_ANALYSES,
        max_mb: float = DEFAULT_MAX_MB,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Open (or start) the cache; a problem is one line in `warning`, never an error."""
        self.path = path or default_cache_path()
        self.scope = scope
        self.max_analyses = max_analyses
        self.max_bytes = int(max_mb * 1024 * 1024)
        self.clock = clock
        self.warning: str | None = None
        self._lock = threading.Lock()
        self._queue: queue.Queue[Write | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._db: sqlite3.Connection | None = None
        self._on = False
        self._skips = Skips()
        try:
            self._db, self.warning = open_database(self.path)
        except (CacheUnusable, sqlite3.Error, OSError) as exc:
            self._db = None
            self.warning = f"The local cache is off for this run: {exc}"
            return
        self._on = True
        self._writer = threading.Thread(target=self._write_loop, name="cache-writer")
        self._writer.start()

    @property
    def usable(self) -> bool:
        """Whether the cache reads and writes (False: it is off for this run)."""
        return self._db is not None and self._on

    @property
    def skipped(self) -> int:
        """How many rows the reads so far left out (they could not be read)."""
        return self._skips.count

    # Reads (quick; call them from a thread)

    def view(self, project_id: str | None, status: object) -> CachedView | None:
        """The rows of a view as last seen, or None when it was never kept."""

        def read(db: sqlite3.Connection) -> CachedView | None:
            found = reads.read_view(db, self.scope, _key(project_id), _key(status), self._skips)
            if found is None:
                return None
            view, row = found
            self._queue.put(lambda db, _scope, now: _touch(db, row, now))
            return view

        found: CachedView | None = self._read(read)
        return found

    def matching(self, project_id: str | None, status: object) -> CachedView | None:
        """Offline filtering: the rows of the project's unfiltered view that have `status`
        (None when that view was never kept)."""
        whole = self.view(project_id, None)
        if whole is None or status is None:
            return whole
        wanted = str(status)
        items = [i for i in whole.items if str(getattr(i, "status", "")) == wanted]
        return CachedView(items, None, whole.done, whole.fetched_at, whole.skipped)

    def analyses(self, project_id: str | None) -> list[AnalysisItem]:
        """Every analysis kept for a project (None: all projects), newest first."""

        def read(db: sqlite3.Connection) -> list[AnalysisItem]:
            items = reads.read_analyses(db, self.scope, self._skips)
            if project_id is not None:
                items = [i for i in items if getattr(i, "project_id", None) == project_id]
            return sorted(items, key=_newest_first)

        return self._read(read) or []

    def projects(self) -> list[tuple[Project, datetime]]:
        """The projects kept, each with when it was fetched."""
        return self._read(lambda db: reads.read_projects(db, self.scope, self._skips)) or []

    def totals(self, project_id: str | None) -> dict[str | None, tuple[int, datetime]]:
        """The totals kept for a project's status filters ("" → None: all statuses)."""
        project = _key(project_id)
        return self._read(lambda db: reads.read_totals(db, self.scope, project, self._skips)) or {}

    def _read(self, read: Callable[[sqlite3.Connection], Any]) -> Any:
        db = self._db
        if db is None or not self._on:
            return None
        try:
            with self._lock:
                return read(db)
        except Exception as exc:  # whatever the file holds, a read never raises
            self._broken(exc)
            return None

    # Writes (queued; they never block)

    def store_page(
        self,
        project_id: str | None,
        status: object,
        items: Sequence[AnalysisItem],
        *,
        total: int | None,
        done: bool,
        first: bool,
    ) -> None:
        """A page of a view as loaded: with `first`, the view's rows replaced by it as a
        whole; else appended (a page the user scrolled to)."""
        view = (_key(project_id), _key(status))
        rows = list(items)
        self._put(
            lambda db, scope, now: writes.store_rows(
                db, scope, view, rows, total=total, done=done, first=first, now=now
            )
        )

    def store_arrivals(
        self,
        project_id: str | None,
        status: object,
        items: Sequence[AnalysisItem],
        total: int | None,
    ) -> None:
        """Rows that arrived above a view's first row, newest first."""
        view = (_key(project_id), _key(status))
        rows = list(items)
        self._put(
            lambda db, scope, now: writes.store_arrivals(
                db, scope, view, rows, total=total, now=now
            )
        )

    def store_updates(
        self, project_id: str | None, status: object, items: Sequence[AnalysisItem]
    ) -> None:
        """New states of analyses already kept, from a refresh of a view (which confirms
        the view's rows as of now)."""
        view = (_key(project_id), _key(status))
        rows = list(items)
        self._put(lambda db, scope, now: writes.store_updates(db, scope, view, rows, now))

    def store_project(self, project: Project) -> None:
        """A project as fetched."""
        self._put(lambda db, scope, now: writes.store_project(db, scope, project, now))

    def store_totals(self, project_id: str | None, totals: Mapping[Any, int]) -> None:
        """Totals per status of a project (status None: all)."""
        by_status = writes.statuses(totals)
        project = _key(project_id)
        self._put(lambda db, scope, now: writes.store_totals(db, scope, project, by_status, now))

    # The keys its server accepted (digests: `cache.keys`)

    def key_known(self, digest: str) -> bool:
        """Whether the server accepted the key of `digest` before (read from a thread)."""
        return bool(self._read(lambda db: reads.key_known(db, self.scope, digest)))

    def key_accepted(self, digest: str) -> None:
        """The server accepted the key of `digest`."""
        self._put(lambda db, scope, now: writes.remember_key(db, scope, digest, now))

    def key_refused(self, digest: str) -> None:
        """The server refused the key of `digest`: forget it."""
        self._put(lambda db, scope, _now: writes.forget_key(db, scope, digest))

    def _put(self, write: Write) -> None:
        if self.usable:
            self._queue.put(write)

    def flush(self) -> None:
        """Wait until every write asked for so far is in the database."""
        if self._writer is not None and self._writer.is_alive():
            self._queue.join()

    def close(self) -> None:
        """Finish the writes asked for, stop the writer, close the database."""
        writer, self._writer = self._writer, None
        if writer is not None:
            self._queue.put(None)
            writer.join()
        db, self._db = self._db, None
        self._on = False
        if db is not None:
            with self._lock:
                db.close()

    def _write_loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            stop = None in batch
            try:
                self._apply([write for write in batch if write is not None])
            finally:
                for _ in batch:
                    self._queue.task_done()
            if stop:
                return

    def _apply(self, batch: list[Write]) -> None:
        db = self._db
        if db is None or not self._on or not batch:
            return
        now = self.clock()
        try:
            with self._lock:
                db.execute("BEGIN IMMEDIATE")
                try:
                    scope = writes.scope_id(db, *self.scope)  # made again after a clear
                    for write in batch:
                        write(db, scope, now)
                    bounds.keep_within(db, max_analyses=self.max_analyses, max_bytes=self.max_bytes)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
                bounds.give_back(db)
        except Exception as exc:  # the writer thread never dies: the cache goes off
            self._broken(exc)

    def _broken(self, exc: Exception) -> None:
        """Damage or a lock found while running: the cache is off from now on."""
        if self.warning is None:
            self.warning = f"The local cache {self.path} is off for this run: {exc}"
        self._on = False


def _touch(db: sqlite3.Connection, view: int, now: float) -> None:
    db.execute("UPDATE views SET viewed_at = ? WHERE id = ?", (now, view))


def _newest_first(item: AnalysisItem) -> tuple[float, str]:
    created = getattr(item, "created_at", None)
    stamp = created.timestamp() if isinstance(created, datetime) else 0.0
    return -stamp, item.id or ""

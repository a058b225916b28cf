"""SQLite storage of the demo data, shared by the request threads.

One connection guarded by a lock: uvicorn runs the endpoints from a thread pool, and the
queries are short, so serialising them costs nothing a demo would notice. Per-project,
per-status tallies are kept next to the rows so `total`, `analysis_count` and `avg_score`
are O(1) even with a million analyses.
"""

from __future__ import annotations

import itertools
import json
import random
import shutil
import sqlite3
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.generator import (
    AnalysisRow,
    ProjectRow,
    generate_analyses,
    generate_projects,
)
from screen_analysis.demo.vocabulary import CRITERIA

BATCH_SIZE = 10_000
# Above this size an in-memory database would cost hundreds of MB; use a temporary file.
IN_MEMORY_MAX = 200_000

_SCHEMA = f"""
CREATE TABLE projects (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT, default_criteria TEXT,
    slug TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE analyses (
    id TEXT PRIMARY KEY, project_id TEXT NOT NULL, status TEXT NOT NULL,
    image_url TEXT NOT NULL, label TEXT NOT NULL, score INTEGER,
    {", ".join(f"{name} INTEGER" for name in CRITERIA)},
    feedback TEXT NOT NULL, error_message TEXT, created_at TEXT NOT NULL, completed_at TEXT
);
CREATE TABLE tallies (
    project_id TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
    score_sum INTEGER NOT NULL, PRIMARY KEY (project_id, status)
);
"""
# Built after the bulk insert: sorting once is faster than maintaining them row by row.
_INDEXES = (
    "CREATE INDEX analyses_newest ON analyses (created_at DESC, id DESC)",
    "CREATE INDEX analyses_filtered ON analyses (project_id, status, created_at, id)",
)
_ANALYSIS_COLUMNS = (
    "id, project_id, status, image_url, label, score, "
    + ", ".join(CRITERIA)
    + ", feedback, error_message, created_at, completed_at"
)
_INSERT_ANALYSIS = f"INSERT INTO analyses ({_ANALYSIS_COLUMNS}) VALUES ({', '.join('?' * 15)})"

SortKey = tuple[str, str]


def _flatten(row: AnalysisRow) -> tuple[Any, ...]:
    breakdown = row.breakdown or (None,) * len(CRITERIA)
    return (
        row.id,
        row.project_id,
        row.status,
        row.image_url,
        row.label,
        row.score,
        *breakdown,
        json.dumps(row.feedback),
        row.error_message,
        row.created_at,
        row.completed_at,
    )


def _analysis_wire(row: sqlite3.Row) -> dict[str, Any]:
    has_breakdown = row["score"] is not None
    return {
        "id": row["id"],
        "project_id": row["project_id"],
        "status": row["status"],
        "image_url": row["image_url"],
        "label": row["label"],
        "score": row["score"],
        "breakdown": {name: row[name] for name in CRITERIA} if has_breakdown else None,
        "feedback": json.loads(row["feedback"]),
        "error_message": row["error_message"],
        "created_at": row["created_at"],
        "completed_at": row["completed_at"],
    }


def average(score_sum: int, count: int) -> float | None:
    """Mean score rounded half up to one decimal place; None when nothing completed."""
    if count == 0:
        return None
    mean = Decimal(score_sum) / Decimal(count)
    return float(mean.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


class DemoStore:
    """Projects and analyses in SQLite, with the queries the API needs."""

    def __init__(self, connection: sqlite3.Connection, temp_dir: Path | None = None) -> None:
        self._db = connection
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self._temp_dir = temp_dir

    @classmethod
    def build(cls, config: DemoConfig) -> DemoStore:
        """Create the database and fill it with the seeded data of `config`."""
        temp_dir: Path | None = None
        if config.db_path is not None:
            config.db_path.unlink(missing_ok=True)
            target = str(config.db_path)
        elif config.analyses > IN_MEMORY_MAX:
            temp_dir = Path(tempfile.mkdtemp(prefix="screen-analysis-demo-"))
            target = str(temp_dir / "demo.sqlite3")
        else:
            target = ":memory:"
        db = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
        store = cls(db, temp_dir)
        store._fill(config)
        return store

    def _fill(self, config: DemoConfig) -> None:
        db = self._db
        # Nothing to recover if the build is interrupted: skip the journal while loading.
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.executescript(_SCHEMA)
        rng = random.Random(config.seed)
        projects = generate_projects(config, rng)
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO projects VALUES (?, ?, ?, ?, ?, ?, ?)",
            [_project_values(p) for p in projects],
        )
        counts: Counter[SortKey] = Counter()
        sums: Counter[SortKey] = Counter()
        stream = generate_analyses(config, projects, rng)
        while batch := list(itertools.islice(stream, BATCH_SIZE)):
            for row in batch:
                counts[row.project_id, row.status] += 1
                sums[row.project_id, row.status] += row.score or 0
            db.executemany(_INSERT_ANALYSIS, map(_flatten, batch))
        db.executemany(
            "INSERT INTO tallies VALUES (?, ?, ?, ?)",
            [(*key, n, sums[key]) for key, n in counts.items()],
        )
        for statement in _INDEXES:
            db.execute(statement)
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode = MEMORY")
        db.execute("ANALYZE")

    def close(self) -> None:
        """Close the database and remove its temporary file, if any."""
        with self._lock:
            self._db.close()
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir, ignore_errors=True)

    def list_analyses(
        self, project_id: str | None, status: str | None, limit: int, after: SortKey | None
    ) -> tuple[list[dict[str, Any]], bool]:
        """Up to `limit` analyses after `after`, newest first, and whether more remain."""
        clauses, params = _filters(project_id, status)
        if after is not None:
            clauses.append("(created_at, id) < (?, ?)")
            params.extend(after)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        sql = (
            f"SELECT {_ANALYSIS_COLUMNS} FROM analyses {where} "
            "ORDER BY created_at DESC, id DESC LIMIT ?"
        )
        with self._lock:
            rows = self._db.execute(sql, [*params, limit + 1]).fetchall()
        return [_analysis_wire(row) for row in rows[:limit]], len(rows) > limit

    def count_analyses(self, project_id: str | None, status: str | None) -> int:
        """How many analyses match the filters (from the tallies)."""
        clauses, params = _filters(project_id, status)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._lock:
            row = self._db.execute(f"SELECT COALESCE(SUM(n), 0) FROM tallies {where}", params)
            return int(row.fetchone()[0])

    def get_project(self, project_id: str) -> dict[str, Any] | None:
        """The project in wire form with its statistics, or None when unknown."""
        with self._lock:
            row = self._db.execute("SELECT * FROM projects WHERE id = ?", (project_id,))
            project = row.fetchone()
            if project is None:
                return None
            tally = self._db.execute(
                "SELECT COALESCE(SUM(n), 0), "
                "COALESCE(SUM(CASE WHEN status = 'completed' THEN n END), 0), "
                "COALESCE(SUM(score_sum), 0) FROM tallies WHERE project_id = ?",
                (project_id,),
            ).fetchone()
        total, completed, score_sum = (int(value) for value in tally)
        criteria = project["default_criteria"]
        return {
            "id": project["id"],
            "name": project["name"],
            "description": project["description"],
            "default_criteria": None if criteria is None else json.loads(criteria),
            "analysis_count": total,
            "avg_score": average(score_sum, completed),
            "created_at": project["created_at"],
            "updated_at": project["updated_at"],
        }

    def get_analysis(self, analysis_id: str) -> dict[str, Any] | None:
        """The analysis in wire form, or None when unknown (the images route)."""
        with self._lock:
            sql = f"SELECT {_ANALYSIS_COLUMNS} FROM analyses WHERE id = ?"
            row = self._db.execute(sql, (analysis_id,)).fetchone()
        return None if row is None else _analysis_wire(row)

    def projects(self) -> list[ProjectRow]:
        """Every project as stored, in creation order of the generator."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM projects ORDER BY rowid").fetchall()
        return [_project_row(row) for row in rows]

    def in_flight(self) -> list[AnalysisRow]:
        """Every pending or processing analysis, oldest first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_ANALYSIS_COLUMNS} FROM analyses "
                "WHERE status IN ('pending', 'processing') ORDER BY created_at, id"
            ).fetchall()
        return [
            AnalysisRow(
                row["id"],
                row["project_id"],
                row["status"],
                row["image_url"],
                row["label"],
                None,
                None,
                (),
                None,
                row["created_at"],
                None,
            )
            for row in rows
        ]

    def add_analysis(self, row: AnalysisRow) -> None:
        """Insert one analysis and count it (the live simulation)."""
        with self._lock, self._transaction():
            self._db.execute(_INSERT_ANALYSIS, _flatten(row))
            self._tally(row.project_id, row.status, 1, row.score or 0)

    def replace_analysis(self, row: AnalysisRow) -> None:
        """Overwrite an analysis with a new state of itself, keeping the tallies right."""
        with self._lock, self._transaction():
            old = self._db.execute(
                "SELECT status, score FROM analyses WHERE id = ?", (row.id,)
            ).fetchone()
            if old is None:
                raise KeyError(row.id)
            self._tally(row.project_id, old["status"], -1, -(old["score"] or 0))
            self._db.execute("DELETE FROM analyses WHERE id = ?", (row.id,))
            self._db.execute(_INSERT_ANALYSIS, _flatten(row))
            self._tally(row.project_id, row.status, 1, row.score or 0)
            if row.completed_at is not None:
                self._db.execute(
                    "UPDATE projects SET updated_at = MAX(updated_at, ?) WHERE id = ?",
                    (row.completed_at, row.project_id),
                )

    def recount(self) -> list[tuple[str, str, int, int]]:
        """Tallies recomputed from the rows (for checks): (project, status, n, score_sum)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT project_id, status, COUNT(*), COALESCE(SUM(score), 0) FROM analyses "
                "GROUP BY project_id, status ORDER BY project_id, status"
            ).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def tallies(self) -> list[tuple[str, str, int, int]]:
        """The stored tallies, in the order of `recount`, skipping emptied ones."""
        with self._lock:
            rows = self._db.execute(
                "SELECT project_id, status, n, score_sum FROM tallies WHERE n > 0 "
                "ORDER BY project_id, status"
            ).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def _tally(self, project_id: str, status: str, n: int, score: int) -> None:
        self._db.execute(
            "INSERT INTO tallies VALUES (?, ?, ?, ?) ON CONFLICT (project_id, status) "
            "DO UPDATE SET n = n + excluded.n, score_sum = score_sum + excluded.score_sum",
            (project_id, status, n, score),
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN … COMMIT, or ROLLBACK on error (the connection runs in autocommit mode)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _filters(project_id: str | None, status: str | None) -> tuple[list[str], list[str]]:
    clauses: list[str] = []
    params: list[str] = []
    if project_id is not None:
        clauses.append("project_id = ?")
        params.append(project_id)
    if status is not None:
        clauses.append("status = ?")
        params.append(status)
    return clauses, params


def _project_values(project: ProjectRow) -> tuple[Any, ...]:
    criteria = project.default_criteria
    return (
        project.id,
        project.name,
        project.description,
        None if criteria is None else json.dumps(criteria),
        project.slug,
        project.created_at,
        project.updated_at,
    )


def _project_row(row: sqlite3.Row) -> ProjectRow:
    criteria = row["default_criteria"]
    return ProjectRow(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        default_criteria=None if criteria is None else json.loads(criteria),
        slug=row["slug"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def iter_all(store: DemoStore, project_id: str | None = None) -> Iterator[dict[str, Any]]:
    """Every analysis newest first, by pages (for checks and tests)."""
    after: SortKey | None = None
    while True:
        page, more = store.list_analyses(project_id, None, 500, after)
        yield from page
        if not more:
            return
        after = (page[-1]["created_at"], page[-1]["id"])

"""Opening the cache file: the settings every connection gets, rows another program left
without their owner forgotten, what is set aside (and how it is said), and the words for a
place that cannot be used — on real files."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from tests.support.hostile_files import full_disk, read_only_folder

from screen_analysis.api.parsing import parse_item
from screen_analysis.cache import CacheScope, LocalCache, default_cache_path
from screen_analysis.cache.place import CacheUnusable, check_place, create_private, set_aside
from screen_analysis.cache.schema import (
    SCHEMA_VERSION,
    WAL_LIMIT_BYTES,
    connect,
    open_database,
    place_failure,
)

SCOPE = CacheScope("https://schema.example.test")


def pragma(db: sqlite3.Connection, name: str) -> object:
    return db.execute(f"PRAGMA {name}").fetchone()[0]


def test_a_connection_waits_for_another_copy_and_keeps_its_log_small(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    db = connect(path)
    try:
        assert pragma(db, "journal_mode") == "wal"
        assert pragma(db, "auto_vacuum") == 2  # incremental: free pages can be given back
        assert pragma(db, "synchronous") == 1  # NORMAL
        assert pragma(db, "foreign_keys") == 1
        assert pragma(db, "busy_timeout") == 2000
        assert pragma(db, "journal_size_limit") == WAL_LIMIT_BYTES
        assert db.isolation_level is None  # transactions are the writer's own
    finally:
        db.close()


def test_a_fresh_file_is_ours_private_and_of_this_version(tmp_path: Path) -> None:
    folder = tmp_path / "made" / "here"
    path = folder / "c.sqlite3"
    db, warning = open_database(path)
    db.close()
    assert warning is None
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    check = sqlite3.connect(path)
    assert pragma(check, "user_version") == SCHEMA_VERSION
    check.close()


def test_a_file_made_readable_by_others_is_made_private_again(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    LocalCache(SCOPE, path=path).close()
    path.chmod(0o644)
    LocalCache(SCOPE, path=path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_rows_left_without_their_scope_or_view_are_forgotten_at_the_next_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    cache = LocalCache(SCOPE, path=path)
    cache.store_page(None, None, [parse_item({"id": "a1"})], total=1, done=True, first=True)
    cache.close()
    db = sqlite3.connect(path)  # another program, foreign keys off
    db.execute("INSERT INTO analyses VALUES (999, 'stray', '{\"id\": \"stray\"}', 0)")
    db.execute("INSERT INTO projects VALUES (999, 'p1', '{\"id\": \"p1\"}', 0)")
    db.execute("INSERT INTO totals VALUES (999, '', '', 5, 0)")
    db.execute("INSERT INTO keys VALUES (999, 'digest', 0)")
    db.execute("INSERT INTO views VALUES (99, 999, '', 'x', 1, 1, 0, 0, 0)")
    db.execute("INSERT INTO view_rows VALUES (12345, 0, 'a1')")
    db.commit()
    db.close()
    reopened = LocalCache(SCOPE, path=path)
    assert reopened.warning is None
    view = reopened.view(None, None)
    assert view is not None and [i.id for i in view.items] == ["a1"]
    reopened.close()
    check = sqlite3.connect(path)
    for table in ("analyses", "projects", "totals", "keys", "views"):
        found = check.execute(f"SELECT count(*) FROM {table} WHERE scope = 999").fetchone()[0]
        assert found == 0, table
    assert check.execute("SELECT count(*) FROM view_rows WHERE view = 12345").fetchone()[0] == 0
    assert check.execute("SELECT count(*) FROM view_rows").fetchone()[0] == 1
    check.close()


def test_a_file_of_another_version_is_set_aside_whole_and_said_so(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (x)")
    db.execute("PRAGMA user_version=99")
    db.execute("INSERT INTO t VALUES (1)")
    db.commit()  # in the log until a checkpoint
    wal = path.with_name("c.sqlite3-wal")
    assert wal.exists()
    db2, warning = open_database(path)  # while the other program still holds it
    db2.close()
    db.close()
    assert warning == (
        f"The local cache {path} was set aside (c.sqlite3.bad): it was written by another"
        " version (schema 99). It starts empty."
    )
    assert tmp_path.joinpath("c.sqlite3.bad").exists()
    assert tmp_path.joinpath("c.sqlite3.bad-wal").exists()


def test_a_file_of_our_version_with_a_table_missing_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    LocalCache(SCOPE, path=path).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE keys")
    db.close()
    cache = LocalCache(SCOPE, path=path)
    assert cache.usable
    assert cache.warning is not None and "it is damaged (no such table: keys)" in cache.warning
    cache.close()


def test_set_aside_moves_the_database_and_its_log_files(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    for suffix, body in (("", b"db"), ("-wal", b"log"), ("-shm", b"index")):
        path.with_name(path.name + suffix).write_bytes(body)
    said = set_aside(path, "it is damaged (test)")
    assert said == (
        f"The local cache {path} was set aside (c.sqlite3.bad): it is damaged (test)."
        " It starts empty."
    )
    assert sorted(p.name for p in tmp_path.glob("c.sqlite3*")) == [
        "c.sqlite3.bad",
        "c.sqlite3.bad-shm",
        "c.sqlite3.bad-wal",
    ]
    assert tmp_path.joinpath("c.sqlite3.bad-wal").read_bytes() == b"log"


def test_a_damaged_file_in_a_folder_that_refuses_the_move_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    path = folder / "c.sqlite3"
    path.write_bytes(b"not a database at all" * 50)
    with read_only_folder(folder):
        with pytest.raises(CacheUnusable) as refused:
            set_aside(path, "it is damaged (test)")
        cache = LocalCache(SCOPE, path=path)
        assert not cache.usable and cache.warning is not None
        cache.close()
    assert str(refused.value) in {
        f"the cache {path} cannot be used (it is damaged (test)) nor set aside: {os.strerror(n)}"
        for n in (errno.EROFS, errno.EACCES)  # a read-only mount; modes, for a user not root
    }
    assert "\n" not in cache.warning and str(path) in cache.warning
    assert sorted(p.name for p in folder.iterdir()) == ["c.sqlite3"], "nothing moved"


def test_a_place_whose_folder_is_a_file_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    path = blocker / "c.sqlite3"
    with pytest.raises(CacheUnusable, match=f"^the cache {path} cannot be used: Not a directory$"):
        check_place(path)
    cache = LocalCache(SCOPE, path=path)
    assert not cache.usable
    assert cache.warning == (
        f"The local cache is off for this run: the cache {path} cannot be used: Not a directory"
    )
    cache.close()


def test_the_default_place_is_in_the_users_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_path() == tmp_path / "xdg" / "screen-analysis" / "cache.sqlite3"


def _error(code: int | None, message: str = "some failure") -> sqlite3.Error:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize(
    ("code", "why"),
    [
        (3, "permission denied"),
        (5, "locked by another program"),
        (517, "locked by another program"),  # SQLITE_BUSY_SNAPSHOT: the primary code counts
        (6, "locked by another program"),
        (7, "out of memory"),
        (8, "it cannot be written"),
        (1032, "it cannot be written"),  # SQLITE_READONLY_DBMOVED
        (10, "a disk I/O error"),
        (13, "the disk is full"),
        (14, "it cannot be opened, or its folder refuses its WAL files"),
        (15, "locked by another program"),
        (11, None),  # SQLITE_CORRUPT: the file, not the place
        (26, None),  # SQLITE_NOTADB
        (1, None),
    ],
)
def test_what_an_error_says_of_the_place(code: int, why: str | None) -> None:
    assert place_failure(_error(code)) == why


def test_an_error_without_a_code_is_the_place_only_when_it_says_locked() -> None:
    assert place_failure(_error(None, "database is locked")) == "locked by another program"
    assert place_failure(_error(None, "file is not a database")) is None


def test_a_real_lock_and_a_real_read_only_file_are_the_place(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(path, timeout=0)
    with pytest.raises(sqlite3.OperationalError) as locked:
        other.execute("SELECT 1 FROM sqlite_master").fetchall()
    holder.execute("ROLLBACK")
    holder.execute("CREATE TABLE t (x)")
    holder.close()
    other.close()
    assert place_failure(locked.value) == "locked by another program"
    reader = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as read_only:
        reader.execute("INSERT INTO t VALUES (1)")
    reader.close()
    assert place_failure(read_only.value) == "it cannot be written"
    assert os.path.exists(path)


def test_another_programs_database_in_the_caches_place_is_set_aside_not_written_into(
    tmp_path: Path,
) -> None:
    """A database with tables of its own and no version (user_version 0, as most have)."""
    path = tmp_path / "c.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE mail (body TEXT)")
    db.execute("INSERT INTO mail VALUES ('dear user')")
    db.commit()
    db.close()
    cache = LocalCache(SCOPE, path=path)
    assert cache.usable and cache.warning is not None
    assert "it was written by another version (schema 0)" in cache.warning
    cache.close()
    aside = sqlite3.connect(tmp_path / "c.sqlite3.bad")
    tables = [name for (name,) in aside.execute("SELECT name FROM sqlite_master")]
    assert tables == ["mail"], "none of ours made in it"
    assert aside.execute("SELECT body FROM mail").fetchall() == [("dear user",)]
    aside.close()


def test_a_full_disk_is_the_place_and_nothing_is_set_aside(tmp_path: Path) -> None:
    with full_disk(tmp_path / "disk") as disk:
        path = disk / "c.sqlite3"
        cache = LocalCache(SCOPE, path=path)
        assert not cache.usable
        assert cache.warning == (
            f"The local cache is off for this run: the cache {path} cannot be used:"
            " the disk is full"
        )
        cache.close()
        assert not list(disk.glob("*.bad*"))


def test_an_error_of_a_closed_connection_is_not_the_place() -> None:
    db = sqlite3.connect(":memory:")
    db.close()
    with pytest.raises(sqlite3.ProgrammingError) as closed:
        db.execute("SELECT 1")
    assert place_failure(closed.value) is None


def test_the_file_is_never_made_private_through_a_link_that_appeared_since_the_check(
    tmp_path: Path,
) -> None:
    """A link put in the cache's place after `check_place` looked (a race): the file it
    names keeps its mode, and the open fails."""
    other = tmp_path / "other.txt"
    other.write_text("another program's")
    other.chmod(0o644)
    path = tmp_path / "c.sqlite3"
    path.symlink_to(other)
    with pytest.raises(OSError):
        create_private(path)
    assert stat.S_IMODE(other.stat().st_mode) == 0o644
    pipe = tmp_path / "p.sqlite3"
    os.mkfifo(pipe)
    with pytest.raises(CacheUnusable, match="is not a regular file"):
        create_private(pipe)

"""Opening the cache while something else has it: another program holding the file's
write lock (the switch to WAL waits for it as long as any other wait on the file, then
gives up in words), a disk that fills as the schema is written, a foreign file written in
the cache's place while the first was set aside — on real files, with the switch's clock
injected so that two seconds of waiting take none."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.cache.conftest import rows_in_file
from tests.support.hostile_files import full_disk, read_only_folder

from screen_analysis.cache import schema
from screen_analysis.cache.place import CacheUnusable, set_aside
from screen_analysis.cache.schema import open_database

START = 100.0
WAIT = schema.BUSY_TIMEOUT_MS / 1000


class SwitchClock:
    """The clock `_to_wal` reads: `START` when it begins, then `later` at each look; each
    sleep it asks for is kept, and runs `on_sleep` (another program moving on meanwhile)."""

    def __init__(self, later: float, on_sleep: Callable[[], None]) -> None:
        self.readings = [START, later]
        self.slept: list[float] = []
        self.on_sleep = on_sleep

    def monotonic(self) -> float:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        assert len(self.slept) < 50, "still waiting after its time was out"
        self.on_sleep()


def holding_the_write_lock(path: Path) -> sqlite3.Connection:
    """Another program writing the file, still empty of tables but with its header, in
    rollback mode: a write transaction open on it. SQLite answers the switch to WAL "busy"
    at once there, without waiting itself (the busy timeout does not apply)."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE header_written (x)")
    holder.execute("DROP TABLE header_written")
    holder.execute("BEGIN IMMEDIATE")
    return holder


def held_open(folder: Path) -> list[str]:
    """The files under `folder` this process has open."""
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc/self/fd to list open files")
    found = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(f"{folder}/"):
                found.append(target)
    return found


def test_a_lock_let_go_at_the_last_moment_of_the_wait_is_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.sqlite3"
    holder = holding_the_write_lock(path)
    clock = SwitchClock(START + WAIT, lambda: holder.execute("ROLLBACK"))
    monkeypatch.setattr(schema, "time", clock)
    db, warning = open_database(path)
    try:
        assert warning is None
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    finally:
        db.close()
        holder.close()
    assert len(clock.slept) == 1
    assert 0 < clock.slept[0] <= 0.05, "tried again within a few hundredths of a second"


def test_a_lock_held_past_the_wait_turns_the_cache_off_and_leaves_the_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.sqlite3"
    holder = holding_the_write_lock(path)

    def never() -> None:
        raise AssertionError("slept after the wait was over")

    monkeypatch.setattr(schema, "time", SwitchClock(START + WAIT + 0.001, never))
    with pytest.raises(CacheUnusable) as refused:
        open_database(path)
    assert str(refused.value) == f"the cache {path} cannot be used: locked by another program"
    holder.execute("CREATE TABLE theirs (x)")
    holder.execute("COMMIT")  # the other copy's work goes on
    holder.close()
    assert [p.name for p in tmp_path.glob("c.sqlite3*")] == ["c.sqlite3"], "nothing set aside"


def test_a_disk_that_fills_as_the_schema_is_written_is_the_place(tmp_path: Path) -> None:
    """The schema's commit meets a full disk: the place, not damage — nothing is set
    aside, and the file is let go at once (nothing of it held open)."""
    with full_disk(tmp_path / "disk", size="1m", free=64 * 1024) as disk:
        path = disk / "c.sqlite3"
        with pytest.raises(CacheUnusable) as refused:
            open_database(path)
        assert str(refused.value) == f"the cache {path} cannot be used: the disk is full"
        assert held_open(disk) == []
        assert not list(disk.glob("*.bad*"))


def test_a_cache_whose_clean_up_fills_the_disk_is_kept_whole(tmp_path: Path) -> None:
    """Forgetting many rows another program left without their scope fills the disk inside
    the schema's transaction, and SQLite rolls it back itself: the rollback that follows
    finds none, which is no damage: the cache stays where it was, with every row."""
    made = tmp_path / "made.sqlite3"
    open_database(made)[0].close()
    db = sqlite3.connect(made)
    db.executemany(
        "INSERT INTO analyses VALUES (999, ?, ?, 0)", ((f"a{i}", "x" * 200) for i in range(15_000))
    )
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    room = made.stat().st_size + 64 * 1024
    with full_disk(tmp_path / "disk", size="16m", free=room) as disk:
        path = disk / "c.sqlite3"
        shutil.copyfile(made, path)
        with pytest.raises(CacheUnusable) as refused:
            open_database(path)
        assert str(refused.value) == f"the cache {path} cannot be used: the disk is full"
        assert [p.name for p in disk.glob("c.sqlite3*")] == ["c.sqlite3"], "nothing set aside"
        assert rows_in_file(path)["analyses"] == 15_000


def test_a_folder_that_refuses_the_new_file_is_said_in_the_systems_words(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cache"
    path = folder / "c.sqlite3"
    with read_only_folder(folder), pytest.raises(CacheUnusable) as refused:
        open_database(path)
    assert str(refused.value) in {
        f"the cache {path} cannot be used: {os.strerror(n)}"
        for n in (errno.EROFS, errno.EACCES)  # a read-only mount; modes, for a user not root
    }


def _another_program_database(path: Path, version: int) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE theirs (x)")
    db.execute(f"PRAGMA user_version={version}")
    db.commit()
    db.close()


def version_of(path: Path) -> int:
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        found: int = db.execute("PRAGMA user_version").fetchone()[0]
        return found
    finally:
        db.close()


def test_a_foreign_file_written_again_while_the_first_is_set_aside_is_refused_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race no real part can time: another program writes its database in the cache's
    place just after the first one was moved aside. The open gives up rather than move
    the second over the first (the user's set-aside file stays), and holds nothing open."""
    path = tmp_path / "c.sqlite3"
    _another_program_database(path, 99)

    def set_aside_and_race(place: Path, why: str) -> str:
        said = set_aside(place, why)
        _another_program_database(place, 7)
        return said

    monkeypatch.setattr(schema, "set_aside", set_aside_and_race)
    with pytest.raises(CacheUnusable) as refused:
        open_database(path)
    assert str(refused.value) == f"the cache {path} cannot be used"
    assert held_open(tmp_path) == []
    assert version_of(tmp_path / "c.sqlite3.bad") == 99, "the first file set aside is kept"
    assert version_of(path) == 7, "the second is left as it was"

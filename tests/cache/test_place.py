"""What is found in the cache's place: a symbolic link (never followed: another program's
database is left exactly as it was), a named pipe, a folder, and a folder that refuses new
files while the database itself can be written. Each is one warning and a run without the
cache, never a traceback, and nothing is set aside that is not ours to move."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.hostile_files import read_only_folder

from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.contents import kept_scopes

SCOPE = CacheScope("https://placed.example.test")


def foreign_database(path: Path) -> bytes:
    """Another program's SQLite file (rollback journal, a table of its own); its bytes."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE mail (id INTEGER PRIMARY KEY, body TEXT)")
    db.execute("INSERT INTO mail (body) VALUES ('dear user')")
    db.commit()
    db.close()
    return path.read_bytes()


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_a_symlink_in_the_caches_place_is_not_followed(tmp_path: Path, suffix: str) -> None:
    other = tmp_path / "elsewhere" / "mail.sqlite3"
    other.parent.mkdir()
    before = foreign_database(other)
    path = tmp_path / "cache" / "c.sqlite3"
    path.parent.mkdir()
    path.with_name(path.name + suffix).symlink_to(other)
    cache = LocalCache(SCOPE, path=path)
    assert not cache.usable
    assert cache.warning is not None and "symbolic link" in cache.warning
    assert "\n" not in cache.warning
    cache.close()
    assert other.read_bytes() == before, "the other program's file is untouched"
    assert not other.with_name(other.name + "-wal").exists(), "not switched to WAL"
    assert path.with_name(path.name + suffix).is_symlink(), "the link is left where it is"
    assert not list(path.parent.glob("*.bad*"))
    with pytest.raises(Exception, match="symbolic link"):
        kept_scopes(path)  # `cache info`: one line (exit 2), tests/cli


def test_a_named_pipe_or_a_folder_in_the_caches_place(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe" / "c.sqlite3"
    pipe.parent.mkdir()
    os.mkfifo(pipe)
    folder = tmp_path / "folder" / "c.sqlite3"
    folder.mkdir(parents=True)
    for path, kind in ((pipe, "named pipe"), (folder, "directory")):
        cache = LocalCache(SCOPE, path=path)
        assert not cache.usable and cache.warning is not None and kind in cache.warning
        cache.close()
    assert pipe.is_fifo() and folder.is_dir()


@contextlib.contextmanager
def folder_read_only_file_writable(folder: Path, name: str) -> Iterator[Path]:
    """`folder` read-only (no file can be made or renamed in it) while `folder/name` can be
    written: a read-only bind mount of the folder with the file bound read-write over it
    (root), else modes (a user who is not root)."""
    path = folder / name
    alias = folder.with_name(folder.name + "-alias")
    alias.mkdir()
    if subprocess.run(["mount", "--bind", str(folder), str(alias)], check=False).returncode:
        with read_only_folder(folder):  # not root: modes bind
            yield path
        return
    try:
        with read_only_folder(folder):
            subprocess.run(["mount", "--bind", str(alias / name), str(path)], check=True)
            try:
                yield path
            finally:
                subprocess.run(["umount", "-l", str(path)], check=False)
    finally:
        subprocess.run(["umount", "-l", str(alias)], check=False)


def test_a_read_only_folder_with_a_writable_file_is_one_warning(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    LocalCache(SCOPE, path=folder / "c.sqlite3").close()  # made while the folder could be
    for suffix in ("-wal", "-shm"):
        (folder / f"c.sqlite3{suffix}").unlink(missing_ok=True)
    with folder_read_only_file_writable(folder, "c.sqlite3") as path:
        with path.open("r+b"):
            pass  # the file can be written
        cache = LocalCache(SCOPE, path=path)
        assert not cache.usable
        assert cache.warning is not None and "\n" not in cache.warning
        assert str(path) in cache.warning
        assert cache.view(None, None) is None
        cache.close()
        assert sorted(p.name for p in folder.iterdir()) == ["c.sqlite3"], "nothing set aside"

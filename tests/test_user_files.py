"""The one writer of the user's files, against hostile set-ups that fail for root too: a
symlinked file, a read-only mount, a full disk, a file where a folder should be, a write
that fails or is cancelled half-way."""

from __future__ import annotations

import asyncio
import errno
import os
import stat
from pathlib import Path

import pytest
from tests.support.hostile_files import full_disk, read_only_folder

from screen_analysis.config import load_settings
from screen_analysis.config_saves import save_config_values
from screen_analysis.user_files import (
    UserFileError,
    check_writable,
    lock_path,
    replacing,
    update_text,
    write_atomic,
)


def _left_over(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_symlinked_config_stays_a_link_and_its_target_changes(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "screen-analysis.toml"
    target.write_text('# mine\ntheme = "screen-analysis-dark"\n')
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir()
    config.symlink_to(Path("..") / "dotfiles" / "screen-analysis.toml")  # relative, as stow makes

    save_config_values(config, theme="screen-analysis-light")

    assert config.is_symlink()
    assert target.read_text() == '# mine\ntheme = "screen-analysis-light"\n'
    assert load_settings(config_path=config, environ={}).theme == "screen-analysis-light"
    assert lock_path(config) == dotfiles / ".screen-analysis.toml.lock"  # beside the target
    assert _left_over(dotfiles) == [] and sorted(os.listdir(config.parent)) == ["config.toml"]


def test_a_link_to_a_file_not_made_yet_makes_the_target(tmp_path: Path) -> None:
    link = tmp_path / "state.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    write_atomic(link, "{}\n")
    assert link.is_symlink() and (tmp_path / "elsewhere.json").read_text() == "{}\n"


def test_a_new_file_gets_the_umask_and_a_replaced_one_keeps_its_mode(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        fresh = tmp_path / "fresh.txt"
        write_atomic(fresh, "a")
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o640
        fresh.chmod(0o600)
        write_atomic(fresh, "b")
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_the_stream_becomes_the_file_only_when_the_block_ends_well(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text("before\n")
    with pytest.raises(RuntimeError), replacing(path) as out:
        out.write("half a file")
        raise RuntimeError("the walk failed")
    assert path.read_text() == "before\n" and _left_over(tmp_path) == []
    with replacing(path) as out:
        out.write("id\r\nA\r\n")  # newlines as written (csv writes \r\n)
    assert path.read_bytes() == b"id\r\nA\r\n" and _left_over(tmp_path) == []


async def test_a_cancelled_stream_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    started = asyncio.Event()

    async def export() -> None:
        with replacing(path) as out:
            out.write("{}\n")
            started.set()
            await asyncio.Event().wait()  # a page that never comes

    task = asyncio.create_task(export())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not path.exists() and _left_over(tmp_path) == []


def test_exclusive_keeps_a_file_that_appeared(tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text("theirs")
    with pytest.raises(FileExistsError):
        write_atomic(path, "ours", exclusive=True)
    assert path.read_text() == "theirs" and _left_over(tmp_path) == []


def test_a_read_only_folder_is_one_error_naming_the_file(tmp_path: Path) -> None:
    config = tmp_path / "ro" / "config.toml"
    config.parent.mkdir()
    config.write_text('theme = "screen-analysis-dark"\n')
    with read_only_folder(config.parent):
        with pytest.raises(UserFileError) as info:
            save_config_values(config, theme="screen-analysis-light")
        with pytest.raises(UserFileError):
            check_writable(config)
        assert config.read_text() == 'theme = "screen-analysis-dark"\n'
    assert str(config) in str(info.value) and str(info.value).startswith("cannot write")
    assert info.value.errno in (errno.EROFS, errno.EACCES)
    assert "\n" not in str(info.value) and ".tmp" not in str(info.value)


def test_a_full_disk_is_one_error_and_the_old_file_stays_whole(tmp_path: Path) -> None:
    with full_disk(tmp_path / "disk") as disk:
        path = disk / "report.html"
        with pytest.raises(UserFileError) as info, replacing(path) as out:
            for _ in range(100):
                out.write("x" * 4096)
        assert info.value.errno == errno.ENOSPC
        assert str(info.value) == f"cannot write {path}: No space left on device"
        assert not path.exists() and _left_over(disk) == []
        with pytest.raises(UserFileError, match="No space left"):
            write_atomic(path, "y" * 100_000)
        assert _left_over(disk) == []


def test_a_file_where_the_folder_should_be(tmp_path: Path) -> None:
    (tmp_path / "config").write_text("not a folder")
    path = tmp_path / "config" / "config.toml"
    with pytest.raises(UserFileError, match="Not a directory") as info:
        update_text(path, lambda _text: "x = 1\n")
    assert str(path) in str(info.value) and info.value.errno == errno.ENOTDIR
    with pytest.raises(UserFileError, match="Not a directory"):
        check_writable(path)


def test_a_folder_where_the_file_should_be(tmp_path: Path) -> None:
    (tmp_path / "config.toml").mkdir()
    with pytest.raises(UserFileError, match="Is a directory"):
        check_writable(tmp_path / "config.toml")


def test_a_file_that_is_not_utf8_is_never_changed(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'theme = "\xff"\n')
    with pytest.raises(UserFileError, match="not UTF-8"):
        save_config_values(path, theme="screen-analysis-light")
    assert path.read_bytes() == b'theme = "\xff"\n'


def test_the_error_keeps_the_reason_apart_from_the_line(tmp_path: Path) -> None:
    (tmp_path / "config").write_text("not a folder")
    path = tmp_path / "config" / "config.toml"
    with pytest.raises(UserFileError) as info:
        write_atomic(path, "x")
    assert info.value.strerror == "Not a directory" and info.value.filename == str(path)
    assert str(info.value) == f"cannot write {path}: Not a directory"

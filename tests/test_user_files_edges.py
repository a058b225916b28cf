"""The one writer of the user's files, at its edges: a change that changes nothing, a lock
held by another, a link not to be followed, the errors a write inside a stream can meet, and
the words each failure is given."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from filelock import FileLock
from tests.support.hostile_files import full_disk, no_files_left

from screen_analysis import user_files
from screen_analysis.user_files import (
    UserFileError,
    check_writable,
    lock_path,
    locked,
    read_locked_text,
    replacing,
    target_of,
    update_text,
    write_atomic,
)


def _names(folder: Path) -> list[str]:
    """The folder's entries, less the suite's own (tests/conftest.py puts HOME there)."""
    return sorted(p.name for p in folder.iterdir() if p.name != "home")


def test_the_lock_lies_beside_the_file() -> None:
    assert lock_path(Path("/x/config.toml")) == Path("/x/.config.toml.lock")
    assert target_of(Path("/x/config.toml")) == Path("/x/config.toml")


def test_a_change_to_the_same_text_or_to_none_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("{}\n")
    inode = path.stat().st_ino
    assert update_text(path, lambda text: text) == "{}\n"
    assert update_text(path, lambda _text: None) == "{}\n"
    assert path.stat().st_ino == inode  # not replaced
    assert update_text(path, lambda text: (text or "") + "[]\n") == "{}\n[]\n"
    assert path.read_text() == "{}\n[]\n" and path.stat().st_ino != inode
    assert update_text(tmp_path / "new.json", lambda text: None) is None
    assert not (tmp_path / "new.json").exists()
    assert update_text(tmp_path / "new.json", lambda text: f"{text}") == "None"


def test_a_change_that_raises_writes_nothing_and_frees_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("a = 1\n")

    def broken(_text: str | None) -> str:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        update_text(path, broken)
    assert path.read_text() == "a = 1\n"
    assert update_text(path, lambda _text: "a = 2\n", timeout_s=0.01) == "a = 2\n"  # free
    assert [n for n in _names(tmp_path) if n.endswith(".tmp")] == []


def test_a_lock_held_by_another_is_one_line_without_a_cause(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("a = 1\n")
    other = FileLock(lock_path(path))
    other.acquire()
    try:
        with pytest.raises(UserFileError) as info:
            update_text(path, lambda _text: "a = 2\n", timeout_s=0.05)
        with pytest.raises(UserFileError), locked(path, timeout_s=0.05):
            pass
    finally:
        other.release()
    assert str(info.value) == f"{path} is locked by another process; try again"
    assert info.value.errno is None
    assert info.value.strerror == "locked by another process; try again"
    assert info.value.filename == str(path) and info.value.path == path
    assert path.read_text() == "a = 1\n"


def test_a_link_not_to_be_followed_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    target = tmp_path / "mine.txt"
    target.write_text("mine")
    link = tmp_path / "state.json"
    link.symlink_to(target)
    why = "it is a symbolic link, which is not followed"
    for attempt in (
        lambda: update_text(link, lambda _text: "{}", follow_links=False),
        lambda: write_atomic(link, "{}", follow_links=False),
        lambda: read_locked_text(link, follow_links=False),
    ):
        with pytest.raises(UserFileError) as info:
            attempt()
        assert str(info.value).endswith(why) and info.value.strerror == why
    assert str(info.value) == f"cannot read {link}: {why}"
    assert info.value.filename == str(link) and info.value.path == link
    assert target.read_text() == "mine" and _names(tmp_path) == ["mine.txt", "state.json"]
    assert read_locked_text(link) == "mine" and target_of(link) == target


def test_bytes_are_written_as_they_are_and_text_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "out"
    write_atomic(path, b"\x00\xff")
    assert path.read_bytes() == b"\x00\xff"
    write_atomic(path, "é\r\n", sync=False)
    assert path.read_bytes() == "é\r\n".encode()
    with replacing(path, sync=False) as out:
        out.write("ü\r\nend")  # newlines as given
    assert path.read_bytes() == "ü\r\nend".encode()
    assert _names(tmp_path) == ["out"]


def test_a_mode_asked_for_beats_the_files_own(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text("old")
    path.chmod(0o644)
    write_atomic(path, "new", mode=0o600)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with replacing(tmp_path / "fresh", mode=0o640) as out:
        out.write("x")
    assert stat.S_IMODE((tmp_path / "fresh").stat().st_mode) == 0o640


def test_exclusive_places_a_file_where_none_is(tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    write_atomic(path, "ours", exclusive=True)
    assert path.read_text() == "ours"
    with pytest.raises(FileExistsError), replacing(path, exclusive=True) as out:
        out.write("again")
    assert path.read_text() == "ours" and _names(tmp_path) == ["report.html"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG])
def test_a_disk_error_inside_the_stream_is_this_files(tmp_path: Path, code: int) -> None:
    path = tmp_path / "export.csv"
    with pytest.raises(UserFileError) as info, replacing(path):
        raise OSError(code, os.strerror(code))
    assert str(info.value) == f"cannot write {path}: {os.strerror(code)}"
    assert info.value.errno == code and _names(tmp_path) == []


def test_other_errors_inside_the_stream_are_left_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    elsewhere = OSError(errno.ENOSPC, "No space left on device", "/other/file")
    with pytest.raises(OSError) as info, replacing(path):
        raise elsewhere
    assert info.value is elsewhere  # another file's: not renamed as this one's
    refused = OSError(errno.ECONNRESET, "Connection reset")
    with pytest.raises(OSError) as info, replacing(path):
        raise refused
    assert info.value is refused and not isinstance(info.value, UserFileError)
    assert _names(tmp_path) == []


def test_a_cause_without_words_is_named_by_its_kind(tmp_path: Path) -> None:
    error = UserFileError.cannot("write", tmp_path / "f", PermissionError())
    assert str(error) == f"cannot write {tmp_path / 'f'}: PermissionError"
    assert error.strerror == "PermissionError" and error.errno is None
    plain = UserFileError(tmp_path / "f", "a line")
    assert plain.strerror == "a line" and plain.errno is None and str(plain) == "a line"


def test_a_file_read_before_a_change_says_why_it_cannot_be(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert read_locked_text(path) is None
    path.write_bytes(b"\xff")
    with pytest.raises(UserFileError) as info:
        read_locked_text(path)
    assert str(info.value) == f"cannot read {path}: it is not UTF-8 text"
    assert info.value.filename == str(path)
    assert info.value.strerror == "it is not UTF-8 text"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(UserFileError) as info:
        read_locked_text(pipe)
    assert str(info.value) == f"cannot read {pipe}: it is a named pipe (FIFO), not a regular file"


def test_a_write_check_makes_the_folder_and_the_lock_and_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "new" / "config.toml"
    check_writable(path)
    assert _names(tmp_path / "new") == [".config.toml.lock"]
    path.write_text("a = 1\n")
    check_writable(path)
    assert path.read_text() == "a = 1\n" and _names(tmp_path / "new") == [
        ".config.toml.lock",
        "config.toml",
    ]


def test_a_folder_full_of_taken_names_is_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real folder cannot be made to run out of random names; the name source can.
    monkeypatch.setattr(user_files.secrets, "token_hex", lambda _n: "taken")
    (tmp_path / ".out.taken.tmp").write_text("someone's")
    with pytest.raises(FileExistsError) as info:
        write_atomic(tmp_path / "out", "x")
    assert info.value.strerror == "no free temporary name"
    assert info.value.errno == errno.EEXIST and info.value.filename == str(tmp_path)
    assert (tmp_path / ".out.taken.tmp").read_text() == "someone's"


def test_a_taken_temporary_name_is_passed_over_for_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = iter(["taken", "free"])
    monkeypatch.setattr(user_files.secrets, "token_hex", lambda _n: next(names))
    (tmp_path / ".out.taken.tmp").write_text("someone's")
    write_atomic(tmp_path / "out", "x")
    assert (tmp_path / "out").read_text() == "x"
    assert _names(tmp_path) == [".out.taken.tmp", "out"]


def test_a_new_file_in_folders_not_made_yet(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "home" / ".config" / "screen-analysis" / "config.toml"
    assert update_text(path, lambda _text: "a = 1\n") == "a = 1\n"
    assert path.read_text() == "a = 1\n"
    check_writable(tmp_path / "other" / "deeper" / "config.toml")


def test_a_new_file_gets_every_permission_the_umask_allows(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        write_atomic(tmp_path / "open", "x")
        with replacing(tmp_path / "stream") as out:
            out.write("x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "open").stat().st_mode) == 0o666
    assert stat.S_IMODE((tmp_path / "stream").stat().st_mode) == 0o666


def test_an_update_gives_a_new_file_the_mode_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "key.toml"
    update_text(path, lambda _text: "k = 1\n", mode=0o600)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_link_planted_while_a_change_is_made_is_not_written_through(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("{}")
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")

    def plant(text: str | None) -> str:
        path.unlink()
        path.symlink_to(victim)  # another program, between the read and the write
        return "{1}"

    with pytest.raises(UserFileError) as info:
        update_text(path, plant, follow_links=False)
    assert str(info.value) == f"cannot write {path}: it is a symbolic link, which is not followed"
    assert info.value.filename == str(path) and victim.read_text() == "mine"


def test_a_folder_in_place_of_the_file_is_said_as_such(tmp_path: Path) -> None:
    (tmp_path / "config.toml").mkdir()
    with pytest.raises(UserFileError) as info:
        check_writable(tmp_path / "config.toml")
    assert str(info.value) == f"cannot write {tmp_path / 'config.toml'}: Is a directory"
    assert info.value.errno == errno.EISDIR and info.value.filename == str(tmp_path / "config.toml")


def test_a_full_disk_names_the_file_in_every_writer(tmp_path: Path) -> None:
    with full_disk(tmp_path / "disk") as disk:
        path = disk / "state.json"
        with pytest.raises(UserFileError) as info:
            write_atomic(path, "y" * 100_000)
        assert str(info.value) == f"cannot write {path}: No space left on device"
        assert info.value.filename == str(path)


def test_a_check_that_cannot_make_its_file_names_the_file(tmp_path: Path) -> None:
    """The lock is had (its file was there), but no file can be made beside it: a file
    system out of files, for `login`'s check before it stores a key."""
    with no_files_left(tmp_path / "disk", keep=(".config.toml.lock",)) as disk:
        path = disk / "config.toml"
        with pytest.raises(UserFileError) as info:
            check_writable(path)
    assert str(info.value) == f"cannot write {path}: No space left on device"
    assert info.value.filename == str(path)

"""The user's files read as untrusted input: the config, the state and layout files and a
baseline, each nested deeply, as a named pipe (never waited on), as a symbolic link (to a
regular file, to a pipe, to nothing) and over their size. Each is one line (config and
baseline: an error; state and layout: the documented warning or nothing), never a
RecursionError or a hang."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screen_analysis.config import ConfigError, read_config_file
from screen_analysis.file_reads import (
    MAX_NESTING,
    RefusedFile,
    kind_of,
    read_limited,
    size_words,
    too_deep,
)
from screen_analysis.gate import GateInputError, read_baseline
from screen_analysis.state import LayoutPreferences, RememberedProjects

API = "https://api.example.com"
DEEP_TOML = "a = " + "[" * 5000 + "]" * 5000 + "\n"
DEEP_JSON = "[" * 100_000 + "]" * 100_000
NESTED = f"nested more than {MAX_NESTING} levels deep"


@contextlib.contextmanager
def named_pipe(path: Path) -> Iterator[Path]:
    """A named pipe at `path`. A reader that waits for a writer (the bug) is let go at
    once, with an empty file, so a failing test fails instead of hanging the suite; having
    had to let one go fails the test."""
    os.mkfifo(path)
    done = threading.Event()
    rescued: list[bool] = []

    def let_go() -> None:
        while not done.wait(0.2):
            with contextlib.suppress(OSError):  # ENXIO: no reader is waiting
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                rescued.append(True)

    rescuer = threading.Thread(target=let_go, daemon=True)
    rescuer.start()
    try:
        yield path
    finally:
        done.set()
        rescuer.join()
    assert not rescued, "a read of the pipe waited for a writer"


def deep_object(levels: int) -> str:
    """JSON objects nested `levels` deep (a few levels more than any of our files)."""
    return '{"a": ' * levels + "1" + "}" * levels


# Config


@pytest.mark.parametrize(
    "text", [DEEP_TOML, "a = " + "{b = " * 40 + "1" + "}" * 40], ids=["arrays", "tables"]
)
def test_a_deeply_nested_config_is_one_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=NESTED) as raised:
        read_config_file(path)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


def test_a_named_pipe_as_the_config_is_refused_without_waiting(tmp_path: Path) -> None:
    with named_pipe(tmp_path / "config.toml") as path, pytest.raises(ConfigError, match="pipe"):
        read_config_file(path)


def test_a_config_link_to_a_regular_file_is_read_and_to_a_pipe_refused(tmp_path: Path) -> None:
    (tmp_path / "dotfiles").mkdir()
    target = tmp_path / "dotfiles" / "config.toml"
    target.write_text('theme = "x"\n')
    link = tmp_path / "config.toml"
    link.symlink_to(target)
    assert read_config_file(link) == {"theme": "x"}  # dotfile managers link it
    link.unlink()
    with named_pipe(tmp_path / "dotfiles" / "pipe") as pipe:
        link.symlink_to(pipe)
        with pytest.raises(ConfigError, match="named pipe"):
            read_config_file(link)
    link.unlink()
    link.symlink_to(tmp_path / "dotfiles" / "gone.toml")
    with pytest.raises(ConfigError, match=r"symbolic link to .*gone\.toml, which does not exist"):
        read_config_file(link)


def test_a_config_over_its_size_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# " + "x" * (2 * 1024 * 1024) + "\n")
    with pytest.raises(ConfigError, match="larger than 1 MiB"):
        read_config_file(path)


# Baseline


@pytest.mark.parametrize(
    "text", [DEEP_JSON, deep_object(MAX_NESTING + 2)], ids=["recursion", "limit"]
)
def test_a_deeply_nested_baseline_is_one_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "base.json"
    path.write_text(text)
    with pytest.raises(GateInputError, match=NESTED):
        read_baseline(path)


def test_a_named_pipe_as_the_baseline_is_refused_without_waiting(tmp_path: Path) -> None:
    with named_pipe(tmp_path / "base.json") as path, pytest.raises(GateInputError, match="pipe"):
        read_baseline(path)


def test_a_baseline_link_to_a_pipe_is_refused(tmp_path: Path) -> None:
    with named_pipe(tmp_path / "pipe") as pipe:
        link = tmp_path / "base.json"
        link.symlink_to(pipe)
        with pytest.raises(GateInputError, match="named pipe"):
            read_baseline(link)


# State and layout


@pytest.mark.parametrize(
    "text", [DEEP_JSON, deep_object(MAX_NESTING + 2)], ids=["recursion", "limit"]
)
def test_a_deeply_nested_state_file_is_the_damaged_file_warning(tmp_path: Path, text: str) -> None:
    path = tmp_path / "state.json"
    path.write_text(text)
    remembered = RememberedProjects(path, API)
    assert remembered.ids == ()
    assert remembered.problem is not None and NESTED in remembered.problem
    assert (tmp_path / "state.json.bad").read_text() == text, "moved aside, as it was"


def test_a_named_pipe_as_the_state_file_is_a_warning_and_left_alone(tmp_path: Path) -> None:
    with named_pipe(tmp_path / "state.json") as path:
        remembered = RememberedProjects(path, API)
        assert remembered.problem is not None and "named pipe" in remembered.problem
        remembered.add("proj_a")  # in memory only
        assert path.is_fifo() and remembered.ids == ("proj_a",)


def test_a_state_file_that_is_a_link_is_neither_read_nor_written_through(
    tmp_path: Path,
) -> None:
    """The app's own file: nothing links it on purpose, and a write through a planted link
    would overwrite another file of the user's with JSON."""
    precious = tmp_path / "precious.txt"
    precious.write_text(json.dumps({"servers": {API: ["proj_planted"]}}))
    before = precious.read_bytes()
    path = tmp_path / "state.json"
    path.symlink_to(precious)
    remembered = RememberedProjects(path, API)
    assert remembered.ids == ()
    assert remembered.problem is not None and "symbolic link" in remembered.problem
    remembered.add("proj_a")
    assert precious.read_bytes() == before and path.is_symlink()


def test_a_state_file_over_its_size_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"servers": {API: ["p" * 1000] * 10_000}}))
    remembered = RememberedProjects(path, API)
    assert remembered.problem is not None and "larger than" in remembered.problem


@pytest.mark.parametrize("kind", ["deep", "pipe", "link"])
def test_the_layout_file_is_read_defensively_and_never_written_through(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "layout.json"
    precious = tmp_path / "precious.txt"
    precious.write_text('{"sidebar_folded": true}')
    with contextlib.ExitStack() as stack:
        if kind == "deep":
            path.write_text(DEEP_JSON)
        elif kind == "pipe":
            stack.enter_context(named_pipe(path))
        else:
            path.symlink_to(precious)
        layout = LayoutPreferences(tmp_path / "state.json")
        assert layout.sidebar_folded is None
        layout.remember_sidebar(False)
    assert precious.read_text() == '{"sidebar_folded": true}'


def test_a_link_loop_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.symlink_to(path)
    with pytest.raises(ConfigError) as raised:
        read_config_file(path)
    assert os.strerror(errno.ELOOP) in str(raised.value) or "loop" in str(raised.value)


# The reader itself


def nested(levels: int, kind: type = list) -> object:
    """A value `levels` deep: `[[1]]` is two."""
    value: object = 1
    for _ in range(levels):
        value = [value] if kind is list else {"a": value}
    return value


@settings(max_examples=80, deadline=None)
@given(levels=st.integers(0, 45), limit=st.integers(1, 40), kind=st.sampled_from([list, dict]))
def test_too_deep_is_exactly_more_levels_than_the_limit(
    levels: int, limit: int, kind: type
) -> None:
    assert too_deep(nested(levels, kind), limit) is (levels > limit)
    # beside a plain value, looked at first, and inside the other kind of container
    assert too_deep([nested(levels, kind), 1], limit + 1) is (levels > limit)
    assert too_deep({"b": [nested(levels, kind)], "c": 1}, limit + 2) is (levels > limit)


@pytest.mark.parametrize(
    ("count", "words"),
    [
        (3 * 1024 * 1024, "3 MiB"),
        (1024 * 1024 + 1024, "1025 KiB"),
        (64 * 1024, "64 KiB"),
        (2048, "2 KiB"),
        (1536, "1536 bytes"),
        (300, "300 bytes"),
        (0, "0 bytes"),
    ],
)
def test_a_size_is_said_in_the_largest_whole_unit(count: int, words: str) -> None:
    assert size_words(count) == words


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        (stat.S_IFREG | 0o644, "a regular file"),
        (stat.S_IFDIR | 0o755, "a directory"),
        (stat.S_IFIFO | 0o600, "a named pipe (FIFO)"),
        (stat.S_IFSOCK | 0o600, "a socket"),
        (stat.S_IFCHR | 0o666, "a character device"),
        (stat.S_IFBLK | 0o660, "a block device"),
        (stat.S_IFLNK | 0o777, "a symbolic link"),
        (0, "not a regular file"),
    ],
)
def test_each_kind_of_file_is_named(mode: int, words: str) -> None:
    assert kind_of(mode) == words


def test_a_file_of_exactly_the_limit_is_read_whole_and_one_byte_more_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f"
    content = bytes(range(256)) * (10 * 1024)  # 2.5 MiB: read in more than one piece
    path.write_bytes(content)
    assert read_limited(path, max_bytes=len(content)) == content
    with pytest.raises(RefusedFile) as raised:
        read_limited(path, max_bytes=len(content) - 1)
    assert raised.value.reason == f"it is larger than {len(content) - 1} bytes"
    assert str(raised.value) == raised.value.reason
    assert read_limited(tmp_path / "none") is None


def test_a_file_that_fails_to_read_or_open_is_refused_in_the_systems_words(
    tmp_path: Path,
) -> None:
    with pytest.raises(RefusedFile) as raised:
        read_limited(Path("/proc/self/mem"))  # a regular file whose read fails (EIO)
    assert raised.value.reason == f"it cannot be read ({os.strerror(errno.EIO)})"
    (tmp_path / "plain").write_text("x")
    with pytest.raises(RefusedFile) as raised:
        read_limited(tmp_path / "plain" / "config.toml")
    assert raised.value.reason == f"it cannot be read ({os.strerror(errno.ENOTDIR)})"


def test_a_loop_of_links_and_a_link_not_followed_are_told_apart(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(RefusedFile) as raised:
        read_limited(loop)
    assert raised.value.reason == "its symbolic links loop"
    for path in (loop, loop / "state.json"):
        with pytest.raises(RefusedFile) as raised:
            read_limited(path, follow_links=False)
        assert raised.value.reason == "it is a symbolic link, which is not followed"


class LinkMadeAfterTheCheck(type(Path())):  # type: ignore[misc]
    """A path whose link appears between the check for one and the open: the race the
    open's O_NOFOLLOW closes (no real part can time it)."""

    def is_symlink(self) -> bool:
        return False


def test_a_link_made_after_the_check_is_still_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere"
    secret.write_text("not the app's")
    (tmp_path / "state.json").symlink_to(secret)
    with pytest.raises(RefusedFile) as raised:
        read_limited(LinkMadeAfterTheCheck(tmp_path / "state.json"), follow_links=False)
    assert raised.value.reason == "it is a symbolic link, which is not followed"


def test_a_pipe_the_app_does_not_follow_links_to_is_refused_without_waiting(
    tmp_path: Path,
) -> None:
    with named_pipe(tmp_path / "layout.json") as path, pytest.raises(RefusedFile) as raised:
        read_limited(path, follow_links=False)
    assert raised.value.reason == "it is a named pipe (FIFO), not a regular file"


def test_the_file_is_read_in_blocking_mode_after_the_open_that_never_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The open does not wait (a pipe); the read must (a file on a network or FUSE file
    system may answer a non-blocking read with EAGAIN, and the file would be refused)."""
    import fcntl

    seen: list[int] = []
    real_read = os.read

    def read(handle: int, size: int) -> bytes:
        seen.append(fcntl.fcntl(handle, fcntl.F_GETFL))
        return real_read(handle, size)

    monkeypatch.setattr(os, "read", read)
    (tmp_path / "config.toml").write_text("x")
    assert read_limited(tmp_path / "config.toml") == b"x"
    assert seen and not any(flags & os.O_NONBLOCK for flags in seen)

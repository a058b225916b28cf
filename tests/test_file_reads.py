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
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from screen_analysis.config import ConfigError, read_config_file
from screen_analysis.file_reads import MAX_NESTING
from screen_analysis.gate import GateInputError, read_baseline
from screen_analysis.state import LayoutPreferences, RememberedProjects

API = "https://api.example.com"
DEEP_TOML = "a = " + "[" * 5000 + "]" * 5000 + "\n"
DEEP_JSON = "[" * 100_000 + "]" * 100_000
NESTED = f"nested more than {MAX_NESTING} levels deep"


@contextlib.contextmanager
def named_pipe(path: Path) -> Iterator[Path]:
    """A named pipe at `path`. A reader that waits for a writer (the bug) is let go at
    once, with an empty file, so a failing test fails instead of hanging the suite."""
    os.mkfifo(path)
    done = threading.Event()

    def let_go() -> None:
        while not done.wait(0.2):
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    rescuer = threading.Thread(target=let_go, daemon=True)
    rescuer.start()
    try:
        yield path
    finally:
        done.set()
        rescuer.join()


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

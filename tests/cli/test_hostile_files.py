"""The installed command with hostile files in the user's places, in a process of its own
(a read that waits on a named pipe would hang it, not the suite): a deeply nested config or
baseline, a named pipe as either, a symbolic link in the cache's place. Each is the README's
one line and exit 2, never a RecursionError (exit 1) or a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from screen_analysis.cache import default_cache_path
from screen_analysis.config import default_config_path

DEEP_TOML = "a = " + "[" * 5000 + "]" * 5000 + "\n"
DEEP_JSON = "[" * 100_000 + "]" * 100_000


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`screen-analysis ARGS` in a process of its own, with the test's home."""
    return subprocess.run(
        [sys.executable, "-m", "screen_analysis", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "SCREEN_ANALYSIS_BASE_URL": "http://127.0.0.1:9"},
    )


def one_error(done: subprocess.CompletedProcess[str]) -> str:
    (line,) = done.stderr.splitlines()
    assert line.startswith("Error: ") and "Traceback" not in done.stderr
    return line


def test_a_deeply_nested_config_is_one_line_and_exit_2() -> None:
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(DEEP_TOML)
    done = run("analyses", "list")
    assert done.returncode == 2, done.stderr
    assert "nested more than" in one_error(done) and str(config) in done.stderr


@pytest.mark.parametrize("kind", ["deep", "pipe"])
def test_a_hostile_baseline_is_one_line_and_exit_2(tmp_path: Path, kind: str) -> None:
    baseline = tmp_path / "base.json"
    if kind == "deep":
        baseline.write_text(DEEP_JSON)
    else:
        os.mkfifo(baseline)
    try:
        done = run("check", "--baseline", str(baseline), "--max-drop", "1", timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the baseline read waited on the named pipe")
    assert done.returncode == 2, done.stderr
    words = "nested more than" if kind == "deep" else "named pipe"
    assert words in one_error(done)


def test_a_named_pipe_as_the_config_is_one_line_and_exit_2() -> None:
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(config)
    try:
        done = run("analyses", "list", timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the config read waited on the named pipe")
    assert done.returncode == 2 and "named pipe" in one_error(done)


def test_a_symlink_in_the_caches_place_is_one_line_for_info_and_clear(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    other.write_bytes(b"")
    cache = default_cache_path()
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.symlink_to(other)
    for args in (("cache", "info"), ("cache", "clear", "--all")):
        done = run(*args)
        assert done.returncode == 2, done.stderr
        assert "symbolic link" in one_error(done)
    assert other.read_bytes() == b"" and cache.is_symlink()

"""The installed console script, as a user runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

EXE = shutil.which("screen-analysis") or ""
pytestmark = pytest.mark.skipif(not EXE, reason="console script not installed")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120)


def test_demo_jsonl_count_equals_demo_total():
    total = json.loads(run("--demo", "analyses", "list", "--format", "json", "--limit", "1").stdout)
    assert len(total) == 1
    result = run("--demo", "analyses", "list", "--all", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    ids = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    assert len(ids) == len(set(ids)) == 5000


def test_closed_pipe_is_quiet():
    shell = f"'{EXE}' --demo analyses list --all --format jsonl | head -n 1"
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) == 1


def test_help_and_version():
    assert run("--help").returncode == 0
    assert run("--version").stdout.startswith("screen-analysis, version ")
    assert sys.executable


def test_a_command_that_ends_at_once_never_crashes():
    # A program that ends at once (help, version, a usage error) exits cleanly every time
    # (seen: a segmentation fault in about a quarter of `--help` runs while a thread built
    # the TLS context at exit; no thread is started now, tests/test_startup_imports.py).
    for args in [("--help",), ("--version",), ("--no-such-flag",)] * 7:
        result = run(*args)
        assert result.returncode in (0, 2), (args, result.returncode, result.stderr[-300:])

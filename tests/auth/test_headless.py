"""Over SSH with no D-Bus session: the real command line, keyring discovery included, says so
in one line within seconds (a fresh process, so keyring picks its backend as a user's would)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

TIME_LIMIT_S = 10  # generous: it includes starting Python


def run_headless(
    *args: str, stdin: str = "", backend: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DBUS_", "SCREEN_ANALYSIS_"))}
    env.pop("PYTHON_KEYRING_BACKEND", None)
    if backend:
        env["PYTHON_KEYRING_BACKEND"] = backend
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "screen_analysis", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=TIME_LIMIT_S * 3,
        check=False,
    )
    assert time.monotonic() - started < TIME_LIMIT_S
    return result


@pytest.mark.parametrize("backend", [None, "keyring.backends.SecretService.Keyring"])
def test_login_without_dbus_is_one_clear_line(backend: str | None) -> None:
    result = run_headless(
        "login",
        "--base-url",
        "http://127.0.0.1:9",
        "--api-key-stdin",
        stdin="sk-headless-0000000000\n",
        backend=backend,
    )
    assert result.returncode == 3
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "No usable keyring" in lines[0] and "D-Bus" in lines[0]
    assert "SCREEN_ANALYSIS_API_KEY" in lines[0] and "--insecure-storage" in lines[0]
    assert "sk-headless" not in result.stdout + result.stderr


def test_status_without_dbus_is_one_clear_line() -> None:
    result = run_headless("auth", "status", "--base-url", "https://api.example.com")
    assert result.returncode == 3
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "D-Bus" in result.stderr and "screen-analysis login --insecure-storage" in result.stderr


def test_insecure_storage_works_without_dbus(demo_server) -> None:
    result = run_headless(
        "login",
        "--base-url",
        demo_server.base_url,
        "--api-key-stdin",
        "--insecure-storage",
        stdin=f"{demo_server.api_key}\n",
    )
    assert result.returncode == 0, result.stderr
    assert "Warning:" in result.stderr
    keys = Path(os.environ["XDG_DATA_HOME"]) / "screen-analysis" / "credentials" / "api-keys.json"
    assert keys.is_file()

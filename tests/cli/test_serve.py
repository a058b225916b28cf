"""`screen-analysis serve`: starts on loopback, answers a GET, stops; refuses an unknown theme."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from screen_analysis.cli.root import cli
from screen_analysis.cli.serve import DEFAULT_HOST, is_loopback

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_serve_binds_loopback_and_answers_a_get() -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "screen_analysis", "serve", "--demo", "--port", str(port)],
        cwd=REPO,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.2)
        assert response.status_code == 200
        assert "<html" in response.text.lower()
        assert f"ws://127.0.0.1:{port}/ws" in response.text
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def test_serve_listens_on_loopback_by_default() -> None:
    assert DEFAULT_HOST == "127.0.0.1"
    assert is_loopback(DEFAULT_HOST) and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.com")


def test_serve_refuses_an_unknown_theme() -> None:
    result = CliRunner().invoke(cli, ["--theme", "no-such-theme", "serve"])
    assert result.exit_code == 2
    assert "unknown theme" in result.output

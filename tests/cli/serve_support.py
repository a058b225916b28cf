"""A real `screen-analysis serve --demo` in a process of its own, for the serve tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
TOKEN = "test-token-0123456789abcdef"


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class Served:
    """A running `serve`: where it listens, its token and what it printed so far."""

    port: int
    token: str
    process: subprocess.Popen[bytes]

    @property
    def origin(self) -> str:
        """The served address as a browser's Origin header names it."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def cookie(self) -> dict[str, str]:
        """The cookie a browser keeps after opening the printed address."""
        return {f"screen-analysis-token-{self.port}": self.token}


def home_env(home: Path) -> dict[str, str]:
    """This environment with HOME and the XDG folders under `home` (nothing of the user's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCREEN_ANALYSIS_")}
    env["HOME"] = str(home)
    for name, sub in (("CONFIG", ".config"), ("DATA", ".local/share"), ("CACHE", ".cache")):
        env[f"XDG_{name}_HOME"] = str(home / sub)
    return env


@contextmanager
def running_serve(home: Path, *extra: str, token: str | None = TOKEN) -> Iterator[Served]:
    """`serve --demo` on a free port, its HOME and XDG folders in `home`; stopped afterwards."""
    port = free_port()
    args = [sys.executable, "-m", "screen_analysis", "serve", "--demo", "--port", str(port)]
    if token is not None:
        args += ["--token", token]
    process = subprocess.Popen(
        [*args, *extra],
        cwd=REPO,
        env=home_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.2)
        yield Served(port, token or "", process)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)

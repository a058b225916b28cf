"""Stoplight Prism in a process of its own, answering from docs/openapi-documented.json alone.

The independent server of the e2e tier: nobody on this project wrote it, and in dynamic mode
(`prism mock --dynamic`) every answer is random data the document allows (negative and huge
integers, dates in 1900, ids and cursors of random words, optional fields missing, arrays
of any length whatever `limit` asked). Prism is installed at the version locked in
package-lock.json beside this file (`npm ci`, which .ci/run does); nothing is fetched while
the tests run.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from tests.cli.serve_support import free_port

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PRISM = HERE / "node_modules" / ".bin" / "prism"
DOCUMENT = ROOT / "docs" / "openapi-documented.json"
KEY = "sk-prism-test-0123456789abcdef"  # obviously fake: Prism checks only that one is sent
INSTALL = "cd tests/mock_server && npm ci (what .ci/run does)"
READY_TIMEOUT_S = 60.0  # node's start and the document's parsing, on a busy machine


def missing() -> str | None:
    """Why Prism cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return f"node is not installed (apt install nodejs npm), then {INSTALL}"
    if not PRISM.exists():
        return f"Prism is not installed: {INSTALL}"
    return None


@dataclass(frozen=True)
class MockServer:
    """A running Prism: where it listens, the key to send, and its log file."""

    base_url: str
    key: str
    log: Path

    def env(self) -> dict[str, str]:
        """The environment a `screen-analysis` process needs to talk to it."""
        return {"SCREEN_ANALYSIS_BASE_URL": self.base_url, "SCREEN_ANALYSIS_API_KEY": self.key}


@contextmanager
def running_prism(work: Path) -> Iterator[MockServer]:
    """Prism in dynamic mode on a free loopback port, its output in `work/prism.log`;
    yielded once it answers a request, stopped (its whole process group) afterwards."""
    port = free_port()
    log = work / "prism.log"
    command = [
        str(PRISM),
        "mock",
        "--dynamic",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--verboseLevel",
        "warn",  # the per-request info lines cost the shared CPU and say nothing we read
        str(DOCUMENT),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=HERE,
            start_new_session=True,
        )
    server = MockServer(f"http://127.0.0.1:{port}", KEY, log)
    try:
        _wait_until_answering(process, server)
        yield server
    finally:
        _stop(process)


def _wait_until_answering(process: subprocess.Popen[bytes], server: MockServer) -> None:
    """Ask for a project until Prism answers 200, with a deadline; fail with its log when it
    exits or the deadline passes."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    headers = {"Authorization": f"Bearer {server.key}"}
    url = f"{server.base_url}/v1/projects/proj_ready"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Prism exited with {process.returncode}:\n{_tail(server.log)}")
        try:
            if httpx.get(url, headers=headers, timeout=2.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)  # between polls of a port not open yet
    raise RuntimeError(f"Prism did not answer within {READY_TIMEOUT_S:g} s:\n{_tail(server.log)}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to Prism's process group, SIGKILL if it is still there after 10 s."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def _tail(log: Path) -> str:
    return log.read_text(encoding="utf-8", errors="replace")[-2000:]

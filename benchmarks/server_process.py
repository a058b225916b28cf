"""The reference server in a process of its own, so it never competes for the GIL.

In a thread of the measuring process, the server would wait for the interpreter lock
whenever the app under test is busy rendering, and each request would look slower than the
network it stands for. `ServerProcess` runs `DemoServer` in a child process and answers for
its address, its key and its request log over a pipe, and takes a new latency there.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any

from screen_analysis.demo.config import DemoConfig

START_TIMEOUT_S = 120.0


def _serve(config: DemoConfig, pipe: Connection) -> None:
    """Child process: serve until told to stop; answer requests for the log."""
    from screen_analysis.demo.runner import DemoServer

    with DemoServer(config) as server:
        pipe.send((server.base_url, server.api_key))
        while True:
            command = pipe.recv()
            if command == "log":
                pipe.send([(r.method, r.path, dict(r.query), r.status) for r in server.request_log])
            elif command == "stop":
                break
            else:  # ("latency", milliseconds): every answer from now on waits that long
                server.faults.latency_ms = float(command[1])
                pipe.send(None)


class ServerProcess:
    """`DemoServer(config)` in a child process; use as a context manager."""

    def __init__(self, config: DemoConfig) -> None:
        self.config = config
        self.base_url = ""
        self.api_key = ""
        context = multiprocessing.get_context("spawn")
        self._pipe, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(self.config, child), daemon=True)

    def __enter__(self) -> ServerProcess:
        self._process.start()
        if not self._pipe.poll(START_TIMEOUT_S):
            self._process.kill()
            raise RuntimeError("the reference server did not start")
        self.base_url, self.api_key = self._pipe.recv()
        return self

    def request_log(self) -> list[tuple[str, str, dict[str, Any], int]]:
        """(method, path, query, status) of every request served so far."""
        self._pipe.send("log")
        log: list[tuple[str, str, dict[str, Any], int]] = self._pipe.recv()
        return log

    def set_latency(self, milliseconds: float) -> None:
        """Every answer from now on waits `milliseconds` (requests already waiting keep theirs)."""
        self._pipe.send(("latency", milliseconds))
        self._pipe.recv()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        with contextlib.suppress(OSError):
            self._pipe.send("stop")
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()

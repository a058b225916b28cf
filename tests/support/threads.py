"""Threads a test started must end: told to stop, some end a moment later (AnyIO's idle
worker threads stop just after the server that used them)."""

from __future__ import annotations

import threading
import time


def threads_left(before: set[threading.Thread], *, within_s: float = 5.0) -> set[threading.Thread]:
    """The threads not in `before` that are still running after waiting up to `within_s`."""
    deadline = time.monotonic() + within_s
    while True:
        left = set(threading.enumerate()) - before
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)

"""Run one measurement in a fresh child process.

`tracemalloc` counts every allocation of the process, whichever thread makes it. In a
process that also runs other things (a test session with a reference server in a thread,
the live demo's ticker), their allocations land in the figure. A spawned child has only
the measurement's own threads.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def in_fresh_process(function: Callable[..., T], *args: object) -> T:
    """`function(*args)` in a spawned child; its result (both must pickle)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(function, *args).result()

"""The local cache at 100,000 analyses: its size on disk per analysis against the JSON the
server sent for them, and how long reading back a view takes (the app's first paint from
the cache: 100 rows; a long scroll: 5,000).

The analyses come from the reference server (in its own process) through the client, as
the app would have loaded them; they are kept as one view of all projects and statuses.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import Analysis
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.demo.config import DemoConfig
from screen_analysis.secret import SecretStr

from .server_process import ServerProcess

ANALYSES = 100_000


async def fill(cache: LocalCache, base_url: str, api_key: str) -> tuple[int, list[Analysis]]:
    """Every page of the listing into the cache as one view; the bytes of JSON the server
    sent, and the first 5,000 analyses."""
    sent = 0
    first = True
    head: list[Analysis] = []
    client = ScreenAnalysisClient(base_url, SecretStr(api_key))
    async with client, client.iter_raw_pages(limit=100, prefetch=True) as walk:
        async for page in walk:
            sent += sum(len(json.dumps(row, separators=(",", ":"))) for row in page.data)
            items = [Analysis.model_validate(row) for row in page.data]
            if len(head) < 5_000:
                head.extend(items)
            cache.store_page(None, None, items, total=page.total, done=False, first=first)
            first = False
    return sent, head


def timed_read(cache: LocalCache, status: str, repeats: int = 5) -> float:
    """The quickest of `repeats` reads of a view, in ms."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        assert cache.view(None, status) is not None
        best = min(best, time.perf_counter() - start)
    return round(best * 1000, 1)


def run(analyses: int = ANALYSES) -> dict[str, Any]:
    """Fill a cache with `analyses` and measure it."""
    config = DemoConfig(analyses=analyses, seed=7)
    with ServerProcess(config) as server, tempfile.TemporaryDirectory() as home:
        path = Path(home) / "cache.sqlite3"
        cache = LocalCache(CacheScope("bench"), path=path, max_analyses=analyses, max_mb=10_000)
        sent, head = asyncio.run(fill(cache, server.base_url, server.api_key))
        cache.flush()
        reads = {}
        for rows in (100, 5_000):  # views of that many rows (the rows are shared)
            cache.store_page(None, f"first-{rows}", head[:rows], total=None, done=False, first=True)
            cache.flush()
            reads[f"read_{rows}_rows_ms"] = timed_read(cache, f"first-{rows}")
        cache.close()  # the WAL is checkpointed into the file: its size is the cache's
        size = sum(f.stat().st_size for f in Path(home).glob("cache.sqlite3*"))
    return {
        "analyses": analyses,
        "bytes": size,
        "bytes_per_analysis": round(size / analyses),
        "json_bytes_per_analysis": round(sent / analyses),
        "ratio": round(size / sent, 2),
        **reads,
    }


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """`python -m benchmarks.cache_size [ANALYSES]`."""
    print(json.dumps(run(int(argv[0]) if argv else ANALYSES)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The project overview over every analysis against a bare walk of the same pages.

Both sides use the API client's one walk (`iter_pages`, 100 a page, the next page asked
for early, the ids of the last few pages remembered) against the same reference server in
its own process; the bare walk drops each page, the overview adds each to running
aggregates (`insight`). Figures:

- time: the quickest of the repeats of each, interleaved; ratio overview / bare walk
  (target ≤ 1.2);
- peak memory under `tracemalloc`, each side in a fresh process of its own (client side
  only: the server is another process), of a walk that keeps nothing against the
  overview's; and what the overview still holds at the end (the `Overview` and the
  builder), which must not grow with the analyses;
- the longest single `add_page` (the aggregation's share of one event-loop turn).
"""

from __future__ import annotations

import asyncio
import gc
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from typing import Any

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import AnalysisItem
from screen_analysis.insight.aggregates import OverviewBuilder
from screen_analysis.insight.collect import DEDUP_PAGES, fill
from screen_analysis.secret import SecretStr

from .fresh_process import in_fresh_process

TARGET_TIME_RATIO = 1.2


class TimedBuilder(OverviewBuilder):
    """An overview builder that notes its longest `add_page`."""

    longest_s = 0.0

    def add_page(self, items: Any, total: int | None = None) -> None:
        """Add the page, timing it."""
        started = time.perf_counter()
        super().add_page(items, total)
        self.longest_s = max(self.longest_s, time.perf_counter() - started)


async def bare_walk(client: ScreenAnalysisClient) -> int:
    """Every page, each dropped at once; the number of analyses."""
    count = 0
    # The overview's own walk (the same de-duplication window), each page dropped.
    async with client.iter_pages(limit=100, prefetch=True, dedup_window=DEDUP_PAGES) as pages:
        async for page in pages:
            items: list[AnalysisItem] = page.items
            count += len(items)
    return count


async def overview_walk(client: ScreenAnalysisClient) -> TimedBuilder:
    """Every page into the aggregates (all projects, with a row per project, as the app and
    the report build it)."""
    builder = TimedBuilder(by_project=True)
    await fill(client, builder)
    builder.result()
    return builder


async def _timed(base_url: str, key: str, walk: Callable[..., Awaitable[Any]]) -> float:
    async with ScreenAnalysisClient(base_url, SecretStr(key), max_retries=0) as client:
        await client.list_analyses(limit=1)  # connection open before the clock starts
        started = time.perf_counter()
        await walk(client)
        return time.perf_counter() - started


async def _peak(base_url: str, key: str, walk: Callable[..., Awaitable[Any]]) -> tuple[int, int]:
    """Peak traced bytes during the walk, and bytes its result still holds afterwards."""
    async with ScreenAnalysisClient(base_url, SecretStr(key), max_retries=0) as client:
        await client.list_analyses(limit=1)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            result = await walk(client)
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
            peak = tracemalloc.get_traced_memory()[1] - before
        finally:
            tracemalloc.stop()
        del result
    return peak, held


def peak(base_url: str, key: str, walk: str) -> tuple[int, int]:
    """`_peak` of the named walk ("bare" or "overview"), for a fresh process."""
    return asyncio.run(_peak(base_url, key, bare_walk if walk == "bare" else overview_walk))


async def run_async(base_url: str, key: str, repeats: int) -> dict[str, Any]:
    """Every figure against the server at `base_url`."""
    bare_times, overview_times = [], []
    for _ in range(repeats):
        bare_times.append(await _timed(base_url, key, bare_walk))
        overview_times.append(await _timed(base_url, key, overview_walk))
    async with ScreenAnalysisClient(base_url, SecretStr(key)) as client:
        builder = await overview_walk(client)
    bare_peak, _ = in_fresh_process(peak, base_url, key, "bare")
    overview_peak, overview_held = in_fresh_process(peak, base_url, key, "overview")
    bare_s, overview_s = min(bare_times), min(overview_times)
    ratio = overview_s / bare_s
    return {
        "analyses": builder.seen,
        "bare_walk_s": round(bare_s, 3),
        "overview_s": round(overview_s, 3),
        "ratio": round(ratio, 3),
        "longest_add_page_ms": round(builder.longest_s * 1000, 3),
        "bare_peak_bytes": bare_peak,
        "overview_peak_bytes": overview_peak,
        "overview_held_bytes": overview_held,
        "memory_ratio": round(overview_peak / max(bare_peak, 1), 3),
        "targets": {f"time ≤ {TARGET_TIME_RATIO}×": ratio <= TARGET_TIME_RATIO},
    }


def run(base_url: str, key: str, repeats: int = 2) -> dict[str, Any]:
    """`run_async` in a fresh event loop."""
    return asyncio.run(run_async(base_url, key, repeats))


def main() -> None:
    """`python -m benchmarks.overview [ANALYSES] [REPEATS]`: the figures as JSON."""
    import json
    import sys

    from screen_analysis.demo.config import DemoConfig

    from .server_process import ServerProcess

    analyses = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    with ServerProcess(DemoConfig(analyses=analyses, seed=7)) as server:
        print(json.dumps(run(server.base_url, server.api_key, repeats), indent=2))


if __name__ == "__main__":
    main()

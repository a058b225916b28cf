"""Memory per loaded row: the parsed models, and the table holding them, vs. plain dicts.

The pages are fetched from the reference server first and kept as bytes for the whole run,
so no side is charged for the response bodies. With `tracemalloc` tracing, each side then
builds what it keeps from the same bytes, in a fresh process of its own:

- baseline: `json.loads` of each page, the `data` lists kept (what a dict-based client holds);
- models: each page parsed by the API client's `parse_page` (pydantic dataclasses with
  slots), the items kept and the page objects dropped;
- table: the same pages appended to an `AnalysesTable` mounted in a headless app; the page
  objects are dropped, as the app drops them, and the table's own bookkeeping (row list,
  id index, line cache) is counted.

Each figure is the traced memory still allocated afterwards (after a full collection),
divided by the rows, and reported as a ratio to the baseline of the same run.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tracemalloc
from collections.abc import Sequence
from typing import Any

import httpx

from screen_analysis.api.parsing import parse_page
from screen_analysis.tui.widgets.table import AnalysesTable

from .fresh_process import in_fresh_process
from .table_append import SCREEN, BenchApp

TARGET_RATIO = 2.0  # the table, with its bookkeeping
MODELS_TARGET_RATIO = 1.0  # the parsed rows alone


def fetch_pages(base_url: str, api_key: str, rows: int) -> list[bytes]:
    """The raw bodies of the first `rows` analyses, 100 a page."""
    bodies: list[bytes] = []
    after: str | None = None
    fetched = 0
    headers = {"Authorization": f"Bearer {api_key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
        while fetched < rows:
            params: dict[str, Any] = {"limit": 100}
            if after:
                params["after"] = after
            response = client.get("/v1/analyses", params=params)
            response.raise_for_status()
            bodies.append(response.content)
            page = response.json()
            fetched += len(page["data"])
            after = page["next_cursor"]
            if after is None:
                break
    return bodies


def _traced(before: int) -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0] - before


def dicts_bytes(bodies: Sequence[bytes]) -> tuple[int, int]:
    """(bytes, rows) held by the pages' analyses as plain dicts."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        held = [json.loads(body)["data"] for body in bodies]
        size = _traced(before)
        rows = sum(len(page) for page in held)
        del held
    finally:
        tracemalloc.stop()
    return size, rows


def _validator_built(bodies: Sequence[bytes]) -> None:
    """pydantic imported and the resources' validator built, once per process (the models
    import without it): a cost of the process, not of the rows held."""
    parse_page(bodies[0], request="GET /v1/analyses")


def models_bytes(bodies: Sequence[bytes]) -> tuple[int, int]:
    """(bytes, rows) held by the pages' items as parsed by the API client."""
    _validator_built(bodies)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        held = [parse_page(body, request="GET /v1/analyses").items for body in bodies]
        size = _traced(before)
        rows = sum(len(items) for items in held)
        del held
    finally:
        tracemalloc.stop()
    return size, rows


async def table_bytes(bodies: Sequence[bytes]) -> tuple[int, int]:
    """(bytes, rows) held by an AnalysesTable after appending the parsed pages."""
    app = BenchApp("AnalysesTable")
    async with app.run_test(size=SCREEN) as pilot:
        table = app.query_one(AnalysesTable)
        await pilot.pause()
        _validator_built(bodies)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for body in bodies:
                page = parse_page(body, request="GET /v1/analyses")
                table.append_items(page.items)
                del page
            await pilot.pause()  # the table paints, filling its line cache
            size = _traced(before)
        finally:
            tracemalloc.stop()
        return size, len(table.items)


def table_bytes_sync(bodies: Sequence[bytes]) -> tuple[int, int]:
    """`table_bytes` in its own event loop, for a fresh process."""
    return asyncio.run(table_bytes(bodies))


def run(bodies: Sequence[bytes]) -> dict[str, Any]:
    """Both measurements on the same bodies, each in a fresh process; figures as a dict."""
    plain, rows = in_fresh_process(dicts_bytes, list(bodies))
    models, model_rows = in_fresh_process(models_bytes, list(bodies))
    ours, table_rows = in_fresh_process(table_bytes_sync, list(bodies))
    assert rows == model_rows == table_rows, (rows, model_rows, table_rows)
    ratio = ours / plain
    models_ratio = models / plain
    return {
        "rows": rows,
        "table_bytes_per_row": round(ours / rows),
        "model_bytes_per_row": round(models / rows),
        "dict_bytes_per_row": round(plain / rows),
        "ratio": round(ratio, 2),
        "models_ratio": round(models_ratio, 2),
        "targets": {
            f"ratio <= {TARGET_RATIO:g}": ratio <= TARGET_RATIO,
            f"models ratio <= {MODELS_TARGET_RATIO:g}": models_ratio <= MODELS_TARGET_RATIO,
        },
    }


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """`python -m benchmarks.memory [ROWS]` (20,000 by default) against a reference server
    in its own process; the figures as JSON."""
    from screen_analysis.demo.config import DemoConfig

    from .server_process import ServerProcess

    rows = int(argv[0]) if argv else 20_000
    with ServerProcess(DemoConfig(analyses=rows, seed=7)) as server:
        bodies = fetch_pages(server.base_url, server.api_key, rows)
    print(json.dumps(run(bodies)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

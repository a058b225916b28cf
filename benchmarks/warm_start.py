"""First rows from a warm local cache against a far server: the app vs. the baseline app.

The reference server (in its own process) answers every request after 150 ms. The app
starts with its local cache filled by a discarded warm-up run (what a user has after their
first session), so its first rows come from the cache while it asks the server; the
baseline, a minimal Textual + httpx app, can only paint what the server sends. The same
harness as `cold_start` (a pseudo-terminal, the clock stopped when a row's label is on the
terminal, alternating runs, medians). Target: at most 0.6× the baseline's time.

Beside it, the same app without its cache (`--no-cache`) against the same far server: the
time the cache saves the app itself (its rows painted before its first request is even
answered).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from screen_analysis.demo.config import DemoConfig

from . import cold_start
from .server_process import ServerProcess

LATENCY_MS = 150
TARGET_RATIO = 0.6


def run(repeats: int = 5) -> dict[str, Any]:
    """Warm starts against the baseline, `repeats` alternating pairs."""
    config = DemoConfig(analyses=5000, seed=7, latency_ms=LATENCY_MS)
    with ServerProcess(config) as server:
        figures = cold_start.run(
            server.base_url, server.api_key, repeats, cache=True, target=TARGET_RATIO
        )
        cold = cold_start.run(server.base_url, server.api_key, repeats, cache=False)
    figures["latency_ms"] = LATENCY_MS
    figures["app_without_cache_s"] = cold["app_s"]
    figures["warm_to_cold"] = round(figures["app_s"] / cold["app_s"], 3)
    return figures


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """`python -m benchmarks.warm_start [REPEATS]`."""
    print(json.dumps(run(int(argv[0]) if argv else 5)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The start against the right floor: how much of the wait is ours.

Two figures, each a fresh interpreter per run on a pseudo-terminal (the harness of
`cold_start`: the clock stops when a row of the first page other than the first is on the
terminal), the two contenders alternating, one discarded warm-up each (byte code written,
the app's local cache filled), a pause before each run:

- **Warm start**: the app with its local cache filled, the reference server answering
  every request after 400 ms, against the *local floor* (`benchmarks/local_app.py`), a
  minimal Textual app that fills a DataTable from the same page kept in a JSON file, with
  no network at all. Once the data is on this machine, neither needs the server for its
  first rows: the ratio is what our own start costs over Textual's.
- **Cold start**: the app without its cache against the minimal Textual + httpx app
  (`benchmarks/baseline_app.py`), the server answering at once.

Each figure is the median of the pairs' ratios (a run of the app over the run of its
floor that followed it), with the medians of the times beside it. Target: ≤ 1.15 each.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from screen_analysis.demo.config import DemoConfig

from . import cold_start
from .server_process import ServerProcess

LATENCY_MS = 400
TARGET_RATIO = 1.15
ANALYSES = 5000


def write_first_page(base_url: str, api_key: str, path: Path) -> None:
    """The listing's first page (100 rows), as the server sent it, into `path`."""
    response = httpx.get(
        f"{base_url}/v1/analyses",
        params={"limit": 100},
        headers={"Authorization": f"Bearer {api_key}"},
        timeout=30,
    )
    response.raise_for_status()
    path.write_bytes(response.content)


def pairs(
    argvs: Mapping[str, Sequence[str]], env: dict[str, str], needle: bytes, repeats: int
) -> dict[str, Any]:
    """`repeats` alternating runs of the two contenders (`app` first, then `floor`), after
    a warm-up of each; the figures."""
    times: dict[str, list[float]] = {name: [] for name in argvs}
    cpu: dict[str, list[float]] = {name: [] for name in argvs}
    for argv in argvs.values():  # warm-up: byte code, local cache, the key taken
        cold_start.time_to_bytes(argv, env, needle, settle_s=cold_start.WARM_UP_SETTLE_S)
    for _ in range(repeats):
        for name, argv in argvs.items():
            time.sleep(cold_start.SETTLE_S)
            wall, used = cold_start.time_to_bytes(argv, env, needle)
            times[name].append(wall)
            cpu[name].append(used)
    ratios = [a / f for a, f in zip(times["app"], times["floor"], strict=True)]
    cpu_ratios = [a / f for a, f in zip(cpu["app"], cpu["floor"], strict=True)]
    ratio = statistics.median(ratios)
    return {
        "app_s": round(statistics.median(times["app"]), 3),
        "floor_s": round(statistics.median(times["floor"]), 3),
        "app_runs_s": [round(t, 3) for t in times["app"]],
        "floor_runs_s": [round(t, 3) for t in times["floor"]],
        "ratio": round(ratio, 3),
        "pair_ratios": [round(r, 3) for r in ratios],
        "cpu_ratio": round(statistics.median(cpu_ratios), 3),
        "targets": {f"ratio <= {TARGET_RATIO:g}": ratio <= TARGET_RATIO},
    }


def warm(repeats: int) -> dict[str, Any]:
    """The app's warm start, server at 400 ms, against the local floor."""
    config = DemoConfig(analyses=ANALYSES, seed=7, latency_ms=LATENCY_MS)
    with ServerProcess(config) as server, tempfile.TemporaryDirectory(prefix="floor-") as home:
        needle = cold_start.needle_for(server.base_url, server.api_key)
        page = Path(home) / "page.json"
        write_first_page(server.base_url, server.api_key, page)
        env = cold_start.child_env(server.api_key, Path(home))
        app = cold_start.commands(server.base_url, cache=True)["app"]
        floor = [sys.executable, "-m", "benchmarks.local_app", str(page)]
        figures = pairs({"app": app, "floor": floor}, env, needle, repeats)
    figures["latency_ms"] = LATENCY_MS
    return figures


def cold(repeats: int) -> dict[str, Any]:
    """The app without its cache against the minimal Textual + httpx app, no latency."""
    with (
        ServerProcess(DemoConfig(analyses=ANALYSES, seed=7)) as server,
        tempfile.TemporaryDirectory(prefix="floor-") as home,
    ):
        needle = cold_start.needle_for(server.base_url, server.api_key)
        env = cold_start.child_env(server.api_key, Path(home))
        argvs = cold_start.commands(server.base_url, cache=False)
        contenders = {"app": argvs["app"], "floor": argvs["baseline"]}
        return pairs(contenders, env, needle, repeats)


def run(repeats: int = 9) -> dict[str, Any]:
    """Both figures, `repeats` alternating pairs each."""
    return {"warm": warm(repeats), "cold": cold(repeats), "repeats": repeats}


def summary_rows(figures: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """The two lines of the full run's table."""
    warm_figures, cold_figures = figures["warm"], figures["cold"]
    pairs_run = f"{figures['repeats']} pairs"
    return [
        (
            f"Warm start, server at {warm_figures['latency_ms']} ms ({pairs_run})",
            f"{warm_figures['app_s'] * 1000:.0f} ms",
            f"{warm_figures['floor_s'] * 1000:.0f} ms (DataTable from a local JSON file)",
            f"{warm_figures['ratio']:.2f}",
            _target(warm_figures),
        ),
        (
            f"Cold start, server at 0 ms ({pairs_run})",
            f"{cold_figures['app_s'] * 1000:.0f} ms",
            f"{cold_figures['floor_s'] * 1000:.0f} ms (Textual + httpx app)",
            f"{cold_figures['ratio']:.2f}",
            _target(cold_figures),
        ),
    ]


def _target(figures: dict[str, Any]) -> str:
    met = "met" if all(figures["targets"].values()) else "NOT met"
    cpu = f"CPU {figures['cpu_ratio']:.2f}"
    return f"≤ {TARGET_RATIO:g} (median of the pairs' ratios): {met}; {cpu}"


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """`python -m benchmarks.floor [REPEATS]` (9 pairs each by default)."""
    print(json.dumps(run(int(argv[0]) if argv else 9)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

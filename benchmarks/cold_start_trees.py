"""Cold start of several versions of the app against the baseline, in the same runs.

`python -m benchmarks.cold_start_trees [--latency-ms=MS] PAIRS NAME=SRC [NAME=SRC ...]` runs
`python -m screen_analysis --no-cache` (no local cache: the first rows are the server's)
with each SRC (a copy of a version's `src/` folder with its
`themes/` beside it, as in a checkout: `git archive COMMIT src themes | tar -x -C DIR`, then
`DIR/src`) first on `PYTHONPATH`, and the baseline app, one
after another in rounds, as `cold_start` does (a warm-up each, byte code kept per version,
a pause before every run). Prints each version's median wall and CPU time and their ratios
to the baseline's, as JSON: a change's cost measured beside what it changed, on a machine
whose load moves every figure.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from .cold_start import ROOT, SETTLE_S, child_env, needle_for, time_to_bytes


def run(base_url: str, api_key: str, pairs: int, trees: dict[str, str]) -> dict[str, object]:
    """Each version and the baseline `pairs` times, alternating; figures by name."""
    needle = needle_for(base_url, api_key)
    with tempfile.TemporaryDirectory(prefix="cold-start-trees-") as home:
        env = child_env(api_key, Path(home))
        contenders = {
            name: (
                [sys.executable, "-m", "screen_analysis", "--base-url", base_url, "--no-cache"],
                dict(env, PYTHONPATH=src, PYTHONPYCACHEPREFIX=f"{home}/pycache-{name}"),
            )
            for name, src in trees.items()
        }
        contenders["baseline"] = (
            [sys.executable, "-m", "benchmarks.baseline_app", base_url],
            dict(env, PYTHONPATH=str(ROOT)),
        )
        for argv, child in contenders.values():
            time_to_bytes(argv, child, needle)  # warm-up: byte code and disk cache
        wall: dict[str, list[float]] = {name: [] for name in contenders}
        cpu: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(pairs):
            for name, (argv, child) in contenders.items():
                time.sleep(SETTLE_S)
                spent, used = time_to_bytes(argv, child, needle)
                wall[name].append(spent)
                cpu[name].append(used)
    base_wall = statistics.median(wall["baseline"])
    base_cpu = statistics.median(cpu["baseline"])
    return {
        name: {
            "wall_ms": round(1000 * statistics.median(wall[name])),
            "cpu_ms": round(1000 * statistics.median(cpu[name])),
            "wall_ratio": round(statistics.median(wall[name]) / base_wall, 3),
            "cpu_ratio": round(statistics.median(cpu[name]) / base_cpu, 3),
        }
        for name in contenders
    }


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """Against a reference server with 5,000 analyses in its own process, answering at once
    or after `--latency-ms`."""
    from screen_analysis.demo.config import DemoConfig

    from .server_process import ServerProcess

    latency_ms = 0.0
    if argv and argv[0].startswith("--latency-ms="):
        latency_ms = float(argv[0].split("=", 1)[1])
        argv = argv[1:]
    if len(argv) < 2 or any("=" not in arg for arg in argv[1:]):
        print(__doc__, file=sys.stderr)
        return 2
    trees = dict(arg.split("=", 1) for arg in argv[1:])
    with ServerProcess(DemoConfig(analyses=5000, seed=7, latency_ms=latency_ms)) as server:
        print(json.dumps(run(server.base_url, server.api_key, int(argv[0]), trees)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""CLI throughput: `analyses list --all --format jsonl` vs. a bare httpx loop (the limit).

Both run as fresh interpreters against the same reference server, writing one JSON line per
analysis to a pipe the benchmark drains and counts. The baseline
(`python -m benchmarks.cli_throughput --bare URL`) follows `next_cursor` with a plain
`httpx.Client` and writes each item with `json.dumps`: no models, no checks, no retries.
Wall-clock time of the whole process is compared, interpreter start-up included.

`run_both` measures the two targets in one run: against the reference server as it is
(CPU-bound, ratio ≤ 1.15) and against the same data with 50 ms of latency per request
(network-bound, ratio ≤ 1.05). Alone: `python -m benchmarks.cli_throughput --analyses 20000`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from .cold_start import ROOT, child_env

TARGET_RATIO = 1.15
LATENCY_MS = 50.0
LATENCY_TARGET_RATIO = 1.05
TIMEOUT_S = 600.0


def bare_loop(base_url: str, api_key: str) -> int:
    """Write every analysis as a JSON line to stdout, following cursors; returns the count."""
    out = sys.stdout
    count = 0
    params: dict[str, Any] = {"limit": 100}
    headers = {"Authorization": f"Bearer {api_key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
        while True:
            page = client.get("/v1/analyses", params=params).raise_for_status().json()
            for item in page["data"]:
                out.write(json.dumps(item, ensure_ascii=False) + "\n")
            count += len(page["data"])
            if not page["next_cursor"]:
                return count
            params["after"] = page["next_cursor"]


def time_lines(argv: Sequence[str], env: dict[str, str]) -> tuple[float, int]:
    """(seconds, lines written) for one run of `argv`."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env, cwd=ROOT)
    assert process.stdout is not None
    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: process.stdout.read(1 << 16), b""))
    code = process.wait(TIMEOUT_S)
    elapsed = time.perf_counter() - start
    if code != 0:
        raise RuntimeError(f"{argv!r} exited with {code}")
    return elapsed, lines


def run(
    base_url: str, api_key: str, repeats: int = 1, target: float = TARGET_RATIO
) -> dict[str, Any]:
    """Time both (alternating, best of `repeats`) against one server; figures as a dict."""
    argvs = {
        "cli": [
            sys.executable,
            "-m",
            "screen_analysis",
            "--base-url",
            base_url,
            "analyses",
            "list",
            "--all",
            "--format",
            "jsonl",
        ],
        "bare httpx": [sys.executable, "-m", "benchmarks.cli_throughput", "--bare", base_url],
    }
    times: dict[str, list[float]] = {name: [] for name in argvs}
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="cli-throughput-") as home:
        env = child_env(api_key, Path(home))
        # Byte code compiled once by discarded runs, as in an installed package.
        time_lines([*argvs["cli"][:-4], "list", "--max-items", "1", "--format", "jsonl"], env)
        time_lines([sys.executable, "-c", "import httpx, json"], env)
        for _ in range(repeats):
            for name, argv in argvs.items():
                elapsed, counts[name] = time_lines(argv, env)
                times[name].append(elapsed)
    if counts["cli"] != counts["bare httpx"]:
        raise RuntimeError(f"the two wrote different line counts: {counts}")
    cli, bare = min(times["cli"]), min(times["bare httpx"])
    ratio = cli / bare
    return {
        "analyses": counts["cli"],
        "cli_s": round(cli, 2),
        "bare_httpx_s": round(bare, 2),
        "cli_rows_per_s": round(counts["cli"] / cli),
        "bare_rows_per_s": round(counts["cli"] / bare),
        "ratio": round(ratio, 3),
        "targets": {f"ratio <= {target:g}": ratio <= target},
    }


def run_both(analyses: int, repeats: int = 1) -> dict[str, Any]:
    """Both targets in one run: the reference server as is, then with 50 ms of latency."""
    # Imported here: the baseline runs this module too, and should start as lean as it is.
    from screen_analysis.demo.config import DemoConfig

    from .server_process import ServerProcess

    with ServerProcess(DemoConfig(analyses=analyses, seed=7)) as server:
        local = run(server.base_url, server.api_key, repeats)
    slow_config = DemoConfig(analyses=analyses, seed=7, latency_ms=LATENCY_MS)
    with ServerProcess(slow_config) as server:
        slow = run(server.base_url, server.api_key, repeats, LATENCY_TARGET_RATIO)
    return {**local, "latency_ms": LATENCY_MS, "with_latency": slow}


def main(argv: Sequence[str] | None = None) -> int:
    """`--bare URL`: the baseline loop (a child of `run`); else both figures, printed."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cli_throughput")
    parser.add_argument("--bare", metavar="URL", help="run the bare httpx loop against URL")
    parser.add_argument("--analyses", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    if args.bare:
        bare_loop(args.bare, os.environ["SCREEN_ANALYSIS_API_KEY"])
        return 0
    print(json.dumps(run_both(args.analyses, args.repeats), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

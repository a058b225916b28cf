"""Run every benchmark, print one table and write the figures as JSON.

`--quick` (the default; under two minutes on two cores) uses smaller sizes and fewer
repeats; `--full` measures what docs/performance.md reports.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from screen_analysis.demo.config import DemoConfig

from . import (
    bounds,
    cache_cost,
    cache_size,
    check_walk,
    cli_throughput,
    cold_start,
    decode_memory,
    floor,
    image_preview,
    key_bursts,
    memory,
    overview,
    polling,
    scroll_stall,
    switch_memory,
    table_append,
    warm_start,
)
from .server_process import ServerProcess
from .table import format_table

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "latest.json"


@dataclass(frozen=True)
class Mode:
    """Sizes and repeats of one mode."""

    name: str
    cold_start_repeats: int
    append_sizes: tuple[int, ...]
    append_repeats: int
    scroll_sizes: tuple[tuple[int, int], ...]
    analyses: int  # rows for the memory figure
    cli_analyses: int  # rows for the CLI figures (the 20,000)
    cli_repeats: int
    floor_repeats: int  # alternating pairs of each start against its floor


QUICK = Mode("quick", 9, (1_000, 10_000), 3, ((80, 24),), 20_000, 20_000, 1, 5)
FULL = Mode("full", 15, (1_000, 10_000, 100_000), 5, ((80, 24), (120, 40)), 100_000, 20_000, 2, 11)


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def run(mode: Mode) -> dict[str, Any]:
    """Every figure of `mode`, as a dict ready for JSON."""
    started = time.perf_counter()
    report: dict[str, Any] = {"mode": mode.name, "machine": machine()}
    with ServerProcess(DemoConfig(analyses=5_000, seed=7)) as server:
        report["cold_start"] = cold_start.run(
            server.base_url, server.api_key, mode.cold_start_repeats
        )
    report["append"] = asyncio.run(table_append.run_async(mode.append_sizes, mode.append_repeats))
    report["scroll"] = scroll_stall.run(mode.scroll_sizes)
    report["bursts"] = key_bursts.run()
    report["warm_start"] = warm_start.run(mode.cold_start_repeats // 2 + 1)
    report["floor"] = floor.run(mode.floor_repeats)
    report["switches"] = switch_memory.run()
    report["cache"] = cache_size.run(mode.analyses)
    report["cache_cost"] = cache_cost.run()
    with ServerProcess(DemoConfig(analyses=mode.analyses, seed=7)) as server:
        bodies = memory.fetch_pages(server.base_url, server.api_key, mode.analyses)
        report["overview"] = overview.run(server.base_url, server.api_key, mode.cli_repeats + 1)
    report["cli"] = cli_throughput.run_both(mode.cli_analyses, mode.cli_repeats)
    report["check"] = check_walk.run(mode.cli_analyses, mode.cli_repeats + 1)
    report["memory"] = memory.run(bodies)
    report["images"] = image_preview.run()
    report["decode_memory"] = decode_memory.run()
    report["polling"] = polling.run()
    report["bounds"] = bounds.run(mode.analyses)
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", action="store_true", help="small sizes (the default)")
    group.add_argument("--full", action="store_true", help="the sizes the docs report")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")
    args = parser.parse_args(argv)
    report = run(FULL if args.full else QUICK)
    print(format_table(report))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

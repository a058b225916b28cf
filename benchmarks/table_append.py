"""Append cost: the longest event-loop block while one page of rows is appended.

Both tables run headless in the same process, one after the other, on the same rows:
`AnalysesTable` (ours) and Textual's `DataTable` (the baseline). With 1k, 10k and 100k rows
already loaded, one page is appended several times; a monitor task that sleeps 1 ms records
how late it wakes, and the worst lateness around an append (the call itself, the idle and
layout work it triggers, and the next paint) is that append's block.

Run: `uv run python -m benchmarks.table_append [--quick] [--json PATH]`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.numbers import format_score
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import status_glyph, status_word
from screen_analysis.tui.themes import variable_defaults
from screen_analysis.tui.widgets.table import AnalysesTable
from screen_analysis.words import relative_time

FULL_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000, 10_000)
PAGE_SIZE = 100
REPEATS = 5
SCREEN = (120, 40)
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
STATUSES = ("pending", "processing", "completed", "failed")
FRAME_MS = 16.0
FLAT_RATIO = 2.0


def make_items(count: int) -> list[AnalysisItem]:
    """`count` synthetic analyses shaped like the reference server's."""
    return [
        Analysis(
            id=f"ana_{i:08d}",
            project_id=f"proj_{i % 7:04d}",
            status=STATUSES[i % 4],
            label=f"Checkout screen variant {i:07d}",  # constant width
            score=(i * 37) % 101 if i % 4 == 2 else None,
            created_at=NOW - timedelta(minutes=i),
        )
        for i in range(count)
    ]


def data_table_row(item: AnalysisItem) -> tuple[Text, ...]:
    """The six cells the baseline shows for an item (same formatting as ours)."""
    assert isinstance(item, Analysis)
    return (
        Text(f"{status_glyph(item.status)} {status_word(item.status)}"),
        Text(format_score(item.score), justify="right"),
        Text(clean(item.label)),
        Text(clean(item.project_id)),
        Text(relative_time(item.created_at, NOW)),
        Text(clean(item.id)),
    )


class LoopMonitor:
    """Sleeps 1 ms in a loop and keeps the worst lateness: the longest event-loop block."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._running = True

    async def run(self) -> None:
        """Measure until `stop` is called."""
        while self._running:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            self.worst = max(self.worst, time.perf_counter() - start - 0.001)

    def stop(self) -> None:
        """End the measuring loop after its current sleep."""
        self._running = False


class BenchApp(App[None]):
    """A screen holding only the table under test."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The app's colour variables ($status-*), which the table's styles use."""
        return variable_defaults(self.current_theme)

    def compose(self) -> ComposeResult:
        if self.kind == "AnalysesTable":
            yield AnalysesTable(clock=lambda: NOW)
        else:
            table: DataTable[Text] = DataTable(cursor_type="row")
            table.add_columns("Status", "Score", "Label", "Project", "Created", "ID")
            yield table


def _append(app: BenchApp, items: Sequence[AnalysisItem]) -> None:
    if app.kind == "AnalysesTable":
        app.query_one(AnalysesTable).append_items(items)
    else:
        app.query_one(DataTable).add_rows(data_table_row(item) for item in items)


async def measure(kind: str, loaded: int, repeats: int) -> list[float]:
    """Worst block (ms) of each of `repeats` page appends with `loaded` rows already there."""
    # Only the rows this run holds are alive, so garbage collection sees what an app would.
    pool = make_items(loaded + repeats * PAGE_SIZE)
    app = BenchApp(kind)
    async with app.run_test(size=SCREEN) as pilot:
        if kind == "AnalysesTable":
            app.query_one(AnalysesTable).set_items(pool[:loaded])
        else:
            app.query_one(DataTable).add_rows(data_table_row(item) for item in pool[:loaded])
        await pilot.pause()
        await asyncio.sleep(0.2)  # the preload's own idle and paint work is not measured
        gc.collect()
        blocks: list[float] = []
        for repeat in range(repeats):
            start = loaded + repeat * PAGE_SIZE
            page = pool[start : start + PAGE_SIZE]
            monitor = LoopMonitor()
            task = asyncio.create_task(monitor.run())
            await asyncio.sleep(0.02)
            _append(app, page)
            await pilot.pause()
            await asyncio.sleep(0.1)  # idle processing, layout and at least one paint
            monitor.stop()
            await task
            blocks.append(monitor.worst * 1000)
    return blocks


async def noise_floor(windows: int) -> float:
    """Worst lateness (ms) of the monitor alone in an idle app: what the machine adds."""
    worst = 0.0
    async with BenchApp("AnalysesTable").run_test(size=SCREEN) as pilot:
        await pilot.pause()
        for _ in range(windows):
            monitor = LoopMonitor()
            task = asyncio.create_task(monitor.run())
            await asyncio.sleep(0.12)
            monitor.stop()
            await task
            worst = max(worst, monitor.worst * 1000)
    return worst


async def run_async(sizes: Sequence[int], repeats: int = REPEATS) -> dict[str, Any]:
    """Measure both tables at each size; the figures are a dict ready for JSON."""
    results: dict[str, dict[str, dict[str, float]]] = {}
    for kind in ("AnalysesTable", "DataTable"):
        results[kind] = {}
        for loaded in sizes:
            blocks = await measure(kind, loaded, repeats)
            results[kind][str(loaded)] = {
                "median_ms": round(statistics.median(blocks), 2),
                "min_ms": round(min(blocks), 2),
                "max_ms": round(max(blocks), 2),
            }
    idle = await noise_floor(repeats)
    small, large = str(min(sizes)), str(max(sizes))
    ours = results["AnalysesTable"]
    flat = ours[large]["median_ms"] / max(ours[small]["median_ms"], 0.01)
    return {
        "benchmark": "table_append",
        "page_size": PAGE_SIZE,
        "repeats": repeats,
        "sizes": list(sizes),
        "idle_worst_ms": round(idle, 2),
        "results": results,
        "ratios": {
            f"AnalysesTable {large}/{small}": round(flat, 2),
            f"DataTable {large}/{small}": round(
                results["DataTable"][large]["median_ms"]
                / max(results["DataTable"][small]["median_ms"], 0.01),
                2,
            ),
            **{
                f"AnalysesTable/DataTable at {size}": round(
                    ours[str(size)]["median_ms"] / results["DataTable"][str(size)]["median_ms"], 3
                )
                for size in sizes
            },
        },
        "targets": {
            f"no block over {FRAME_MS:g} ms at {large}": ours[large]["max_ms"] <= FRAME_MS,
            f"{large}/{small} <= {FLAT_RATIO:g}": flat <= FLAT_RATIO,
        },
    }


def run(sizes: Sequence[int] = FULL_SIZES, repeats: int = REPEATS) -> dict[str, Any]:
    """Run the benchmark and print its table; returns the figures."""
    report = asyncio.run(run_async(sizes, repeats))
    print(format_report(report))
    return report


def format_report(report: dict[str, Any]) -> str:
    """The figures as a plain-text table."""
    sizes: list[int] = report["sizes"]
    lines = [
        f"Append one page of {report['page_size']} rows: longest event-loop block, ms "
        f"(median / max of {report['repeats']})",
        f"{'rows loaded':<16}" + "".join(f"{size:>18,}" for size in sizes),
    ]
    for kind, by_size in report["results"].items():
        cells = "".join(
            f"{by_size[str(size)]['median_ms']:>10.1f} / {by_size[str(size)]['max_ms']:<5.1f}"
            for size in sizes
        )
        lines.append(f"{kind:<16}{cells}")
    lines.append(f"{'idle (no append)':<16}{report['idle_worst_ms']:>10.1f} (machine noise floor)")
    lines.extend(f"{name}: {value}" for name, value in report["ratios"].items())
    lines.extend(
        f"target {name}: {'met' if ok else 'NOT met'}" for name, ok in report["targets"].items()
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: `--quick` measures 1k and 10k only; `--json PATH` writes the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="1k and 10k rows only")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    report = run(QUICK_SIZES if args.quick else FULL_SIZES, args.repeats)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

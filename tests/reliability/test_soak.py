"""Soak: the live demo (analyses arriving, moving through their states) with auto-refresh,
headless, while a user now and then pages and switches filters. Memory, tasks, workers and
jobs stay flat; no error is shown.

The short version runs in the normal suite; the long one (30 minutes) is marked `slow`:
    RELIABILITY_SOAK_SECONDS=1800 uv run pytest -m slow tests/reliability/test_soak.py -s
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import threading
import time
import tracemalloc
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from tests.conftest import demo_config

from screen_analysis.demo.runner import DemoServer

from .conftest import build_app, connection_to, settled

pytestmark = pytest.mark.e2e

USER_KEYS = ["end", "4", "end", "1", "pagedown", "2", "1", "r", "3", "1"]


@dataclass
class Sample:
    """One reading during the soak."""

    t: float
    traced_kb: int
    tasks: int
    workers: int
    jobs: int
    threads: int
    rows: int
    errors: int


async def soak(seconds: float, tmp_path: Path, samples: int = 30) -> list[Sample]:
    config = demo_config(analyses=400, live=True, live_interval_s=0.2)
    readings: list[Sample] = []
    with DemoServer(config) as server:
        server.faults.latency_ms = 20
        server.faults.latency_jitter_ms = 60
        app = build_app(tmp_path, connection_to(server), max_retries=2, refresh_interval=1.0)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            tracemalloc.start()
            started = time.monotonic()
            step = seconds / samples
            for n in range(samples):
                await pilot.press(USER_KEYS[n % len(USER_KEYS)])
                await pilot.pause(max(0.0, started + (n + 1) * step - time.monotonic()))
                # The reference server runs in this process and logs every request: emptied,
                # so what is measured is the app's own memory.
                server.request_log.clear()
                gc.collect()
                errors = [note for note in app._notifications if note.severity == "error"]
                readings.append(
                    Sample(
                        t=round(time.monotonic() - started, 1),
                        traced_kb=tracemalloc.get_traced_memory()[0] // 1024,
                        tasks=len(asyncio.all_tasks()),
                        workers=len(app.workers),
                        jobs=sum(1 for w in app.workers if w.node is screen and not w.is_finished),
                        threads=threading.active_count(),
                        rows=len(screen.table.items),
                        errors=len(errors) + (screen.status_line.status.state == "error"),
                    )
                )
            tracemalloc.stop()
            assert app.is_running and app.screen is screen
    return readings


def check_flat(readings: list[Sample], *, memory_kb: int) -> dict[str, object]:
    """Assert the readings are flat after a warm-up; return the figures."""
    warm = readings[len(readings) // 5 :]
    first, last = warm[: len(warm) // 2], warm[len(warm) // 2 :]
    growth = statistics.median(s.traced_kb for s in last) - statistics.median(
        s.traced_kb for s in first
    )
    figures = {
        "seconds": readings[-1].t,
        "traced_kb_first_half_median": statistics.median(s.traced_kb for s in first),
        "traced_kb_second_half_median": statistics.median(s.traced_kb for s in last),
        "traced_kb_growth": growth,
        "tasks_max_first": max(s.tasks for s in first),
        "tasks_max_second": max(s.tasks for s in last),
        "workers_max": max(s.workers for s in warm),
        "jobs_max": max(s.jobs for s in warm),
        "threads_max": max(s.threads for s in warm),
        "rows_max": max(s.rows for s in warm),
        "errors": sum(s.errors for s in readings),
    }
    assert figures["errors"] == 0, readings
    assert growth < memory_kb, figures
    # Widgets (toasts included) each run a task, so the count moves a little; a leak grows.
    assert figures["tasks_max_second"] <= figures["tasks_max_first"] + 8, figures
    assert figures["jobs_max"] <= 12 and figures["workers_max"] <= 12, figures
    return figures


def report(figures: dict[str, object], readings: list[Sample]) -> None:
    out = os.environ.get("RELIABILITY_SOAK_REPORT")
    if out:
        Path(out).write_text(
            json.dumps({"figures": figures, "samples": [asdict(s) for s in readings]}, indent=1)
        )
    print("soak:", json.dumps(figures))


async def test_short_soak_is_flat(tmp_path: Path) -> None:
    readings = await soak(30, tmp_path)
    report(check_flat(readings, memory_kb=3072), readings)


@pytest.mark.slow
@pytest.mark.timeout(0)
async def test_long_soak_is_flat(tmp_path: Path) -> None:
    seconds = float(os.environ.get("RELIABILITY_SOAK_SECONDS", "1800"))
    readings = await soak(seconds, tmp_path, samples=max(30, int(seconds // 20)))
    report(check_flat(readings, memory_kb=4096), readings)

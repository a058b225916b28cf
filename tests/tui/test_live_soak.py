"""Soak: the live demo runs headless with auto-refresh on, sampling memory and task counts.

The short run is part of the normal suite. The long one is marked slow:

    SOAK_SECONDS=600 uv run pytest -m slow tests/tui/test_live_soak.py -s

prints one line per sample (every 30 s): elapsed time, RSS, asyncio tasks, threads, workers
and rows loaded.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from screen_analysis.demo.runner import DemoServer

from ..conftest import demo_config
from .conftest import connection_to, make_app, notes_of, settled, wait_until

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Sample:
    """One measurement of the running app."""

    elapsed_s: float
    rss_mb: float
    tasks: int
    threads: int
    workers: int
    rows: int

    def __str__(self) -> str:
        return (
            f"{self.elapsed_s:7.1f}s  rss {self.rss_mb:7.1f} MB  tasks {self.tasks:3d}  "
            f"threads {self.threads:2d}  workers {self.workers:2d}  rows {self.rows:5d}"
        )


def rss_mb() -> float:
    """Resident memory of this process now (Linux /proc; 0 elsewhere)."""
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return 0.0
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def soak(tmp_path: Path, seconds: float, every_s: float, refresh_s: float) -> list[Sample]:
    """Run the app against a live demo server for `seconds`; a sample every `every_s`."""
    config = demo_config(analyses=2000, live=True, live_interval_s=0.5)
    samples: list[Sample] = []
    with DemoServer(config) as server:
        app = make_app(tmp_path, connection_to(server), refresh_interval=refresh_s)
        notes = notes_of(app, pytest.MonkeyPatch())  # the app is this run's alone
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            start = time.monotonic()
            while (elapsed := time.monotonic() - start) < seconds:
                samples.append(
                    Sample(
                        elapsed,
                        rss_mb(),
                        len(asyncio.all_tasks()),
                        threading.active_count(),
                        len(app.workers),
                        len(screen.table.items),
                    )
                )
                print(samples[-1], flush=True)
                # A little browsing between samples: the cursor moves and comes back.
                await pilot.press("down", "down", "up", "up")
                await pilot.pause(min(every_s, max(0.0, seconds - elapsed)))
            await wait_until(pilot, lambda: not screen.refreshing, timeout=30)
            assert app.screen is screen, "no error screen came up"
            assert notes.messages("error") == []
            assert screen.schedule.failures == 0
            assert screen.pager.error is None
            ids = [item.id for item in screen.table.items]
            assert len(ids) == len(set(ids)), "no row is shown twice"
        assert server.live is not None and server.live.simulator.in_flight < 50
    return samples


def check_flat(samples: list[Sample], rss_growth_mb: float, task_growth: int) -> None:
    """After the first sample (warm-up), memory and tasks stay within the given growth."""
    settled_samples = samples[1:] or samples
    first, last = settled_samples[0], settled_samples[-1]
    assert last.rss_mb - first.rss_mb < rss_growth_mb, [str(s) for s in samples]
    assert max(s.tasks for s in settled_samples) - first.tasks <= task_growth
    assert max(s.threads for s in settled_samples) <= first.threads + 4


async def test_live_demo_short_soak(tmp_path: Path) -> None:
    samples = await soak(tmp_path, seconds=30, every_s=5, refresh_s=1.0)
    assert samples[-1].rows > samples[0].rows, "new analyses arrived at the top"
    check_flat(samples, rss_growth_mb=40, task_growth=10)


@pytest.mark.slow
@pytest.mark.timeout(0)
async def test_live_demo_soak(tmp_path: Path) -> None:
    seconds = float(os.environ.get("SOAK_SECONDS", "600"))
    samples = await soak(tmp_path, seconds=seconds, every_s=30, refresh_s=1.0)
    check_flat(samples, rss_growth_mb=40, task_growth=10)

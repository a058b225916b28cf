"""The image preview: highlight → image painted, requests while ↓ is held, decode blocking.

1. Highlight → painted. The real app (half-cell) against the reference server in a process
   of its own with 150 ms latency per request; one ↓ at a time, and the time from the key
   until the detail pane shows the new row's picture. Measured from the server (empty disk
   cache), from the disk cache (a second app on the cache the first one filled), and the
   baseline: the same move with images off, until the detail shows the new row's label.
2. ↓ held through 200 rows at 30 presses a second: image requests in the server's log
   (target: 1, the row where it stops).
3. The largest event-loop block while a 4000×3000 PNG is decoded and scaled: through the
   pipeline (decode in a thread) against decoding on the loop, as the baseline.
"""

from __future__ import annotations

import asyncio
import io
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image
from textual import events

from screen_analysis.api.image_fetch import ImageBytes
from screen_analysis.cli.root import make_client
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.config import DemoConfig
from screen_analysis.images.decode import prepare
from screen_analysis.images.disk import DiskCache
from screen_analysis.images.service import ImagePipeline
from screen_analysis.safe_text import clean
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.graphics import Graphics
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.screen_image import ScreenImage

from .server_process import ServerProcess

LATENCY_MS = 150
PRESSES_PER_S = 30
HELD_ROWS = 200
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TIMEOUT_S = 30.0


def make_app(server: ServerProcess, home: Path, *, images: bool, cache: Path) -> ScreenAnalysisApp:
    """The app as the composition root builds it (auto-refresh off)."""
    state = home / "state.json"
    return ScreenAnalysisApp(
        Settings(state_path=state, config_path=home / "config.toml", refresh_interval=0),
        Connection(server.base_url, SecretStr(server.api_key), key_source="env"),
        RememberedProjects(state),
        clock=lambda: NOW,
        make_client=make_client,
        graphics=Graphics("halfcell") if images else None,
        image_cache=DiskCache(cache) if images else None,
    )


def _press(app: ScreenAnalysisApp, key: str) -> None:
    press = events.Key(key, None)
    press.set_sender(app)
    app.post_message(press)


async def _until(check: Any, deadline: float) -> None:
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there")
        await asyncio.sleep(0.001)


async def _main(app: ScreenAnalysisApp) -> MainScreen:
    deadline = time.monotonic() + TIMEOUT_S
    await _until(lambda: isinstance(app.screen, MainScreen) and app.screen.table.items, deadline)
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def highlight_times(app: ScreenAnalysisApp, moves: int, *, images: bool) -> list[float]:
    """Seconds from each ↓ until the detail shows the new row (its image when `images`)."""
    times: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _main(app)
        image = screen.detail.query_one(ScreenImage)
        await pilot.pause(0.5)
        for _ in range(moves):
            target = screen.table.cursor_row + 1
            started = time.perf_counter()
            _press(app, "down")
            deadline = time.monotonic() + TIMEOUT_S

            def shown(target: int = target) -> bool:
                item = screen.table.highlighted_item
                if screen.table.cursor_row != target or item is None:
                    return False
                if not images:
                    label = screen.detail.label
                    return label in (clean(getattr(item, "label", "")), "(no label)")
                return image.painted_url == getattr(item, "image_url", None)

            await _until(shown, deadline)
            await pilot.pause()  # the frame that paints it
            times.append(time.perf_counter() - started)
            await pilot.pause(0.3)
    return times


async def held_down_requests(app: ScreenAnalysisApp, server: ServerProcess) -> dict[str, Any]:
    """↓ held through HELD_ROWS rows at PRESSES_PER_S; image requests during and after."""
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _main(app)
        await pilot.pause(1.0)
        before = _image_requests(server)
        start = time.perf_counter()
        deadline = time.monotonic() + TIMEOUT_S
        presses = 0
        # Until the cursor is there: a press at the last loaded row waits for the next page.
        while screen.table.cursor_row < HELD_ROWS:
            if time.monotonic() > deadline:
                raise TimeoutError(f"stuck at row {screen.table.cursor_row}")
            delay = start + presses / PRESSES_PER_S - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            _press(app, "down")
            presses += 1
        image = screen.detail.query_one(ScreenImage)

        def painted() -> bool:
            item = screen.table.highlighted_item
            return image.painted_url == getattr(item, "image_url", "")

        await _until(painted, time.monotonic() + TIMEOUT_S)
        await pilot.pause(0.5)  # a late request would show in the log now
        return {"rows": screen.table.cursor_row, "image_requests": _image_requests(server) - before}


def _image_requests(server: ServerProcess) -> int:
    return sum(1 for _m, path, _q, _s in server.request_log() if path.startswith("/v1/images/"))


def _big_png() -> bytes:
    image = Image.effect_noise((4000, 3000), 60).convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


async def _largest_block(work: Any) -> float:
    """The longest the loop went without running a 1 ms ticker while `work` ran."""
    worst = 0.0
    done = False

    async def ticker() -> None:
        nonlocal worst
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            worst = max(worst, now - last)
            last = now

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    await work()
    done = True
    await task
    return worst


async def decode_blocking() -> dict[str, Any]:
    """Largest loop block: decode through the pipeline vs. on the loop."""
    data = _big_png()

    async def fetch(url: str, *, etag: str | None = None) -> ImageBytes:
        return ImageBytes(url, data, "image/png")

    async def threaded() -> None:
        await ImagePipeline(fetch).load("https://x/big.png", "v", (84, 52))

    async def inline() -> None:
        prepare(data, (84, 52))

    ours = min([await _largest_block(threaded) for _ in range(3)])
    baseline = min([await _largest_block(inline) for _ in range(3)])
    return {
        "pipeline_ms": round(ours * 1000, 1),
        "on_loop_ms": round(baseline * 1000, 1),
        "ratio": round(ours / baseline, 3),
    }


async def run_async(moves: int = 5) -> dict[str, Any]:
    """Every figure of this module."""
    config = DemoConfig(analyses=2_000, seed=7, now=NOW, latency_ms=LATENCY_MS)
    report: dict[str, Any] = {"latency_ms": LATENCY_MS}
    with ServerProcess(config) as server, tempfile.TemporaryDirectory() as scratch:
        home, cache = Path(scratch), Path(scratch) / "cache"
        off = await highlight_times(
            make_app(server, home, images=False, cache=cache), moves, images=False
        )
        cold = await highlight_times(
            make_app(server, home, images=True, cache=cache), moves, images=True
        )
        warm = await highlight_times(
            make_app(server, home, images=True, cache=cache), moves, images=True
        )
        held = await held_down_requests(make_app(server, home, images=True, cache=cache), server)
    median_off = statistics.median(off)
    for name, figures in (("server", cold), ("disk", warm)):
        report[f"from_{name}_ms"] = round(statistics.median(figures) * 1000, 1)
        report[f"from_{name}_ratio"] = round(statistics.median(figures) / median_off, 2)
    report["images_off_ms"] = round(median_off * 1000, 1)
    report["held"] = held
    report["decode"] = await decode_blocking()
    report["targets"] = {"1 image request while held": held["image_requests"] == 1}
    return report


def run(moves: int = 5) -> dict[str, Any]:
    """Run the measurement; the figures as a dict."""
    return asyncio.run(run_async(moves))


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))

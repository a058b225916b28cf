"""Bounded whatever the server does: keys with 10,000 projects, labels of a megabyte, and
`check --wait --timeout` against a server that would keep a poll going for ever.

- **Keys with 10,000 projects.** The app runs headless (`App.run_test`) against the
  reference server (in a process of its own) with 10,000 projects; the rows are loaded
  with `L` (all of them, up to the app's bound of 100,000). Then `?` (help, and Esc) and
  `j` are pressed, one at a time on an idle app (a reader's pace: what the last key asked
  for has come), each timed until its screen shows; the same against 8
  projects and the same rows is the baseline (targets: `?` under a second, each key
  under 100 ms). Also counted: the project requests of the first view and of a burst of
  ten PageDowns (the sidebar asks a bounded number per refresh).
- **Labels of a megabyte.** Fifteen rows whose labels are a megabyte each (as a server
  may send them), against fifteen with short labels: the time `j` takes to move the
  highlight and show the detail (target: under 100 ms).
- **The deadline.** `python -m screen_analysis check --wait --timeout 5` in a fresh
  interpreter (the byte code of what it imports written by a first run of the same command
  with `--timeout 1`) against a server whose pending listing never ends and against one
  that never answers a poll: the time to exit, the start included, against the timeout
  (target: exit 7 by 6 s), and when its first request arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from textual import events

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.config import DemoConfig
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.tui.screens.main import MainScreen

from .cold_start import ROOT, child_env
from .key_bursts import make_app
from .server_process import ServerProcess

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
SIZE = (160, 50)  # the sidebar open
PRESSES = 7
TIMEOUT_S = 600.0
KEY_TARGET_MS = 100.0  # a key answered (the build target)
HELP_TARGET_MS = 1000.0  # `?` with 10,000 projects (the done-when)
DEADLINE_S = 5


# --- Keys with 10,000 projects ------------------------------------------------------------


def _project_requests(server: ServerProcess) -> int:
    return sum(1 for _m, path, _q, _s in server.request_log() if path.startswith("/v1/projects/"))


async def _until(app: ScreenAnalysisApp, check: Callable[[], bool], pilot: Any) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there")
        await pilot.pause(0.002)


def _press(app: ScreenAnalysisApp, key: str, character: str | None = None) -> None:
    press = events.Key(key, character)
    press.set_sender(app)
    app.post_message(press)


async def _timed(
    app: ScreenAnalysisApp, pilot: Any, key: str, char: str | None, done: Callable[[], bool]
) -> float:
    started = time.perf_counter()
    _press(app, key, char)
    await _until(app, done, pilot)
    return (time.perf_counter() - started) * 1000


async def _idle(app: ScreenAnalysisApp, screen: MainScreen, pilot: Any) -> None:
    """Wait until nothing is under way (what the last key asked for has come) and the
    screen is drawn."""
    await _until(app, lambda: not screen.busy, pilot)
    await pilot.pause()


def _moved_on(screen: MainScreen) -> Callable[[], bool]:
    """Whether the highlight left the row it is on now and the detail shows the new one."""
    before = screen.table.cursor_row
    return lambda: (
        screen.table.cursor_row != before and (screen.detail.item is screen.table.highlighted_item)
    )


async def keys_with_projects(projects: int, rows: int) -> dict[str, Any]:
    """Project requests of the first view and of ten PageDowns; `?` and `j` timed once
    every row is loaded."""
    config = DemoConfig(analyses=rows, projects=projects, seed=7, now=NOW)
    with ServerProcess(config) as server, tempfile.TemporaryDirectory(prefix="bounds-") as home:
        app = make_app(server, Path(home))
        async with app.run_test(size=SIZE) as pilot:
            await _until(app, lambda: isinstance(app.screen, MainScreen), pilot)
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await _until(app, lambda: bool(screen.table.items) and not screen.busy, pilot)
            first_view = _project_requests(server)
            for _ in range(10):
                _press(app, "pagedown")
            await pilot.pause()
            await _until(app, lambda: not screen.busy, pilot)
            burst = _project_requests(server) - first_view
            loading_started = time.perf_counter()
            _press(app, "L", "L")
            await _until(app, lambda: screen.pager.done and not screen.busy, pilot)
            load_s = time.perf_counter() - loading_started
            help_ms, j_ms = [], []
            for _ in range(PRESSES):
                await _idle(app, screen, pilot)  # a reader's pace: each key on an idle app
                shown = lambda: isinstance(app.screen, HelpScreen)  # noqa: E731
                help_ms.append(await _timed(app, pilot, "question_mark", "?", shown))
                back = lambda: app.screen is screen  # noqa: E731
                await _timed(app, pilot, "escape", None, back)
                await _idle(app, screen, pilot)
                j_ms.append(await _timed(app, pilot, "j", "j", _moved_on(screen)))
            loaded = len(screen.table.items)
    return {
        "projects": projects,
        "rows_loaded": loaded,
        "load_all_s": round(load_s, 1),
        "project_requests_first_view": first_view,
        "project_requests_ten_pagedowns": burst,
        "help_ms": round(statistics.median(help_ms), 1),
        "j_ms": round(statistics.median(j_ms), 1),
    }


# --- Labels of a megabyte -----------------------------------------------------------------


def _labels_transport(label_chars: int) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/v1/projects/"):
            return httpx.Response(200, json={"id": "proj_b", "name": "Bench"})
        rows = [
            {
                "id": f"ana_{n:04d}",
                "project_id": "proj_b",
                "status": "completed",
                "image_url": f"/v1/images/{n}.png",
                "label": f"Label {n} " + "x" * label_chars,
                "score": 80,
                "created_at": "2026-10-01T12:00:00Z",
            }
            for n in range(15)
        ]
        return httpx.Response(200, json={"data": rows, "next_cursor": None, "total": 15})

    return httpx.MockTransport(handle)


async def j_with_labels(label_chars: int) -> float:
    """The median time of `j` over rows whose labels are `label_chars` long (ms)."""
    transport = _labels_transport(label_chars)

    def client(connection: Connection) -> ScreenAnalysisClient:
        return ScreenAnalysisClient(
            connection.base_url, connection.api_key, max_retries=0, transport=transport
        )

    with tempfile.TemporaryDirectory(prefix="labels-") as home:
        state = Path(home) / "state.json"
        app = ScreenAnalysisApp(
            Settings(state_path=state, config_path=Path(home) / "c.toml", refresh_interval=0),
            Connection("http://127.0.0.1:9", SecretStr("sk-bench-not-real"), key_source="env"),
            RememberedProjects(state),
            clock=lambda: NOW,
            make_client=client,
        )
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(app, lambda: isinstance(app.screen, MainScreen), pilot)
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await _until(app, lambda: bool(screen.table.items) and not screen.busy, pilot)
            times = []
            for _ in range(PRESSES):
                await _idle(app, screen, pilot)
                times.append(await _timed(app, pilot, "j", "j", _moved_on(screen)))
    return round(statistics.median(times), 1)


# --- The deadline --------------------------------------------------------------------------


@contextlib.contextmanager
def _server(kind: str) -> Iterator[tuple[str, list[float]]]:
    """An HTTP server whose pending listing never ends ("endless") or that never answers
    ("hanging"), on a loopback port; its base URL, and the times (`perf_counter`) its
    requests arrived at, in order."""
    stop = threading.Event()
    arrivals: list[float] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            arrivals.append(time.perf_counter())
            if kind == "hanging":
                stop.wait()
                return
            query = {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}
            start = int(query.get("after", "0"))
            size = int(query.get("limit", "100"))
            rows = [{"id": f"ana_{start + n}", "status": "pending"} for n in range(size)]
            body = json.dumps({"data": rows, "next_cursor": str(start + size), "total": 10**9})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", arrivals
    finally:
        stop.set()
        httpd.shutdown()
        httpd.server_close()


def deadline(kind: str) -> dict[str, Any]:
    """`check --wait --timeout 5` against the `kind` server: seconds to exit, exit code, and
    seconds to its first request (the start: interpreter, imports, settings, client)."""
    with (
        _server(kind) as (base_url, arrivals),
        tempfile.TemporaryDirectory(prefix="deadline-") as home,
    ):
        env = child_env("sk-bench-not-real", Path(home))
        command = [sys.executable, "-m", "screen_analysis", "--base-url", base_url]
        waiting = ["check", "--wait", "--min-count", "1", "--timeout"]
        # A first run of the same command writes the byte code of what `check` imports, as
        # a user's first run does; the figure is of the runs that follow.
        _seconds([*command, *waiting, "1"], env)
        arrivals.clear()
        started = time.perf_counter()
        elapsed, done = _seconds([*command, *waiting, str(DEADLINE_S)], env)
    return {
        "exit_code": done.returncode,
        "elapsed_s": round(elapsed, 2),
        "startup_s": round(arrivals[0] - started, 2) if arrivals else None,
        "ratio": round(elapsed / DEADLINE_S, 2),
        "message": done.stderr.decode(errors="replace").strip().splitlines()[-1:],
    }


def _seconds(argv: list[str], env: dict[str, str]) -> tuple[float, Any]:
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, timeout=300, check=False)
    return time.perf_counter() - started, done


def summary_rows(figures: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """The lines of `python -m benchmarks`'s table: (figure, ours, baseline, ratio, target)."""
    many, few, labels = figures["many_projects"], figures["few_projects"], figures["labels"]
    loaded = f"{many['rows_loaded']:,} rows loaded"
    rows = [
        (
            f"`{key}` with 10,000 projects, {loaded}",
            f"{many[f'{name}_ms']:.0f} ms",
            f"{few[f'{name}_ms']:.0f} ms (8 projects)",
            f"{many[f'{name}_ms'] / max(few[f'{name}_ms'], 0.1):.2f}",
            _met(figures["targets"]) if key == "?" else "",
        )
        for key, name in (("?", "help"), ("j", "j"))
    ]
    rows.append(
        (
            "Project requests with 10,000 projects: first view / ten PageDowns",
            f"{many['project_requests_first_view']} / {many['project_requests_ten_pagedowns']}",
            f"{few['project_requests_first_view']} / {few['project_requests_ten_pagedowns']}"
            " (8 projects)",
            "",
            "",
        )
    )
    rows.append(
        (
            "`j` over rows with 1 MB labels",
            f"{labels['megabyte_j_ms']:.0f} ms",
            f"{labels['short_j_ms']:.0f} ms (short labels)",
            f"{labels['ratio']:.2f}",
            "",
        )
    )
    for kind, words in (("endless", "cursors that never end"), ("hanging", "a poll that hangs")):
        run = figures["deadline"][kind]
        rows.append(
            (
                f"`check --wait --timeout 5`, {words}: exit {run['exit_code']}",
                f"{run['elapsed_s']:.1f} s",
                "5 s (the timeout)",
                f"{run['ratio']:.2f}",
                "" if run["startup_s"] is None else f"first request at {run['startup_s']:.1f} s",
            )
        )
    return rows


def _met(targets: dict[str, bool]) -> str:
    return "; ".join(f"{name}: {'met' if ok else 'NOT met'}" for name, ok in targets.items())


# --- All together --------------------------------------------------------------------------


def run(rows: int = 100_000) -> dict[str, Any]:
    """Every figure; `rows` loaded in the app for the key timings."""
    many = asyncio.run(keys_with_projects(10_000, rows))
    few = asyncio.run(keys_with_projects(8, rows))
    long_j = asyncio.run(j_with_labels(1024 * 1024))
    short_j = asyncio.run(j_with_labels(10))
    endless, hanging = deadline("endless"), deadline("hanging")
    worst_key = max(many["help_ms"], many["j_ms"])
    key_ratio = worst_key / max(few["help_ms"], few["j_ms"], 0.1)
    return {
        "rows": rows,
        "many_projects": many,
        "few_projects": few,
        "key_ratio": round(key_ratio, 2),
        "labels": {
            "megabyte_j_ms": long_j,
            "short_j_ms": short_j,
            "ratio": round(long_j / max(short_j, 0.1), 2),
        },
        "deadline": {"endless": endless, "hanging": hanging},
        "targets": {
            f"? ≤ {HELP_TARGET_MS:.0f} ms": many["help_ms"] <= HELP_TARGET_MS,
            f"keys ≤ {KEY_TARGET_MS:.0f} ms": max(worst_key, long_j) <= KEY_TARGET_MS,
            "exit 7 by 6 s": all(
                d["exit_code"] == 7 and d["elapsed_s"] <= DEADLINE_S + 1 for d in (endless, hanging)
            ),
        },
    }


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000), indent=1))

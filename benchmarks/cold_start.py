"""Cold start to first rows painted: the app vs. the baseline app, in a pseudo-terminal.

Each run is a fresh interpreter (`python -m screen_analysis --base-url URL`, or
`python -m benchmarks.baseline_app URL`) on the slave side of a pseudo-terminal of 120×40
cells, talking to the same reference server. The clock starts just before the process is
spawned and stops when the terminal output first contains the label of a row of the first
page other than the first (its first 10 characters; the detail pane shows the first row's
label, and at 120 columns our table has no room for the id column). Only a paint of the
table with rows writes those bytes, so "first rows painted" means: the first screen
update, after the table holds rows, that reached the terminal. Nothing in either app is
instrumented. One discarded warm-up run each fills the disk cache and compiles byte code;
then the two apps alternate and the medians are compared. Each run starts after a pause:
the app asks for totals and projects right after its first paint and is stopped then, and
the server's answers to those must not slow the next run down (which, without the pause,
made whichever contender came next look slower).

Beside the wall time, each run's CPU time (user and system, every thread of the child,
from the kernel's accounting of the waited-for child) is compared the same way: on a
machine shared with other work it moves far less than the wall time, though it cannot
show work done in parallel (a thread overlapping the imports) as a saving.
"""

from __future__ import annotations

import fcntl
import json
import os
import resource
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
SCREEN = (120, 40)  # columns, lines
TIMEOUT_S = 30.0
NEEDLE_CHARS = 10
TARGET_RATIO = 1.25  # the budget with pydantic on the start path (issue 20)
DA1_QUERY = b"\x1b[c"  # Device Attributes: the app asks once what the terminal can draw
DA1_ANSWER = b"\x1b[?62;22c"  # a VT220-class terminal with colour, no graphics
TARGET_S = 1.0
SETTLE_S = 0.5  # between runs: the server finishes what the last run asked


def needle_for(base_url: str, api_key: str) -> bytes:
    """Bytes that appear on the terminal only once the first page's rows are painted."""
    response = httpx.get(
        f"{base_url}/v1/analyses",
        params={"limit": 100},
        headers={"Authorization": f"Bearer {api_key}"},
    )
    response.raise_for_status()
    labels = [str(row.get("label") or "")[:NEEDLE_CHARS] for row in response.json()["data"]]
    # The detail pane shows the first row's label: look for another row's.
    return next(
        label for label in labels[1:] if len(label) == NEEDLE_CHARS and label != labels[0]
    ).encode()


def child_env(api_key: str, home: Path) -> dict[str, str]:
    """The environment of both apps: a fresh home, the key, a colour terminal, byte code."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "SCREEN_ANALYSIS"))}
    for name in ("COLUMNS", "LINES", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        SCREEN_ANALYSIS_API_KEY=api_key,
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CACHE_HOME=str(home / "cache"),
        # Byte code is written once (the warm-up) and reused, as in an installed package.
        PYTHONPYCACHEPREFIX=str(home / "pycache"),
    )
    return env


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _drain(master: int, until: float) -> None:
    """Read what the child writes until `until` (perf_counter) or until it closes the
    terminal, so that it never blocks on a full one."""
    while (left := until - time.perf_counter()) > 0:
        ready, _, _ = select.select([master], [], [], left)
        if not ready:
            return
        try:
            if not os.read(master, 1 << 16):
                return
        except OSError:  # the child closed the terminal
            return


QUIT_S = 10.0  # how long a warm-up's app is given to quit once asked
# A warm-up's run after its first rows: the server's answer (at 400 ms) and the writes of
# the local cache it brings are over well within this.
WARM_UP_SETTLE_S = 3.0


def time_to_bytes(
    argv: Sequence[str],
    env: dict[str, str],
    needle: bytes,
    *,
    stop: Callable[[subprocess.Popen[bytes]], None] = subprocess.Popen.kill,
    timeout_s: float | None = None,
    settle_s: float = 0.0,
    seen: bytearray | None = None,
) -> tuple[float, float]:
    """(wall, CPU) seconds from spawning `argv` on a pseudo-terminal until it writes `needle`.

    The CPU time is the child's, every thread, up to the kill that follows the needle
    (`stop`, then a kill; `timeout_s`: TIMEOUT_S unless given). `settle_s`: a warm-up's, the
    app is let run that long after the needle (its output read) and then asked to quit
    (SIGTERM), so that what the server's answer brings is kept as a user's run keeps it: a
    kill at the needle can end the app before the local cache notes that the server took
    the key, and the next start then shows none of the kept rows. `seen` receives what the
    child wrote up to the needle."""
    master, slave = os.openpty()
    columns, lines = SCREEN
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    cpu_before = _children_cpu_s()
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, start_new_session=True
    )
    os.close(slave)
    output = bytearray()
    answered = False
    try:
        limit = TIMEOUT_S if timeout_s is None else timeout_s
        deadline = start + limit
        while True:
            ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.perf_counter()))
            if not ready:
                raise TimeoutError(f"no rows painted within {limit:g} s: {argv!r}")
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the child closed the terminal
                chunk = b""
            if not chunk:
                tail = bytes(output[-2000:]).decode(errors="replace")
                raise RuntimeError(f"{argv!r} exited before painting rows:\n{tail}")
            output += chunk
            if not answered and DA1_QUERY in output:
                # As every terminal does: the app's one capability query is answered at once.
                os.write(master, DA1_ANSWER)
                answered = True
            if needle in output[-(len(chunk) + len(needle)) :]:
                wall = time.perf_counter() - start
                if seen is not None:
                    seen += output
                break
        if settle_s > 0:
            _drain(master, time.perf_counter() + settle_s)
            process.terminate()
            _drain(master, time.perf_counter() + QUIT_S)
    finally:
        stop(process)
        process.kill()
        process.wait()
        os.close(master)
    return wall, _children_cpu_s() - cpu_before


def commands(base_url: str, *, cache: bool = False) -> dict[str, list[str]]:
    """How each contender is started (the app without its local cache unless `cache`: a
    cold start paints what the server sends)."""
    app = [sys.executable, "-m", "screen_analysis", "--base-url", base_url]
    return {
        "app": app if cache else [*app, "--no-cache"],
        "baseline": [sys.executable, "-m", "benchmarks.baseline_app", base_url],
    }


def run(
    base_url: str, api_key: str, repeats: int, *, cache: bool = False, target: float = TARGET_RATIO
) -> dict[str, Any]:
    """Time both apps `repeats` times each (after a warm-up, which also fills the app's
    local cache when `cache`); figures as a dict."""
    needle = needle_for(base_url, api_key)
    times: dict[str, list[float]] = {"app": [], "baseline": []}
    cpu: dict[str, list[float]] = {"app": [], "baseline": []}
    with tempfile.TemporaryDirectory(prefix="cold-start-") as home:
        env = child_env(api_key, Path(home))
        argvs = commands(base_url, cache=cache)
        for argv in argvs.values():
            # warm-up: byte code and disk cache (and, with the cache, the key taken)
            time_to_bytes(argv, env, needle, settle_s=WARM_UP_SETTLE_S if cache else 0.0)
        for _ in range(repeats):
            for name, argv in argvs.items():
                time.sleep(SETTLE_S)
                wall, used = time_to_bytes(argv, env, needle)
                times[name].append(wall)
                cpu[name].append(used)
    app = statistics.median(times["app"])
    baseline = statistics.median(times["baseline"])
    ratio = app / baseline
    app_cpu = statistics.median(cpu["app"])
    baseline_cpu = statistics.median(cpu["baseline"])
    return {
        "app_s": round(app, 3),
        "baseline_s": round(baseline, 3),
        "app_runs_s": [round(t, 3) for t in times["app"]],
        "baseline_runs_s": [round(t, 3) for t in times["baseline"]],
        "ratio": round(ratio, 3),
        "app_cpu_s": round(app_cpu, 3),
        "baseline_cpu_s": round(baseline_cpu, 3),
        "cpu_ratio": round(app_cpu / baseline_cpu, 3),
        "targets": {
            f"ratio <= {target:g}": ratio <= target,
            f"under {TARGET_S:g} s": app < TARGET_S,
        },
    }


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """Time both against a reference server with 5,000 analyses in its own process
    (`python -m benchmarks.cold_start [REPEATS]`, 5 alternating pairs by default)."""
    from screen_analysis.demo.config import DemoConfig

    from .server_process import ServerProcess

    repeats = int(argv[0]) if argv else 5
    with ServerProcess(DemoConfig(analyses=5000, seed=7)) as server:
        print(json.dumps(run(server.base_url, server.api_key, repeats=repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

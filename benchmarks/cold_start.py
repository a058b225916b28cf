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
"""

from __future__ import annotations

import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
SCREEN = (120, 40)  # columns, lines
TIMEOUT_S = 30.0
NEEDLE_CHARS = 10
TARGET_RATIO = 1.15
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
    return next(label for label in labels[1:] if len(label) == NEEDLE_CHARS != labels[0]).encode()


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


def time_to_bytes(argv: Sequence[str], env: dict[str, str], needle: bytes) -> float:
    """Seconds from spawning `argv` on a pseudo-terminal until it writes `needle`."""
    master, slave = os.openpty()
    columns, lines = SCREEN
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, start_new_session=True
    )
    os.close(slave)
    output = bytearray()
    answered = False
    try:
        deadline = start + TIMEOUT_S
        while True:
            ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.perf_counter()))
            if not ready:
                raise TimeoutError(f"no rows painted within {TIMEOUT_S:g} s: {argv!r}")
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
                return time.perf_counter() - start
    finally:
        process.kill()
        process.wait()
        os.close(master)


def commands(base_url: str) -> dict[str, list[str]]:
    """How each contender is started."""
    return {
        "app": [sys.executable, "-m", "screen_analysis", "--base-url", base_url],
        "baseline": [sys.executable, "-m", "benchmarks.baseline_app", base_url],
    }


def run(base_url: str, api_key: str, repeats: int) -> dict[str, Any]:
    """Time both apps `repeats` times each (after a warm-up); figures as a dict."""
    needle = needle_for(base_url, api_key)
    times: dict[str, list[float]] = {"app": [], "baseline": []}
    with tempfile.TemporaryDirectory(prefix="cold-start-") as home:
        env = child_env(api_key, Path(home))
        argvs = commands(base_url)
        for argv in argvs.values():
            time_to_bytes(argv, env, needle)  # warm-up: byte code and disk cache
        for _ in range(repeats):
            for name, argv in argvs.items():
                time.sleep(SETTLE_S)
                times[name].append(time_to_bytes(argv, env, needle))
    app = statistics.median(times["app"])
    baseline = statistics.median(times["baseline"])
    ratio = app / baseline
    return {
        "app_s": round(app, 3),
        "baseline_s": round(baseline, 3),
        "app_runs_s": [round(t, 3) for t in times["app"]],
        "baseline_runs_s": [round(t, 3) for t in times["baseline"]],
        "ratio": round(ratio, 3),
        "targets": {
            f"ratio <= {TARGET_RATIO:g}": ratio <= TARGET_RATIO,
            f"under {TARGET_S:g} s": app < TARGET_S,
        },
    }


def main() -> int:
    """Time both against a reference server with 5,000 analyses in its own process."""
    from screen_analysis.demo.config import DemoConfig

    from .server_process import ServerProcess

    with ServerProcess(DemoConfig(analyses=5000, seed=7)) as server:
        print(run(server.base_url, server.api_key, repeats=5))
    return 0


if __name__ == "__main__":
    sys.exit(main())

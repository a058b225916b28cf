"""Warm start of several versions of the app against the local floor, in the same runs.

`python -m benchmarks.warm_start_trees PAIRS NAME=SRC [NAME=SRC ...]` runs each version's
warm start (SRC first on `PYTHONPATH`, prepared as for `cold_start_trees`) and the local
floor (`benchmarks/local_app.py`) one after another in rounds, in the harness of `floor`:
the reference server at 400 ms, the app's local cache filled by three warm-ups per version.
Prints each version's median wall and CPU time, the medians of its rounds' ratios to the
floor and to the first version, as JSON.

With `--instructions` first, each run goes through valgrind's cachegrind instead and the
figure is the instructions the process runs until the first rows are on the terminal: the
same on a quiet machine and on a loaded one (the wall and CPU times on a shared machine
move by more than a change of a few percent), at about thirty times the time. The counted
runs come after the warm-ups have filled the cache, with the server then answering nothing
within the count (`COUNTED_LATENCY_MS`): thirty times slower, the app would otherwise meet
the server's 400 ms answer before its kept rows, and count a path that changes from one
version to the next. What is counted is the warm start itself, up to the kept rows.

With `--config` (after `--instructions` when both are given), every version starts with a
config file as most signed-in users have one (`TYPICAL_CONFIG`: a theme, a refresh interval,
a keymap, a saved view and a profile chosen by default); the floor has none to read.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from . import cold_start
from .floor import LATENCY_MS, write_first_page

WARM_UPS = 3  # the first run fills the cache, the next records that the server took the key
TYPICAL_CONFIG = """\
theme = "screen-analysis-dark"
refresh_interval = 30
default_profile = "work"

[keymap]
find = "ctrl+f"

[views.failures]
status = "failed"
sort = "-score"

[profiles.work]
theme = "screen-analysis-light"
"""
# Longer than any counted start: the server's answer never arrives before the kept rows.
COUNTED_LATENCY_MS = 3_600_000.0
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _counted(process: subprocess.Popen[bytes]) -> None:
    """Stop a run under valgrind so that it writes its counts (a kill would not)."""
    process.send_signal(signal.SIGUSR1)
    with contextlib.suppress(subprocess.TimeoutExpired):  # then killed, and no count found
        process.wait(60)


def instructions(argv: list[str], env: dict[str, str], needle: bytes, log: Path) -> float:
    """The instructions `argv` runs until it writes `needle` (cachegrind, no cache model)."""
    cachegrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        f"--log-file={log}",
    ]
    cold_start.time_to_bytes([*cachegrind, *argv], env, needle, stop=_counted, timeout_s=600)
    found = _REFS.search(log.read_text(encoding="utf-8"))
    if found is None:
        raise RuntimeError(f"no instruction count in {log}")
    return float(found.group(1).replace(",", ""))


def run(
    pairs: int, trees: dict[str, str], *, count: bool = False, config: bool = False
) -> dict[str, object]:
    """Each version and the floor `pairs` times, alternating; figures by name (`config`:
    the versions read `TYPICAL_CONFIG`)."""
    from screen_analysis.demo.config import DemoConfig

    from .server_process import ServerProcess

    demo = DemoConfig(analyses=5000, seed=7, latency_ms=LATENCY_MS)
    with ServerProcess(demo) as server, tempfile.TemporaryDirectory(prefix="warm-") as home:
        needle = cold_start.needle_for(server.base_url, server.api_key)
        env = cold_start.child_env(server.api_key, Path(home))
        if config:  # where the app looks: XDG_CONFIG_HOME (child_env) / screen-analysis
            folder = Path(env["XDG_CONFIG_HOME"]) / "screen-analysis"
            folder.mkdir(parents=True)
            (folder / "config.toml").write_text(TYPICAL_CONFIG, encoding="utf-8")
        page = Path(home) / "page.json"
        write_first_page(server.base_url, server.api_key, page)
        app = cold_start.commands(server.base_url, cache=True)["app"]
        contenders = {name: (app, dict(env, PYTHONPATH=src)) for name, src in trees.items()}
        contenders["floor"] = ([sys.executable, "-m", "benchmarks.local_app", str(page)], env)
        for argv, child in contenders.values():
            for _ in range(WARM_UPS):
                cold_start.time_to_bytes(argv, child, needle, settle_s=cold_start.WARM_UP_SETTLE_S)
        if count:
            server.set_latency(COUNTED_LATENCY_MS)
        figures: dict[str, list[float]] = {name: [] for name in contenders}
        cpu: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(pairs):
            for name, (argv, child) in contenders.items():
                time.sleep(cold_start.SETTLE_S)
                if count:
                    figures[name].append(instructions(argv, child, needle, Path(home) / "log"))
                    continue
                spent, used = cold_start.time_to_bytes(argv, child, needle)
                figures[name].append(spent)
                cpu[name].append(used)
    first = next(iter(trees))

    def ratio(name: str, other: str, of: dict[str, list[float]]) -> float:
        return round(statistics.median(a / b for a, b in zip(of[name], of[other], strict=True)), 3)

    out: dict[str, object] = {}
    for name in contenders:
        median = statistics.median(figures[name])
        entry: dict[str, object] = {
            "instructions_m" if count else "wall_ms": round(
                median / 1e6 if count else median * 1e3
            ),
            "ratio_to_floor": ratio(name, "floor", figures),
            f"ratio_to_{first}": ratio(name, first, figures),
        }
        if not count:
            entry["cpu_ratio_to_floor"] = ratio(name, "floor", cpu)
        out[name] = entry
    return out


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """Against a reference server with 5,000 analyses in its own process."""
    args = list(argv)
    count = bool(args) and args[0] == "--instructions"
    args = args[1:] if count else args
    config = bool(args) and args[0] == "--config"
    args = args[1:] if config else args
    if len(args) < 2 or any("=" not in arg for arg in args[1:]):
        print(__doc__, file=sys.stderr)
        return 2
    trees = dict(arg.split("=", 1) for arg in args[1:])
    print(json.dumps(run(int(args[0]), trees, count=count, config=config)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The quality gate's cost: `check` against `analyses list --all` over the same scope.

Both run as fresh interpreters (`python -m screen_analysis …`) against the same reference
server in its own process, alternating; the server's request log counts what each asked
for. Figures, for every project and for one project:

- list requests of `check` / of `analyses list --all --format jsonl` (target 1.00: the
  gate is one walk of the scope's pages, nothing more);
- wall-clock time, the quickest of the repeats of each (target ≤ 1.2: measuring and
  judging cost little beside reading the pages and writing them out);
- requests per `--wait` round while analyses are in flight, against the app's polling
  budget of two pages a round.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .cold_start import ROOT, child_env
from .server_process import ServerProcess

TARGET_REQUEST_RATIO = 1.0
TARGET_TIME_RATIO = 1.2
BUDGET_PAGES = 2
WAIT_ROUNDS = 4
POLL_S = 0.25
TIMEOUT_S = 600.0


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Run to the end with stdout discarded; (seconds, exit code)."""
    started = time.perf_counter()
    done = subprocess.run(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        timeout=TIMEOUT_S, check=False,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 6, 7):
        raise RuntimeError(f"{argv!r} exited with {done.returncode}: {done.stderr.decode()}")
    return elapsed, done.returncode


def _listings(server: ServerProcess, status: str | None = None) -> int:
    return sum(
        1
        for _, path, query, _ in server.request_log()
        if path == "/v1/analyses" and (status is None or query.get("status") == status)
    )


def measure_scope(
    server: ServerProcess, env: dict[str, str], scope: list[str], repeats: int
) -> dict[str, Any]:
    """Requests and the quickest time of each command over one scope."""
    base = [sys.executable, "-m", "screen_analysis", "--base-url", server.base_url]
    argvs = {
        "list": [*base, "analyses", "list", "--all", "--format", "jsonl", *scope],
        "check": [*base, "check", "--min-count", "1", "--max-failed", "50", *scope],
    }
    times: dict[str, list[float]] = {name: [] for name in argvs}
    requests: dict[str, int] = {}
    for _ in range(repeats):
        for name, argv in argvs.items():
            before = _listings(server)
            elapsed, _ = _run(argv, env)
            times[name].append(elapsed)
            requests[name] = _listings(server) - before
    check_s, list_s = min(times["check"]), min(times["list"])
    return {
        "list_requests": requests["list"],
        "check_requests": requests["check"],
        "request_ratio": round(requests["check"] / requests["list"], 3),
        "list_s": round(list_s, 3),
        "check_s": round(check_s, 3),
        "time_ratio": round(check_s / list_s, 3),
    }


def measure_wait(server: ServerProcess, env: dict[str, str]) -> dict[str, Any]:
    """Requests per polling round of `check --wait` while analyses stay in flight (the
    server's data does not move, so the wait runs to its timeout)."""
    base = [sys.executable, "-m", "screen_analysis", "--base-url", server.base_url]
    argv = [*base, "check", "--min-count", "1", "--wait", "--poll-interval", str(POLL_S)]
    argv += ["--timeout", str(POLL_S * (WAIT_ROUNDS - 1))]
    before, rounds_before = _listings(server), _listings(server, "pending")
    _, code = _run(argv, env)
    polls = _listings(server) - before
    rounds = _listings(server, "pending") - rounds_before  # each round reads pending once
    return {
        "exit_code": code,
        "rounds": rounds,
        "requests": polls,
        "per_round": round(polls / rounds, 2),
        "budget_pages": BUDGET_PAGES,
    }


def run(analyses: int = 20_000, repeats: int = 2) -> dict[str, Any]:
    """Every figure against a reference server with `analyses` analyses."""
    from screen_analysis.demo.config import DemoConfig

    with (
        ServerProcess(DemoConfig(analyses=analyses, seed=7)) as server,
        tempfile.TemporaryDirectory(prefix="check-walk-") as home,
    ):
        env = child_env(server.api_key, Path(home))
        _run([sys.executable, "-m", "screen_analysis", "check", "--help"], env)  # byte code
        project = _largest_project(server)
        everything = measure_scope(server, env, [], repeats)
        one = measure_scope(server, env, ["--project-id", project], repeats)
        waiting = measure_wait(server, env)
    ratios = [everything["request_ratio"], one["request_ratio"]]
    times = [everything["time_ratio"], one["time_ratio"]]
    return {
        "analyses": analyses,
        "all_projects": everything,
        "one_project": {"project_id": project, **one},
        "wait": waiting,
        "targets": {
            f"requests = {TARGET_REQUEST_RATIO:g}×": all(r == TARGET_REQUEST_RATIO for r in ratios),
            f"time ≤ {TARGET_TIME_RATIO:g}×": all(t <= TARGET_TIME_RATIO for t in times),
            f"wait ≤ {BUDGET_PAGES} requests a round": waiting["per_round"] <= BUDGET_PAGES,
        },
    }


def _largest_project(server: ServerProcess) -> str:
    import httpx

    headers = {"Authorization": f"Bearer {server.api_key}"}
    page = httpx.get(
        f"{server.base_url}/v1/analyses", params={"limit": 100}, headers=headers, timeout=30
    ).json()
    counts: dict[str, int] = {}
    for item in page["data"]:
        counts[item["project_id"]] = counts.get(item["project_id"], 0) + 1
    return max(counts, key=lambda p: counts[p])


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m benchmarks.check_walk [--analyses N] [--repeats N]`: figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.check_walk")
    parser.add_argument("--analyses", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.analyses, args.repeats), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`screen-analysis watch` against the reference server: a JSON line per change, `--until
done` ending within one interval of the last in-flight analysis finishing, `--timeout`'s
exit code, `--exec` without a shell, Ctrl-C. The live simulation moves on with each
(instant) sleep of a stepped clock."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from tests.conftest import DEMO_NOW, Serve, demo_config
from tests.support.clock import SteppedClock

from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer

PRINT_ARGV = Path(__file__).parents[1] / "support" / "print_argv.py"


@pytest.fixture
def server(against, served: Serve, monkeypatch: pytest.MonkeyPatch) -> DemoServer:
    server = served(demo_config())
    against(server.base_url, server.api_key)
    monkeypatch.setenv("SCREEN_ANALYSIS_REFRESH_INTERVAL", "3")
    return server


@pytest.fixture
def live(server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The simulation moves on at each sleep of the watch's clock; returns, per sleep,
    whether every analysis in flight at the start had finished by then."""
    from screen_analysis.cli import watch

    simulator = LiveSimulator(server.config, server.store)
    awaited = {row.id for row in server.store.in_flight()}
    finished: list[bool] = []

    def advance(elapsed: float) -> None:
        simulator.tick(DEMO_NOW + timedelta(seconds=elapsed))
        finished.append(not awaited & {row.id for row in server.store.in_flight()})

    monkeypatch.setattr(watch, "CLOCK", SteppedClock(DEMO_NOW, on_sleep=advance))
    return finished


def test_until_done_exits_0_within_one_interval_of_the_last_finishing(
    server: DemoServer, live: list[bool], invoke
) -> None:
    awaited = {row.id for row in server.store.in_flight()}
    result = invoke("watch", "--until", "done")
    assert result.exit_code == 0, result.stderr
    assert live.index(True) == len(live) - 1  # the round right after the last one finished
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert {e["event"] for e in events} <= {"created", "status", "completed", "failed"}
    ended = {e["analysis"]["id"]: e for e in events if e["event"] in ("completed", "failed")}
    assert awaited <= ended.keys()
    for event in ended.values():
        assert event["analysis"]["status"] == event["event"]
        assert event["previous_status"] in ("pending", "processing")


def test_until_done_with_a_timeout_exits_as_check_wait_does(
    server: DemoServer, invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screen_analysis.cli import watch

    monkeypatch.setattr(watch, "CLOCK", SteppedClock(DEMO_NOW))  # nothing moves on
    waiting = len(server.store.in_flight())
    result = invoke("watch", "--until", "done", "--timeout", "10")
    assert result.exit_code == 7
    assert result.stderr.strip() == f"Error: {waiting} analyses still in flight at --timeout"


def test_a_scope_with_nothing_in_flight_is_done_at_once(server: DemoServer, invoke) -> None:
    result = invoke("watch", "--status", "completed", "--until", "done")
    assert result.exit_code == 0 and result.stdout == ""


def test_table_lines_are_readable_and_escaped(server: DemoServer, live: list[bool], invoke) -> None:
    result = invoke("watch", "--until", "done", "--format", "table")
    assert result.exit_code == 0, result.stderr
    done = [line for line in result.stdout.splitlines() if "  completed  " in line]
    assert done and all(" UTC  completed  ana_" in line and "score " in line for line in done)
    assert "\x1b" not in result.stdout
    assert result.stderr.startswith("Watching every 3 s; Ctrl-C to stop.")


def test_exec_runs_per_event_with_whole_arguments(
    server: DemoServer, live: list[bool], invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("ARGV_LOG", str(log))
    line = f"{sys.executable} {PRINT_ARGV} {{event}} {{id}} {{score}} '{{label}}x' --"
    result = invoke("watch", "--until", "done", "--exec", line)
    assert result.exit_code == 2  # a placeholder inside an argument is refused
    assert "a placeholder is a whole argument" in result.stderr
    line = f"{sys.executable} {PRINT_ARGV} {{event}} {{id}} {{score}} {{label}}"
    result = invoke("watch", "--until", "done", "--exec", line)
    assert result.exit_code == 0, result.stderr
    events = [json.loads(x) for x in result.stdout.splitlines()]
    given = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert len(given) == len(events)
    for argv, event in zip(given, events, strict=True):
        analysis = event["analysis"]
        score = "" if analysis["score"] is None else str(analysis["score"])
        assert argv == [event["event"], analysis["id"], score, analysis["label"]]


def test_an_unknown_placeholder_is_a_usage_error(server: DemoServer, invoke) -> None:
    result = invoke("watch", "--exec", "echo {nope}")
    assert result.exit_code == 2
    assert "unknown placeholder {nope}" in result.stderr
    assert server.request_log == []


def test_ctrl_c_exits_130_cleanly(server: DemoServer, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "screen_analysis", "watch", "--format", "table"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline()  # the watch has begun
        assert first.startswith("Watching every 3 s"), first
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert err.strip() == "Interrupted."

"""The command line ended by SIGTERM or SIGHUP (a CI job cancelled, a terminal closed) while
it streams a listing from a slow server: it unwinds as an error does, with exit code 128 +
the signal's number and no traceback, and leaves no temp file of a report it was writing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.conftest import demo_config

from screen_analysis.demo.runner import DemoServer


def start(server: DemoServer, *args: str, cwd: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "SCREEN_ANALYSIS_BASE_URL": server.base_url,
        "SCREEN_ANALYSIS_API_KEY": server.api_key,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "screen_analysis", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_mid_listing_ends_the_command_as_an_error_does(
    tmp_path: Path, sig: signal.Signals
) -> None:
    with DemoServer(demo_config(analyses=3000, latency_ms=300)) as server:
        listing = start(server, "analyses", "list", "--all", "--format", "jsonl", cwd=tmp_path)
        assert listing.stdout is not None and listing.stdout.readline().startswith(b"{")
        listing.send_signal(sig)
        _out, err = listing.communicate(timeout=30)
    assert listing.returncode == 128 + sig, err.decode()
    assert b"Traceback" not in err


def test_a_signal_while_a_report_is_gathered_leaves_no_file(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    with DemoServer(demo_config(analyses=3000, latency_ms=300)) as server:
        server.request_log.clear()
        report = start(server, "report", "-o", "r.html", cwd=work)
        deadline = time.monotonic() + 30
        while len(server.request_log) < 2:  # the report is reading its pages
            assert report.poll() is None and time.monotonic() < deadline, report.communicate()
            time.sleep(0.02)
        report.send_signal(signal.SIGTERM)
        _out, err = report.communicate(timeout=30)
    assert report.returncode == 128 + signal.SIGTERM, err.decode()
    assert sorted(p.name for p in work.iterdir()) == [], "no report, no temp file"

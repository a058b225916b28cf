"""schemathesis against the reference server: every phase (examples, coverage, fuzzing and
stateful, following next_cursor into `after`) with every check, bounded to stay quick."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from screen_analysis.demo.runner import DemoServer

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
HOOKS = "tests.demo.schemathesis_hooks"  # ST202 that knows cursors are opaque


@pytest.mark.timeout(240)
def test_schemathesis_finds_no_mismatch(demo_server: DemoServer, tmp_path: Path) -> None:
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "run"),
        f"{demo_server.base_url}/openapi.json",
        *("--header", f"Authorization: Bearer {demo_server.api_key}"),
        *("--phases", "examples,coverage,fuzzing,stateful"),
        *("--checks", "all", "--exclude-checks", "positive_data_acceptance"),
        *("--max-examples", "60", "--seed", "1"),  # the same cases every run
        "--no-color",
    ]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": HOOKS, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=220, check=False
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report[-6000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in report or f"✅  {phase}" in report, report[-3000:]

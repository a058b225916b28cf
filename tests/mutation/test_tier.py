"""The mutation tier end to end (second tier): `scripts/mutation.py` runs mutmut on a small
module in a workspace of its own and the summary reads its results, so a mutmut release that
changes its result files fails here rather than in a score."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]


def test_the_tier_runs_a_module_and_the_summary_reads_it(tmp_path: Path) -> None:
    env = {**os.environ, "MUTATION_WORK": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "scripts/mutation.py", "safe_text", "--check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=540,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert (tmp_path / "safe_text" / "run.json").exists()
    table = subprocess.run(
        [sys.executable, "scripts/mutation_summary.py", "safe_text"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    row = next(line for line in table.splitlines() if line.startswith("safe_text"))
    mutants, killed = (int(cell) for cell in row.split()[1:3])
    assert mutants > 50 and killed > 0.9 * mutants, table

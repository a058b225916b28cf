"""The screenshots script runs, and the committed screenshots are what it renders now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# Byte for byte what the locked Textual draws; a re-render of every shot in a subprocess.
pytestmark = [pytest.mark.e2e, pytest.mark.snapshot]

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "screenshots"


def test_the_script_renders_the_committed_screenshots(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(FOLDER / "render.py"), "--out", str(tmp_path)],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=300,
    )
    rendered = sorted(p.name for p in tmp_path.glob("*.svg"))
    committed = sorted(p.name for p in FOLDER.glob("*.svg"))
    assert rendered == committed
    assert {
        "main-120x40.svg",
        "main-80x24.svg",
        "detail-completed.svg",
        "detail-failed.svg",
    } <= set(rendered)
    assert any(name.startswith("theme-") for name in rendered)
    stale = [
        name for name in rendered if (tmp_path / name).read_bytes() != (FOLDER / name).read_bytes()
    ]
    assert not stale, f"run `uv run python screenshots/render.py`: {stale} are out of date"

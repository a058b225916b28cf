"""Watching in a real terminal: the installed app on the live demo in a tmux pane, `w` on
the newest analysis (pending or processing on the live demo), and when its scoring ends a
toast on screen and, in what the app wrote to the terminal, the desktop notification's OSC
777 sequence wrapped for tmux's passthrough."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .terminal_driver import APP, Pane, app_env, have_tmux, loaded

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]

ENDED = re.compile(r"(completed: score \d+|failed: )")
OSC777_IN_TMUX = re.compile(
    rb"\x1bPtmux;\x1b\x1b\]777;notify;screen-analysis;([^\x1b]*)\x1b\x1b\\\x1b\\"
)


def first_row_in_flight(text: str) -> bool:
    rows = [
        line
        for line in text.splitlines()
        if "○ wait" in line or "● done" in line or "◐ run" in line or "✗ fail" in line
    ]
    return bool(rows) and ("○ wait" in rows[0] or "◐ run" in rows[0])


def test_a_watched_analysis_ends_with_a_toast_and_a_desktop_notification(
    tmp_path: Path,
) -> None:
    config = tmp_path / ".config" / "screen-analysis"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('notify = ["toast", "bell", "desktop"]\n')
    line = app_env(tmp_path, "xterm-256color") + f" {APP} --demo"
    pane = Pane(tmp_path, line, 130, 40)
    try:
        assert pane.wait(lambda: loaded(pane.text()) >= 100, 30), pane.text()
        assert pane.wait(
            lambda: (
                "○ wait" in pane.text().splitlines()[4] or "◐ run" in pane.text().splitlines()[4]
            ),
            30,
        )
        pane.keys("w")
        assert pane.wait(lambda: "Watching 1 analysis" in pane.text()), pane.text()
        assert pane.wait(lambda: ENDED.search(pane.text()) is not None, 60), pane.text()
        assert pane.wait(lambda: OSC777_IN_TMUX.search(pane.raw.read_bytes()) is not None)
        found = OSC777_IN_TMUX.search(pane.raw.read_bytes())
        assert found is not None
        said = found.group(1).decode()
        assert ENDED.search(said), said
        assert said.split(":")[0] in pane.text()  # the toast names the same analysis
        watches = tmp_path / ".local/share/screen-analysis/watches.json"
        assert '"servers": {}' in watches.read_text()  # dropped once finished
    finally:
        pane.close()

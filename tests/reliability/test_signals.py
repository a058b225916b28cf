"""Signals that end the app, in a real terminal: SIGTERM or SIGHUP while the app exports
every page of a view (a slow server keeps the export going) ends it as `q` would: the
terminal is given back (alternate screen left, mouse tracking off, cursor shown, as tmux
sees the pane afterwards), the half-written export's temp file is gone, and the exit code
is 128 + the signal's number."""

from __future__ import annotations

import os
import shlex
import signal
from pathlib import Path

import pytest
from tests.conftest import demo_config

from screen_analysis.demo.runner import DemoServer

from .terminal_driver import APP, Pane, app_env, have_tmux, loaded

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed (apt install tmux)"),
]

TERMINAL_STATE = "#{alternate_on} #{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_during_an_export_gives_the_terminal_back_and_leaves_no_temp_file(
    tmp_path: Path, sig: signal.Signals
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    with DemoServer(demo_config(analyses=3000, latency_ms=400)) as server:
        env = app_env(
            work,
            "xterm-256color",
            SCREEN_ANALYSIS_BASE_URL=server.base_url,
            SCREEN_ANALYSIS_API_KEY=server.api_key,
            SCREEN_ANALYSIS_REFRESH_INTERVAL="0",
        )
        pid_file, rc_file = work / "pid", work / "rc"
        inner = f"echo $$ > {shlex.quote(str(pid_file))}; exec {env} {APP}"
        command = f"cd {shlex.quote(str(work))} && sh -c {shlex.quote(inner)}"
        pane = Pane(
            tmp_path, f"{command}; echo $? > {shlex.quote(str(rc_file))}; sleep 60", 120, 40
        )
        try:
            assert pane.wait(lambda: loaded(pane.text()) >= 100, 30), pane.text()
            assert pane.state(TERMINAL_STATE).split()[0] == "1", (
                "the app is in the alternate screen"
            )
            pane.keys("e")
            assert pane.wait(lambda: "analyses-all-all.csv" in pane.text()), pane.text()
            pane.keys("Enter")
            assert pane.wait(lambda: "Every page" in pane.text()), pane.text()
            pane.keys("a")
            assert pane.wait(lambda: bool(temp_files(work)), 20), pane.text()
            os.kill(int(pid_file.read_text()), sig)
            assert pane.wait(lambda: rc_file.exists() and rc_file.read_text().strip() != "", 20)
            exit_code = int(rc_file.read_text())
            state = pane.state(TERMINAL_STATE + " #{cursor_flag}")
            shown = pane.text()
        finally:
            pane.close()
    assert exit_code == 128 + sig
    assert state == "0 000 1", f"alternate screen, mouse, cursor: {state!r}\n{shown}"
    assert temp_files(work) == [], "no temp file left"
    assert not (work / "analyses-all-all.csv").exists(), "no half-written export in place"


def temp_files(folder: Path) -> list[str]:
    """The hidden temp files of a write under way (`.NAME.<hex>.tmp`)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))

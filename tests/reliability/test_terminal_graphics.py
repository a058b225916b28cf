"""Images in real terminals, read back from what reached them: the installed app in a real
xterm under a virtual display (xterm's own log of everything written to it), on a
pseudo-terminal with TERM=xterm answering as xterm does, and in tmux, whose pane title a
graphics question it did not pass on would overwrite.

In each the detail shows the analysed screen in half-cell blocks (▀) by default, and no
kitty graphics command (ESC _ G) is written: xterm cannot answer it, tmux takes it for the
pane title."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .terminal_driver import APP, Pane, app_env, have_tmux, loaded

pytestmark = pytest.mark.e2e

HALF_BLOCK = "▀".encode()
KITTY_COMMAND = b"\x1b_G"
DA1 = b"\x1b[c"
XTERM_DA1_ANSWER = b"\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c"  # xterm's, as a VT420: no sixel
PICTURE_CELLS = 200  # a picture in the detail at 120×40 is some 40×14 half-blocks


def home_env(work: Path, term: str) -> dict[str, str]:
    """The app's environment: its own home and XDG folders in `work`, `term`, no COLORTERM
    (so TERM alone says how many colours there are)."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(work),
        "XDG_CONFIG_HOME": str(work / ".config"),
        "XDG_DATA_HOME": str(work / ".local/share"),
        "XDG_CACHE_HOME": str(work / ".cache"),
        "XDG_STATE_HOME": str(work / ".local/state"),
        "LANG": "C.UTF-8",
        "TERM": term,
    }


def wait_for(check: object, timeout: float) -> bool:
    """Poll `check` until it holds or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


# --- A real xterm under Xvfb ------------------------------------------------------------


@pytest.fixture
def display() -> Iterator[str]:
    """A virtual X display of its own (Xvfb picks a free number)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None or shutil.which("xterm") is None:
        pytest.skip("xterm and Xvfb are not installed (apt install xterm xvfb)")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        with os.fdopen(read_end) as numbers:
            number = numbers.readline().strip()  # written once the server listens
        if not number:
            pytest.fail("Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def test_xterm_shows_the_image_in_half_cells_and_is_sent_no_kitty_command(
    tmp_path: Path, display: str
) -> None:
    log = tmp_path / "xterm.log"
    env = home_env(tmp_path, "xterm")
    command = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), str(APP), "--demo"]
    window = ["-tn", "xterm", "-geometry", "120x40", "-fa", "DejaVu Sans Mono", "-fs", "9"]
    xterm = subprocess.Popen(
        ["xterm", *window, "-l", "-lf", str(log), "-e", *command],
        env={**os.environ, "DISPLAY": display},
        stderr=subprocess.DEVNULL,
    )
    try:

        def shown() -> bytes:
            return log.read_bytes() if log.exists() else b""

        drawn = wait_for(lambda: shown().count(HALF_BLOCK) >= PICTURE_CELLS, 90)
        assert drawn, f"no picture in half-cell blocks; xterm exited: {xterm.poll()}"
        assert KITTY_COMMAND not in shown()
    finally:
        xterm.terminate()
        xterm.wait(10)


# --- A pseudo-terminal that answers as xterm -------------------------------------------------


class XtermPty:
    """The app on a pseudo-terminal of 120×40 with TERM=xterm; the Device Attributes
    question is answered as xterm answers it; everything the app writes is kept."""

    def __init__(self, work: Path) -> None:
        env = home_env(work, "xterm")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the terminal's size first, then the app
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
            os.execve(str(APP), [str(APP), "--demo"], env)
        self.output = b""
        self.status: int | None = None

    def pump(self, timeout: float = 0.1) -> None:
        """Read what the app wrote; answer its Device Attributes question."""
        if select.select([self.fd], [], [], timeout)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the app has gone: the pty's other side is closed
                chunk = b""
            if DA1 in chunk:
                os.write(self.fd, XTERM_DA1_ANSWER)
            self.output += chunk
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)

    def until(self, check: object, timeout: float) -> bool:
        """Pump until `check` holds (or `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            if check():  # type: ignore[operator]
                return True
        return False

    def close(self) -> None:
        """End the app if it is still running."""
        if self.status is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def test_on_a_term_xterm_pty_the_detail_draws_half_cells_and_q_quits(tmp_path: Path) -> None:
    app = XtermPty(tmp_path)
    try:
        drawn = app.until(lambda: app.output.count(HALF_BLOCK) >= PICTURE_CELLS, 90)
        assert drawn, app.output[-2000:].decode("utf-8", "replace")
        assert DA1 in app.output, "the terminal was asked, once, before the app started"
        os.write(app.fd, b"q")
        assert app.until(lambda: app.status is not None, 30), "q did not end the app"
        assert app.status == 0
        assert KITTY_COMMAND not in app.output
    finally:
        app.close()


# --- tmux's pane title --------------------------------------------------------------------


@pytest.mark.skipif(not have_tmux(), reason="tmux is not installed (apt install tmux)")
def test_tmux_pane_title_is_what_it_was_after_start_and_after_quit(tmp_path: Path) -> None:
    rc_file = tmp_path / "rc"
    start = f"{app_env(tmp_path, 'tmux-256color')} {APP} --demo"
    # The shell waits for Enter, so the title is read before the app writes anything.
    pane = Pane(tmp_path, f"read go; {start}; echo $? > {rc_file}; sleep 5", 120, 40)
    try:
        assert wait_for(lambda: pane.title() != "", 10)
        before = pane.title()
        pane.keys("Enter")
        assert pane.wait(lambda: loaded(pane.text()) >= 1, 60), pane.text()
        assert pane.wait(lambda: "▀" * 10 in pane.text(), 30), "half-cell blocks in tmux"
        assert pane.title() == before
        pane.keys("q")
        assert pane.wait(lambda: rc_file.exists() and rc_file.read_text().strip() != "", 30)
        assert rc_file.read_text().strip() == "0"
        assert pane.title() == before
        assert KITTY_COMMAND not in pane.raw.read_bytes()
    finally:
        pane.close()

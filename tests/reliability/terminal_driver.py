"""Drive the installed `screen-analysis --demo` in a real terminal (a tmux pane) and record
what it wrote: start, rows, End/PageDown paging, `y` copying (OSC 52), `q` with exit 0."""

from __future__ import annotations

import base64
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = Path(sys.executable).with_name("screen-analysis")
OSC52 = re.compile(rb"\x1b\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)")
ROWS = re.compile(r"Loaded ([1-9][\d,]*)")


def have_tmux() -> bool:
    """Whether tmux is installed."""
    return shutil.which("tmux") is not None


@dataclass(frozen=True)
class Terminal:
    """One terminal to try: TERM, NO_COLOR, and the size in cells."""

    term: str
    width: int
    height: int
    no_color: bool = False

    @property
    def name(self) -> str:
        return f"{self.term}{'+NO_COLOR' if self.no_color else ''}-{self.width}x{self.height}"


@dataclass
class Run:
    """What one run showed and wrote."""

    terminal: Terminal
    steps: list[str] = field(default_factory=list)
    screens: dict[str, str] = field(default_factory=dict)
    copied: str | None = None
    exit_code: int | None = None
    raw: bytes = b""
    seconds: float = 0.0
    error: str = ""


class Pane:
    """A tmux server of its own with one pane running `command`; raw output piped to a file."""

    def __init__(self, work: Path, command: str, width: int, height: int) -> None:
        self.socket = f"sa-{uuid.uuid4().hex[:8]}"
        self.raw = work / "raw.out"
        self.raw.touch()
        self._tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command)
        self._tmux("pipe-pane", "-O", "-t", "t", f"cat >> {shlex.quote(str(self.raw))}")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=20,
        )
        return done.stdout

    def text(self) -> str:
        """What the pane shows now."""
        return self._tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def title(self) -> str:
        """The pane's title, as tmux shows it in its status line."""
        return self._tmux("display-message", "-p", "-t", "t", "#{pane_title}").rstrip("\n")

    def state(self, formats: str) -> str:
        """What tmux knows of the pane's terminal, in its format language (e.g.
        `#{alternate_on}` for the alternate screen, `#{cursor_flag}` for a shown cursor)."""
        return self._tmux("display-message", "-p", "-t", "t", formats).strip()

    def wait(self, check: object, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():  # type: ignore[operator]
                return True
            time.sleep(0.1)
        return False

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def loaded(text: str) -> int:
    """The "Loaded N" count of the status line (0 when absent)."""
    match = ROWS.search(text)
    return int(match.group(1).replace(",", "")) if match else 0


def app_env(work: Path, term: str, **extra: str) -> str:
    """`env …` for the app in a pane: its own home and XDG folders in `work`, `term`, and
    `extra`. The pane's size is the terminal's: a COLUMNS or LINES in the environment
    would override it (a tmux server started from a test can hand its own down)."""
    env = {
        "HOME": str(work),
        "XDG_CONFIG_HOME": str(work / ".config"),
        "XDG_DATA_HOME": str(work / ".local/share"),
        "XDG_CACHE_HOME": str(work / ".cache"),
        "TERM": term,
        "LANG": "C.UTF-8",
        **extra,
    }
    return "env -u COLUMNS -u LINES " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())


def drive(terminal: Terminal, work: Path, command: list[str] | None = None) -> Run:
    """Run the app in a pane (or `command`, which must run it) and go through the steps."""
    run = Run(terminal)
    started = time.monotonic()
    rc_file = work / "rc"
    extra = {"NO_COLOR": "1"} if terminal.no_color else {}
    app = command or [str(APP), "--demo"]
    line = app_env(work, terminal.term, **extra)
    line += " " + " ".join(shlex.quote(part) for part in app)
    pane = Pane(
        work,
        f"{line}; echo $? > {shlex.quote(str(rc_file))}; sleep 5",
        terminal.width,
        terminal.height,
    )
    try:
        if not pane.wait(lambda: loaded(pane.text()) >= 100, 30):
            run.error = "no rows shown:\n" + pane.text()
            return run
        run.steps.append("rows")
        run.screens["start"] = pane.text()
        pane.keys("End")
        if not pane.wait(lambda: loaded(pane.text()) >= 200):
            run.error = "End did not load the next page:\n" + pane.text()
            return run
        run.steps.append("end")
        for key in ("Home", "PageDown"):  # each moves what the screen shows
            before = pane.text()
            pane.keys(key)
            if not pane.wait(lambda before=before: pane.text() != before):
                run.error = f"{key} changed nothing:\n" + pane.text()
                return run
        run.screens["paged"] = pane.text()
        run.steps.append("pagedown")
        pane.keys("y")
        if not pane.wait(lambda: OSC52.search(pane.raw.read_bytes()) is not None):
            run.error = "no OSC 52 sequence after y"
            return run
        match = OSC52.search(pane.raw.read_bytes())
        assert match is not None
        run.copied = base64.b64decode(match.group(1)).decode("utf-8", errors="replace")
        run.steps.append("copy")
        pane.keys("q")
        if not pane.wait(lambda: rc_file.exists() and rc_file.read_text().strip() != "", 15):
            run.error = "q did not end the app:\n" + pane.text()
            return run
        run.exit_code = int(rc_file.read_text())
        run.steps.append("quit")
    finally:
        run.raw = pane.raw.read_bytes()
        run.seconds = time.monotonic() - started
        pane.close()
    return run

"""Real terminals: the installed app under tmux with several TERM values, NO_COLOR, two
sizes, and over a real SSH session to this machine. Each run starts, pages (End, PageDown),
copies with `y` (the OSC 52 sequence is read from the pane's raw output) and quits with `q`
and exit code 0. The runs go in parallel, each in a tmux server of its own."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .terminal_driver import APP, Run, Terminal, drive, have_tmux

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed (apt install tmux)"),
]

TERMINALS = [
    Terminal(term, width, height, no_color)
    for term, no_color in [
        ("xterm-256color", False),
        ("xterm", False),
        ("screen", False),
        ("linux", False),
        ("xterm-256color", True),
    ]
    for width, height in [(80, 24), (200, 60)]
]


@pytest.fixture(scope="module")
def runs() -> Iterator[dict[str, Run]]:
    """Every terminal driven once, four at a time."""
    with tempfile.TemporaryDirectory() as tmp:

        def one(terminal: Terminal) -> Run:
            work = Path(tmp) / terminal.name
            work.mkdir()
            return drive(terminal, work)

        with ThreadPoolExecutor(max_workers=4) as pool:
            yield {run.terminal.name: run for run in pool.map(one, TERMINALS)}


@pytest.mark.parametrize("terminal", TERMINALS, ids=lambda t: t.name)
def test_app_starts_pages_copies_and_quits(runs: dict[str, Run], terminal: Terminal) -> None:
    run = runs[terminal.name]
    assert run.error == "", run.error
    assert run.steps == ["rows", "end", "pagedown", "copy", "quit"]
    assert run.exit_code == 0
    assert run.copied is not None and run.copied.startswith("ana_")
    assert run.seconds < 45
    start = run.screens["start"]
    assert "All projects" in start or terminal.width < 100
    assert len(start.splitlines()) <= terminal.height
    if terminal.no_color:
        assert colours(run.raw) <= GREYS, "NO_COLOR: monochrome, greys only"


GREYS = {0, 7, 8, 15, 16, 231, *range(232, 256)}


def colours(raw: bytes) -> set[int]:
    """The 256-colour indexes used for foreground and background (truecolour as -1)."""
    found: set[int] = set()
    for params in re.findall(rb"\x1b\[([0-9;]*)m", raw):
        parts = params.split(b";")
        for n, part in enumerate(parts[:-2]):
            if part in (b"38", b"48") and parts[n + 1] == b"5":
                found.add(int(parts[n + 2]))
            elif part in (b"38", b"48") and parts[n + 1] == b"2":
                found.add(-1)
    return found


# --- Over SSH -----------------------------------------------------------------------------

SSHD = shutil.which("sshd") or ("/usr/sbin/sshd" if Path("/usr/sbin/sshd").exists() else None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """sshd on a free loopback port with its own host key, config and authorized key."""
    if SSHD is None or shutil.which("ssh") is None:
        pytest.skip("openssh-server is not installed (apt install openssh-server)")
    if os.geteuid() == 0 and not Path("/run/sshd").is_dir():
        Path("/run/sshd").mkdir(mode=0o755)  # the privilege-separation dir sshd insists on
    host_key, user_key = tmp_path / "host_ed25519", tmp_path / "user_ed25519"
    for key in (host_key, user_key):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    authorized = tmp_path / "authorized_keys"
    authorized.write_text(Path(f"{user_key}.pub").read_text())
    authorized.chmod(0o600)
    port = _free_port()
    config = tmp_path / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {host_key}\n"
        f"AuthorizedKeysFile {authorized}\nPidFile {tmp_path / 'sshd.pid'}\n"
        "PermitRootLogin yes\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
        "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\nPrintMotd no\n"
        "AcceptEnv LANG LC_*\n"
    )
    server = subprocess.Popen(
        [SSHD, "-D", "-e", "-f", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                output = server.stdout.read().decode() if server.stdout else ""
                pytest.fail(f"sshd did not start: {output}")
            time.sleep(0.1)
    try:
        yield port, user_key
    finally:
        server.terminate()
        server.wait(5)


def test_app_over_ssh_starts_pages_copies_and_quits(sshd: tuple[int, Path], tmp_path: Path) -> None:
    port, user_key = sshd
    work = tmp_path / "remote-home"
    work.mkdir()
    remote = (
        f"cd {Path.cwd()} && HOME={work} XDG_CONFIG_HOME={work}/.config "
        f"XDG_DATA_HOME={work}/.local/share TERM=xterm-256color {APP} --demo"
    )
    command = [
        "ssh",
        "-tt",
        "-F",
        "/dev/null",
        "-i",
        str(user_key),
        "-p",
        str(port),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "BatchMode=yes",
        "-o",
        "LogLevel=ERROR",
        f"{getpass.getuser()}@127.0.0.1",
        remote,
    ]
    run = drive(Terminal("xterm-256color", 100, 30), tmp_path, command)
    assert run.error == "", run.error
    assert run.steps == ["rows", "end", "pagedown", "copy", "quit"]
    assert run.exit_code == 0, "ssh passes the app's exit code back"
    assert run.copied is not None and run.copied.startswith("ana_")


# --- Hostile data in a real terminal -----------------------------------------------------


def test_hostile_data_reaches_the_terminal_only_as_visible_text(tmp_path: Path) -> None:
    from tests.support.scripted_server import ScriptedServer

    from .hostile import hostile_script
    from .terminal_driver import OSC52, Pane, app_env

    with ScriptedServer(hostile_script) as server:
        env = app_env(
            tmp_path,
            "xterm-256color",
            SCREEN_ANALYSIS_BASE_URL=server.base_url,
            SCREEN_ANALYSIS_API_KEY="sk-terminal-0123456789",
            SCREEN_ANALYSIS_REFRESH_INTERVAL="0",
        )
        rc_file = tmp_path / "rc"
        pane = Pane(tmp_path, f"{env} {APP}; echo $? > {rc_file}; sleep 5", 120, 40)
        try:
            assert pane.wait(lambda: "Screen 1" in pane.text()), pane.text()
            for _ in range(30):  # every row through the detail pane
                pane.keys("j")
            pane.keys("y")
            assert pane.wait(lambda: OSC52.search(pane.raw.read_bytes()) is not None)
            pane.keys("q")
            assert pane.wait(lambda: rc_file.exists() and rc_file.read_text().strip() == "0")
        finally:
            raw = pane.raw.read_bytes()
            pane.close()
    assert b"\x1b]0;pwned" not in raw, "no window title set by data"
    assert b"\x1b]52;c;cHduZWQtY2xpcGJvYXJk" not in raw, "no clipboard written by data"
    assert "\x9b".encode() not in raw and "\x9d".encode() not in raw, "no C1 codes"
    assert b"\x1b[2J" not in raw.replace(b"\x1b[?1049h", b""), "no clear screen from data"
    assert "␛]0;pw" in raw.decode("utf-8", "replace"), "shown as visible text"

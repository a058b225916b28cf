"""Every command of the command line, walked from the click group itself: an output that
cannot be written and an impossible argument each end in one `Error:` line on stderr and a
documented exit code, never a traceback. A command added later without an entry here fails
the first test, so none is left out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from tests.conftest import demo_config

from screen_analysis.cli.root import cli
from screen_analysis.demo.runner import DemoServer

DOCUMENTED_FAILURES = {2, 3, 4, 5}  # docs/cli.md "Exit codes"; 1 is a bug, 0 is not one
TIMEOUT_S = 60


def every_command() -> list[str]:
    """The path of every runnable command ("analyses list", "report"), groups walked."""
    found: list[str] = []

    def walk(group: click.Group, prefix: tuple[str, ...]) -> None:
        context = click.Context(group)
        for name in group.list_commands(context):
            command = group.get_command(context, name)
            assert command is not None, name
            if isinstance(command, click.Group):
                walk(command, (*prefix, name))
            else:
                found.append(" ".join((*prefix, name)))

    walk(cli, ())
    return found


# Arguments no command can honour; each is refused before anything is served or written.
IMPOSSIBLE: dict[str, tuple[tuple[str, ...], ...]] = {
    "analyses list": (("--limit", "0"), ("--status", "done"), ("--after", "not-a-cursor")),
    "projects get": (("",), ("proj_" + "x" * 5000,)),
    "login": (("--base-url", "ftp://example.com"), ("--base-url", "https://example.com", "stray")),
    "logout": (("--base-url", "not a url"),),
    "auth status": (("--base-url", "::"), ("--profile", "no-such-profile")),
    "demo-server": (("--port", "70000"), ("--host", "999.1.1.1", "--analyses", "1")),
    "serve": (("--port", "0"), ("--host", "999.1.1.1")),
    "report": (("--since", "yesterday", "-o", "r.html"), ("--format", "pdf", "-o", "r.pdf")),
    "check": (("--min", "speed=80"), ("--min-score", "high"), ("--baseline", "nowhere.json")),
    "cache info": (("--format", "xml"),),
    "cache clear": (("--all", "--profile", "work"),),
    "completion": (("tcsh",), ()),
    "watch": (("--until", "forever"), ("--exec", "echo {nope}"), ("--timeout", "-1")),
}


def assert_one_error_line(stdout: str, stderr: str, code: int | None) -> None:
    """One `Error:` line (after click's usage lines, if any), a documented code, no traceback."""
    assert "Traceback" not in stdout + stderr, stderr
    assert code in DOCUMENTED_FAILURES, (code, stderr)
    errors = [line for line in stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, stderr


def test_every_command_is_walked_below() -> None:
    commands = every_command()
    assert len(commands) >= 8
    assert set(commands) == set(IMPOSSIBLE) == set(unwritable_cases())


@pytest.mark.parametrize(
    ("command", "args"),
    [(command, args) for command, cases in IMPOSSIBLE.items() for args in cases],
)
def test_an_impossible_argument_is_one_line(
    demo_server: DemoServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    args: tuple[str, ...],
) -> None:
    env = {
        "SCREEN_ANALYSIS_BASE_URL": demo_server.base_url,
        "SCREEN_ANALYSIS_API_KEY": demo_server.api_key,
    }
    monkeypatch.chdir(tmp_path)  # a report that wrongly got through would land here
    result = CliRunner().invoke(cli, [*command.split(), *args], env=env, input="")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert_one_error_line(result.stdout, result.stderr, result.exit_code)


# --- Output that cannot be written, in a real process (real file descriptors) -------------


def unwritable_cases() -> dict[str, tuple[str, ...]]:
    """Per command, the arguments that make it write where it cannot: stdout is /dev/full
    for all of them; `report` also names a file in a folder that does not exist; `login`
    and `logout` also keep their config in a folder that cannot be made ({config})."""
    return {
        "analyses list": ("analyses", "list"),
        "projects get": ("projects", "get", "{project}"),
        "login": ("login", "--api-key-stdin", "--insecure-storage"),
        "logout": ("logout",),
        "auth status": ("auth", "status"),
        "demo-server": ("demo-server", "--port", "0", "--analyses", "1"),
        "serve": ("serve", "--port", "{port}"),
        "report": ("report", "-o", "{missing}/r.html"),
        "check": ("check", "--min-count", "1", "--format", "junit"),
        "cache info": ("cache", "info"),
        "cache clear": ("cache", "clear", "--all"),
        "completion": ("completion", "bash"),
        "watch": ("watch",),  # on a live server of its own: a change comes within seconds
    }


def run_process(
    args: list[str], env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    with open("/dev/full", "w") as full:
        return subprocess.run(
            [sys.executable, "-m", "screen_analysis", *args],
            stdin=None if stdin else subprocess.DEVNULL,
            input=stdin or None,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=TIMEOUT_S,
        )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", sorted(unwritable_cases()))
def test_an_unwritable_output_is_one_line(
    demo_server: DemoServer, tmp_path: Path, command: str
) -> None:
    project = demo_server.store.projects()[0].id
    free_port = _free_port()
    values = {
        "project": project,
        "port": str(free_port),
        "missing": str(tmp_path / "no" / "such" / "folder"),
    }
    args = [part.format(**values) for part in unwritable_cases()[command]]
    env = {
        **os.environ,
        "SCREEN_ANALYSIS_BASE_URL": demo_server.base_url,
        "SCREEN_ANALYSIS_API_KEY": demo_server.api_key,
    }
    if command == "login":
        env.pop("SCREEN_ANALYSIS_API_KEY")
    if command == "watch":  # the shared server never changes: one whose analyses move on
        with DemoServer(demo_config(live=True, live_interval_s=0.2)) as live:
            env["SCREEN_ANALYSIS_BASE_URL"] = live.base_url
            env["SCREEN_ANALYSIS_REFRESH_INTERVAL"] = "0.5"
            result = run_process(args, env)
        assert_one_error_line("", result.stderr, result.returncode)
        return
    stdin = demo_server.api_key + "\n" if command == "login" else ""
    result = run_process(args, env, stdin)
    assert_one_error_line("", result.stderr, result.returncode)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_report_never_replaces_what_is_not_a_file(demo_server: DemoServer, tmp_path: Path) -> None:
    env = {
        "SCREEN_ANALYSIS_BASE_URL": demo_server.base_url,
        "SCREEN_ANALYSIS_API_KEY": demo_server.api_key,
    }
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "file").write_text("x")
    for target, words in (
        (fifo, "not a regular file"),
        (tmp_path / "file" / "r.html", "no such folder"),
        (Path("/nonexistent/dir/x.html"), "no such folder"),
    ):
        result = CliRunner().invoke(cli, ["report", "-o", str(target)], env=env)
        assert_one_error_line(result.stdout, result.stderr, result.exit_code)
        assert result.exit_code == 2 and words in result.stderr
    assert fifo.is_fifo()

"""Security matrix: the key never in logs, snapshots, screenshots or crash output; plain
http to another host refused; image addresses opened only when they are http(s).

Related: tests/api/test_security.py (client reprs, errors, redirects), tests/auth/
test_no_leaks.py (key resolution), tests/cli/test_exit_codes.py (--debug traceback),
tests/tui/test_welcome.py and test_login.py (address checks on the first screens).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests.support.scripted_server import Reply, ScriptedServer, analysis, page

from screen_analysis.cli.root import CliContext
from screen_analysis.config import Settings
from screen_analysis.demo.config import DEFAULT_API_KEY
from screen_analysis.tui.browser import is_web_url
from screen_analysis.tui.dialogs.show_url import ShowUrlDialog

from .conftest import KEY, CliRun, build_app, scripted_connection, settled, wait_until

ROOT = Path(__file__).resolve().parents[2]


def echoing(path: str, query: dict[str, str]) -> Reply:
    """A server that quotes the key back in every error, and fails in several ways."""
    if path.startswith("/v1/projects/"):
        return Reply.json({"error": {"message": f"no project for key {KEY}"}}, 404)
    after = query.get("after")
    if after is None:
        return page([analysis(n) for n in range(1, 101)], "c1", 300)
    if after == "c1":
        return Reply(500, f"<html>key={KEY}</html>".encode(), {"Content-Type": "text/html"})
    return Reply.json({"error": {"message": f"Bearer {KEY} revoked"}}, 401)


# --- Logs -------------------------------------------------------------------------------


async def test_app_session_logs_nothing_with_the_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with ScriptedServer(echoing) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url), max_retries=1)
        async with app.run_test(size=(120, 30)) as pilot:
            screen = await settled(pilot)
            await pilot.press("end")
            await wait_until(pilot, lambda: screen.status_line.status.state == "error")
            await pilot.press("r", "y", "o", "escape", "question_mark", "escape")
            await settled(pilot)
            assert KEY not in app.export_screenshot()
    assert caplog.records, "the client logged its requests"
    assert KEY not in caplog.text
    assert all(KEY not in str(record.args) for record in caplog.records)


def test_cli_logs_nothing_with_the_key(cli_run: CliRun, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with ScriptedServer(echoing) as server:
        for args in (
            ["analyses", "list", "--all"],
            ["projects", "get", "proj_x"],
            ["--debug", "analyses", "list", "--all", "--format", "jsonl"],
        ):
            result = cli_run(server.base_url, *args)
            assert result.exit_code in (4, 5), result.stderr
            assert KEY not in result.stdout + result.stderr
    assert caplog.records and KEY not in caplog.text


# --- Snapshots and screenshots ----------------------------------------------------------


def _known_keys() -> set[str]:
    """The demo key and every test key written in the test suite."""
    keys = {DEFAULT_API_KEY, KEY}
    pattern = re.compile(r"""["'](sk-[A-Za-z0-9_-]{8,})["']""")
    for path in (ROOT / "tests").rglob("*.py"):
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def test_no_key_in_committed_snapshots_or_screenshots() -> None:
    keys = _known_keys()
    files = [
        p
        for d in ("tests/tui/__snapshots__", "screenshots")
        for p in (ROOT / d).rglob("*")
        if p.is_file() and p.suffix in (".svg", ".txt", ".ambr", ".raw", ".html")
    ]
    assert files, "snapshots and screenshots exist"
    leaks = [(p.name, k) for p in files for k in keys if k in p.read_text(errors="replace")]
    assert leaks == []


async def test_screenshots_of_every_screen_hide_the_key(tmp_path: Path) -> None:
    refused = [False]

    def script(path: str, query: dict[str, str]) -> Reply:
        if refused[0]:  # from now on every request is a 401 that quotes the key
            return Reply.json({"error": {"message": f"Bearer {KEY} revoked"}}, 401)
        return echoing(path, query)

    with ScriptedServer(script) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            shots = [app.export_screenshot()]
            for keys in (("question_mark",), ("escape", "a"), ("escape", "slash")):
                await pilot.press(*keys)
                await pilot.pause()
                shots.append(app.export_screenshot())
            await pilot.press("escape")
            screen.action_refresh()  # page 1 again, then page 2 fails with the key quoted
            await settled(pilot)
            await pilot.press("end")
            await wait_until(pilot, lambda: screen.status_line.status.state == "error")
            shots.append(app.export_screenshot())
            # A refresh whose answer is a 401 quoting the key.
            refused[0] = True
            screen.pane.refresh_now()
            await wait_until(pilot, lambda: app.screen is not screen)
            shots.append(app.export_screenshot())
    assert all(KEY not in shot for shot in shots)


# --- Crash output -----------------------------------------------------------------------


def test_cli_internal_error_with_debug_redacts_the_key(
    cli_run: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screen_analysis.cli import output

    def crash(self: Any, *args: Any) -> None:
        raise RuntimeError(f"writer broke near Bearer {KEY}")

    monkeypatch.setattr(output.TableWriter, "write", crash)
    with ScriptedServer(echoing) as server:
        result = cli_run(server.base_url, "--debug", "analyses", "list")
    assert result.exit_code == 1
    assert "Traceback" in result.stderr and "RuntimeError" in result.stderr
    assert KEY not in result.stderr


CRASHING_APP = textwrap.dedent(
    """
    import os
    import sys
    from screen_analysis.cli.root import main
    from screen_analysis.tui.widgets.table import table as analyses_table

    def crash(self, item):
        key = os.environ["SCREEN_ANALYSIS_API_KEY"]
        headers = {"Authorization": "Bearer " + key}  # a local the traceback could show
        raise RuntimeError("render failed")

    analyses_table.AnalysesTable._cells = crash
    sys.argv = ["screen-analysis"]
    main()
    """
)


@pytest.mark.skipif(shutil.which("script") is None, reason="needs script(1) for a terminal")
def test_app_crash_traceback_in_a_terminal_hides_the_key(tmp_path: Path) -> None:
    harness = tmp_path / "crash.py"
    harness.write_text(CRASHING_APP)
    typescript = tmp_path / "typescript"
    with ScriptedServer(echoing) as server:
        env = {
            **os.environ,
            "SCREEN_ANALYSIS_BASE_URL": server.base_url,
            "SCREEN_ANALYSIS_API_KEY": KEY,
            "TERM": "xterm-256color",
            "COLUMNS": "120",
            "LINES": "40",
            "PYTHONPATH": str(ROOT),
        }
        command = f"{sys.executable} {harness}"
        done = subprocess.run(
            ["script", "-q", "-e", "-c", command, str(typescript)],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
        )
    output = typescript.read_bytes().decode("utf-8", errors="replace")
    assert done.returncode != 0
    assert "RuntimeError" in output and "render failed" in output, output[-2000:]
    assert KEY not in output


# --- Plain http to another host ---------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com",
        "http://10.0.0.8:8000",
        "http://[2001:db8::1]/api",
        "HTTP://Example.COM",
    ],
)
def test_cli_refuses_plain_http_elsewhere_before_sending(cli_run: CliRun, url: str) -> None:
    for args in (["analyses", "list"], ["projects", "get", "proj_x"]):
        result = cli_run(url, *args)
        assert result.exit_code == 2, result.stderr
        assert "Refusing to send the API key over plain HTTP" in result.stderr
        assert KEY not in result.stderr


async def test_app_refuses_plain_http_elsewhere_and_sends_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screen_analysis.auth.connection import NotConnected

    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", KEY)
    ctx = CliContext(settings=Settings(base_url="http://example.com"))
    why = ctx.app_start()
    assert isinstance(why, NotConnected) and "plain HTTP" in why.message
    made: list[object] = []
    app = build_app(tmp_path, why, base_url="http://example.com")
    app.make_client = lambda conn: made.append(conn)  # type: ignore[assignment,return-value,func-returns-value]
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot, lambda: type(app.screen).__name__ in ("LoginScreen", "WelcomeScreen")
        )
        await pilot.pause()
        shot = app.export_screenshot()
        assert "plain" in shot and "HTTP" in shot
    assert made == [], "no client, so no request"


# --- Opening image addresses ------------------------------------------------------------


NOT_OPENED = [
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    " javascript:alert(1)",
    "file:///etc/passwd",
    "data:text/html,<script>alert(1)</script>",
    "ftp://example.com/x.png",
    "http:///no-host",
    "//example.com/x.png",
    "https://images.example.com/x.png\x1b]52;c;cHduZWQ=\x07",
    "https://images.example.com/a b.png\nfile:///etc/passwd",
    "",
]


@pytest.mark.parametrize("url", NOT_OPENED)
def test_only_http_urls_count_as_web_urls(url: str) -> None:
    assert not is_web_url(url)


@pytest.mark.parametrize(
    ("url", "opened"),
    [(u, False) for u in NOT_OPENED[:5]] + [("https://images.example.com/x.png", True)],
)
async def test_app_o_opens_only_http_addresses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, opened: bool
) -> None:
    import webbrowser

    calls: list[str] = []
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(webbrowser, "open", lambda u, *a, **k: calls.append(u) or True)
    items = [analysis(1, image_url=url)]
    with ScriptedServer(lambda p, q: page(items, None, 1)) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url))
        async with app.run_test(size=(120, 30)) as pilot:
            await settled(pilot)
            await pilot.press("o")
            await wait_until(pilot, lambda: bool(calls) or isinstance(app.screen, ShowUrlDialog))
            if opened:
                await wait_until(pilot, lambda: bool(calls))
                assert calls == [url]
            else:
                assert isinstance(app.screen, ShowUrlDialog)
                assert "not an http(s) URL" in app.export_screenshot().replace("&#160;", " ")
                await pilot.press("y")  # copying the address is fine: it is cleaned
                await pilot.pause()
                assert calls == []

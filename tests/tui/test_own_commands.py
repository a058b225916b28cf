"""Your own commands in the app, against the reference server: a hostile label reaches the
program as one argument byte for byte (a program prints its argv as JSON), a hanging
command is killed at its timeout while the app goes on answering keys, a clash with a
built-in key is one line at start, keys are remappable and shown in help and the palette,
and a served app runs none without `serve --allow-commands`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.support.pilot import wait_until

from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.own_commands import NOT_SERVED, CommandDesk
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.user_commands import parse_commands

from ..conftest import Serve, demo_config
from .conftest import connection_to, make_app, notes_of, palette_offers, settled
from .test_keymap import help_rows

PRINT_ARGV = str(Path(__file__).parents[1] / "support" / "print_argv.py")
HOSTILE = "$(touch /tmp/pwned) ; rm -rf ~ `id` \"double\" 'single'\nsecond line\t{id} é"


@pytest.fixture
def server(served: Serve) -> DemoServer:
    server = served(demo_config())
    newest = server.store.in_flight()[-1]
    server.store.replace_analysis(newest._replace(label=HOSTILE))
    return server


def commands(**tables: dict[str, Any]) -> dict[str, Any]:
    return {"commands": tables}


async def test_a_hostile_label_is_one_argument_byte_for_byte(
    server: DemoServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("ARGV_LOG", str(log))
    run = [sys.executable, PRINT_ARGV, "{label}", "{id}", "{status}", "{project_id}"]
    app = make_app(
        tmp_path,
        connection_to(server),
        refresh_interval=0,
        **commands(show={"key": "x", "run": run}),
    )
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        item = screen.table.highlighted_item
        assert item is not None and getattr(item, "label", None) == HOSTILE
        await pilot.press("x")
        await wait_until(pilot, lambda: log.exists() and log.read_text() != "")
        await wait_until(pilot, lambda: notes.any("show: "))
    assert json.loads(log.read_text()) == [HOSTILE, item.id, item.status, item.project_id]
    assert not Path("/tmp/pwned").exists() or Path("/tmp/pwned").stat().st_mtime < 0


async def test_a_hanging_command_is_killed_at_its_timeout_and_the_app_answers_meanwhile(
    server: DemoServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = "import sys, time; print('gave up', file=sys.stderr, flush=True); time.sleep(600)"
    # Long enough for the keys below to reach the app while it runs, on a crowded machine.
    hang = {"key": "x", "run": [sys.executable, "-c", script], "timeout": 4}
    app = make_app(tmp_path, connection_to(server), refresh_interval=0, **commands(hang=hang))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        first = screen.table.highlighted_id
        await pilot.press("x")
        await wait_until(pilot, lambda: any(w.group == "command-hang" for w in screen.workers))
        await pilot.press("down")  # the app answers while the command runs
        await wait_until(pilot, lambda: screen.table.highlighted_id != first)
        assert any(w.group == "command-hang" and not w.is_finished for w in screen.workers)
        await wait_until(pilot, lambda: notes.any("hang: killed at its timeout"), timeout=20)
    assert ("hang: killed at its timeout: gave up", "error") in notes


async def test_a_clash_with_a_built_in_is_one_line_and_a_remap_moves_the_key(
    server: DemoServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("ARGV_LOG", str(log))
    show = {"key": "o", "run": [sys.executable, PRINT_ARGV, "{id}"], "description": "Show id"}
    clash = {"key": "y", "run": ["true"]}
    app = make_app(
        tmp_path,
        connection_to(server),
        refresh_interval=0,
        keymap={"command.show": "ctrl+t"},
        **commands(show=show, clash=clash),
    )
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        clashes = [m for m in notes.messages("warning") if "command.clash" in m]
        assert clashes == [
            "The key y of your command command.clash is Copy id (copy-id)'s: the built-in "
            "keeps it; give the command another in [keymap]."
        ]
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: log.exists() and log.read_text() != "")
        assert json.loads(log.read_text()) == [screen.table.highlighted_id]
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = help_rows(app)
        assert [row[1] for row in rows if row[0] == "ctrl+t"] == [
            f"Show id: {sys.executable} {PRINT_ARGV} {{id}}"
        ]
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.press(*"Show id")
        await wait_until(pilot, lambda: palette_offers(app, "Show id"))


async def test_a_bad_commands_table_is_one_line_at_start(
    server: DemoServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = {"key": "x", "run": ["open", "--url={image_url}"]}
    app = make_app(tmp_path, connection_to(server), refresh_interval=0, **commands(bad=bad))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
    [line] = [m for m in notes.messages("warning") if "[commands]" in m]
    assert line.startswith("[commands] left out: commands.bad: run: placeholder")


class Host:
    def __init__(self) -> None:
        self.said: list[str] = []
        self.ran: list[str] = []

    def say(self, text: str, severity: str = "information") -> None:
        self.said.append(text)

    def say_problem(self, words: str) -> None:
        self.said.append(words)

    async def ask(self, screen: object) -> object:
        return None

    def background(self, work: Any, group: str) -> None:
        work.close()
        self.ran.append(group)


def test_a_served_app_runs_commands_only_when_serve_allowed_them() -> None:
    specs = parse_commands({"c": {"run": ["true"]}})
    host = Host()
    CommandDesk(specs, host, web=lambda: True, environ={}).run("c", None, [])
    assert host.said == [NOT_SERVED] and host.ran == []
    allowed = {"SCREEN_ANALYSIS_SERVE_COMMANDS": "allow"}
    CommandDesk(specs, host, web=lambda: True, environ=allowed).run("c", None, [])
    assert host.ran == ["command-c"]

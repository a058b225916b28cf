"""The app's remembered projects: two running apps both keep theirs; a damaged file warns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import Invoke
from tests.tui.conftest import connection_to, make_app, notes_of, settled

from screen_analysis.config import data_dir
from screen_analysis.demo.runner import DemoServer
from screen_analysis.state import DEMO_SERVER
from screen_analysis.tui.app import ScreenAnalysisApp


async def test_two_running_apps_each_add_one_and_both_are_kept(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    first_id, second_id = (p.id for p in demo_server.store.projects()[:2])
    first = make_app(tmp_path, connection_to(demo_server))
    second = make_app(tmp_path, connection_to(demo_server))
    async with first.run_test(size=(80, 24)) as one, second.run_test(size=(80, 24)) as two:
        screens = [await settled(one), await settled(two)]  # both read the empty file
        pairs = zip((one, two), screens, (first_id, second_id), strict=True)
        for pilot, screen, project_id in pairs:
            screen.sidebar.remove_entry(project_id)
            await pilot.press("a", *project_id, "enter")
            await settled(pilot)
    servers = json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))["servers"]
    assert sorted(servers[DEMO_SERVER]) == sorted([first_id, second_id])


@pytest.mark.parametrize("text", ['{"projects": 5}', "null", '"abc"', '{"servers": [1]}'])
async def test_a_damaged_state_file_is_one_warning_and_the_app_works(
    tmp_path: Path, demo_server: DemoServer, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "state.json").write_text(text, encoding="utf-8")
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert screen.table.items  # the rows are there
        warnings = [m for m in notes.messages() if "state file" in m]
        assert len(warnings) == 1
        assert str(tmp_path / "state.json") in warnings[0]
        assert app.remembered.ids == ()


def test_the_command_line_warns_on_stderr_before_the_app_starts(
    tmp_path: Path, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = data_dir() / "state.json"  # in the test's own XDG_DATA_HOME
    state.parent.mkdir(parents=True)
    state.write_text("5", encoding="utf-8")
    monkeypatch.setattr(ScreenAnalysisApp, "run", lambda self: None)
    result = invoke("--demo")
    assert result.exit_code == 0
    assert "state file" in result.stderr and str(state) in result.stderr
    assert "a number" in result.stderr

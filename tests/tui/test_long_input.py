"""The app repeats at most about 80 characters of what the user typed in a message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.tui.conftest import connection_to, make_app, notes_of, settled, wait_until
from textual.widgets import Input

from screen_analysis.demo.runner import DemoServer
from screen_analysis.safe_text import QUOTE_LIMIT
from screen_analysis.tui.dialogs.prompt import PromptDialog


async def test_a_long_unknown_project_id_is_quoted_short(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptDialog))
        app.screen.query_one(Input).insert_text_at_cursor("q" * 120)  # pasted
        await pilot.press("enter")
        await wait_until(pilot, lambda: notes.any("not added"))
        messages = [m for m in notes.messages() if "not added" in m]
        assert max(len(run) for run in re.findall("q+", messages[0])) < QUOTE_LIMIT
        assert "q…" in messages[0]

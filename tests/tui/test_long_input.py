"""The app repeats at most about 80 characters of what the user typed in a message."""

from __future__ import annotations

import re
from pathlib import Path

from tests.tui.conftest import connection_to, make_app, settled, wait_until

from screen_analysis.demo.runner import DemoServer
from screen_analysis.safe_text import QUOTE_LIMIT


async def test_a_long_unknown_project_id_is_quoted_short(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("a", *("q" * 120), "enter")
        await wait_until(pilot, lambda: any("not added" in n.message for n in app._notifications))
        messages = [n.message for n in app._notifications if "not added" in n.message]
        assert max(len(run) for run in re.findall("q+", messages[0])) < QUOTE_LIMIT
        assert "q…" in messages[0]

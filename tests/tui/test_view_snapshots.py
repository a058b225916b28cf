"""How a saved view with criterion columns looks (the heat map: score and shade), at
80×24, 120×40 and 200×50 in each of the app's themes, with the suite's seeded data and a
fixed clock.

Regenerate with `uv run pytest tests/tui/test_view_snapshots.py --snapshot-update` and look
at the result (as PNG).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from screen_analysis.browse.columns import CRITERION_COLUMNS
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.themes import HIGH_CONTRAST_THEME, LIGHT_THEME

from .conftest import connection_to, make_app, settled
from .test_snapshots import MAIN_SIZES

Compare = Callable[..., bool]
VIEWS = {
    "all": {},
    "weak-contrast": {
        "criteria": ["color_contrast < 60"],
        "columns": ["status", "score", "label", *CRITERION_COLUMNS],
        "sort": "color_contrast",
    },
    "failures": {"status": "failed"},
}


@pytest.mark.parametrize("size", MAIN_SIZES)
def test_a_view_with_criterion_columns(
    snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), views=VIEWS, view="weak-contrast")

    async def run(pilot: Any) -> None:
        await settled(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", MAIN_SIZES)
@pytest.mark.parametrize("theme", [LIGHT_THEME, HIGH_CONTRAST_THEME])
def test_a_view_with_criterion_columns_in_the_other_themes(
    snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any, theme: str
) -> None:
    app = make_app(
        tmp_path, connection_to(demo_server), views=VIEWS, view="weak-contrast", theme=theme
    )

    async def run(pilot: Any) -> None:
        await settled(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)

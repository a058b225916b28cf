"""Data matrix: hostile analyses and projects through the whole stack, CLI and app.

One page (tests/reliability/hostile.py) carries every case: open fields null or missing,
wrong types, unknown statuses, extra fields, scores out of range, odd breakdowns, empty
feedback, 10,000-character labels, CJK/emoji/right-to-left, markup-looking text and terminal
control sequences in every text field. Complements tests/tui/test_app_behaviour.py (labels
only, reference server) and tests/api/test_malformed.py (client only).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.scripted_server import ScriptedServer

from screen_analysis.api.models import Analysis, InvalidAnalysis
from screen_analysis.tui.widgets.table import AnalysesTable

from .conftest import (
    KEY,
    CliRun,
    build_app,
    scripted_connection,
    settled,
    table_text,
    wait_until,
    widget_texts,
)
from .hostile import (
    INVALID_WITH_ID,
    LONG_LABEL,
    MARKUP,
    PAYLOADS,
    VALID_IDS,
    WORLD,
    hostile_items,
    hostile_script,
    unsafe_in,
)

ITEMS = len(hostile_items())


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[ScriptedServer]:
    """A scripted server answering every listing with the hostile page."""
    with ScriptedServer(hostile_script) as server:
        yield server


# --- Command line, every format ---------------------------------------------------------


def test_cli_table_shows_every_row_literally_and_safely(
    hostile_server: ScriptedServer, cli_run: CliRun
) -> None:
    result = cli_run(hostile_server.base_url, "analyses", "list", "--limit", "100")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert unsafe_in(out) == [] and unsafe_in(result.stderr) == []
    lines = out.splitlines()
    assert len(lines) == 1 + ITEMS, "one line per item, the invalid ones included"
    for analysis_id in (*VALID_IDS, *INVALID_WITH_ID):
        assert analysis_id[:20] in out
    invalid = [line for line in lines if line.startswith("invalid")]
    assert len(invalid) == 5
    assert any("ana_wrong_types" in line for line in invalid)
    assert "[b]bold[/b]" in out and "[@click=app.quit]" in out
    assert "␛[2J" in out and "archived" in out
    assert max(len(line) for line in lines) < 200, "a 10,000-character label is cut"
    assert KEY not in out + result.stderr


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_cli_json_keeps_every_item_as_received_with_escapes(
    hostile_server: ScriptedServer, cli_run: CliRun, fmt: str
) -> None:
    result = cli_run(hostile_server.base_url, "analyses", "list", "--limit", "100", "--format", fmt)
    assert result.exit_code == 0, result.stderr
    assert unsafe_in(result.stdout) == [], "control characters are escaped in JSON"
    if fmt == "json":
        received = json.loads(result.stdout)
    else:
        received = [json.loads(line) for line in result.stdout.splitlines()]
    assert received == json.loads(json.dumps(hostile_items())), "lossless: exactly as sent"


def test_cli_csv_has_a_row_per_item_and_no_raw_controls(
    hostile_server: ScriptedServer, cli_run: CliRun
) -> None:
    result = cli_run(
        hostile_server.base_url, "analyses", "list", "--limit", "100", "--format", "csv"
    )
    assert result.exit_code == 0, result.stderr
    assert unsafe_in(result.stdout) == []
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == ITEMS
    by_id = {row["id"]: row for row in rows}
    assert by_id["ana_long_label"]["label"] == LONG_LABEL
    assert by_id["ana_world"]["label"].startswith("日本語のラベル 🎉")
    assert by_id["ana_markup"]["label"] == MARKUP
    assert by_id["ana_score_negative"]["score"] == "-5"
    assert by_id["ana_nulls"]["label"] == "" and by_id["ana_missing"]["status"] == ""


def test_cli_project_with_hostile_fields(hostile_server: ScriptedServer, cli_run: CliRun) -> None:
    for fmt in ("table", "json"):
        result = cli_run(hostile_server.base_url, "projects", "get", "proj_x", "--format", fmt)
        assert result.exit_code == 0, result.stderr
        assert unsafe_in(result.stdout) == [], fmt
        assert all(payload in result.stdout for payload in PAYLOADS), "shown, not acted on"


# --- The app: table, detail pane, sidebar, screenshot -----------------------------------


def _raw_controls_in_screenshot(svg: str) -> list[str]:
    return unsafe_in(svg.replace("\n", "").replace("\t", ""))


async def test_app_shows_every_row_and_every_detail_literally(
    tmp_path: Path, hostile_server: ScriptedServer
) -> None:
    app = build_app(tmp_path, scripted_connection(hostile_server.base_url))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await settled(pilot)
        items = list(screen.table.items)
        assert len(items) == ITEMS, "one invalid analysis does not blank the page"
        invalid = [i for i in items if isinstance(i, InvalidAnalysis)]
        assert {i.id for i in invalid} == {*INVALID_WITH_ID, None}
        valid_ids = [i.id for i in items if isinstance(i, Analysis)]
        assert [i for i in valid_ids if not i.startswith("ana_control")] == list(VALID_IDS)

        shown = table_text(screen.table)
        assert unsafe_in(shown) == []
        assert "! invalid" in shown  # its id is in the detail (below) when the table is narrow
        for row, item in enumerate(items):
            screen.table.move_cursor(row)
            await pilot.pause()
            texts = widget_texts(app)
            assert unsafe_in(texts) == [], (row, item.id)
            line = screen.table.render_line(
                screen.table.cursor_row + 1 - int(screen.table.scroll_y)
            )
            assert unsafe_in(line.text) == []
            if isinstance(item, InvalidAnalysis) and item.id:
                assert "could not be read" in texts and item.id in texts
            if isinstance(item, Analysis) and item.id == "ana_markup":
                assert MARKUP in texts
            if isinstance(item, Analysis) and item.id == "ana_world":
                assert "日本語のラベル 🎉👩‍💻 مرحبا بالعالم" in texts
            if isinstance(item, Analysis) and item.id == "ana_breakdown_keys":
                assert "made_up: 99" in texts and "[b]k[/b]: 1" in texts
            if isinstance(item, Analysis) and item.id == "ana_score_high":
                assert "250" in texts and "1000" in texts
            if isinstance(item, Analysis) and item.id == "ana_long_label":
                # the start, cut for display, and how long the whole label is
                assert LONG_LABEL[:100] in texts.replace("\n", "")
                assert "of 9,999 characters" in texts
        svg = app.export_screenshot()
        assert _raw_controls_in_screenshot(svg) == []
        await pilot.press("y")  # copy the highlighted (last) row's id
        assert app.is_running, "no markup action ran"


async def test_app_copy_of_a_hostile_id_is_cleaned(
    tmp_path: Path, hostile_server: ScriptedServer
) -> None:
    app = build_app(tmp_path, scripted_connection(hostile_server.base_url))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        row = next(
            n for n, i in enumerate(screen.table.items) if (i.id or "").startswith("ana_control")
        )
        screen.table.move_cursor(row)
        await pilot.pause()
        await pilot.press("y")
        assert app.clipboard.startswith("ana_control␛[2J")
        assert unsafe_in(app.clipboard) == []


async def test_app_sidebar_and_project_column_with_hostile_projects(
    tmp_path: Path, hostile_server: ScriptedServer
) -> None:
    app = build_app(tmp_path, scripted_connection(hostile_server.base_url))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: "proj_scripted" in screen.sidebar.names)
        await settled(pilot)
        sidebar = "\n".join(
            str(screen.sidebar.prompt_of(option_id)) for option_id in screen.sidebar.option_ids
        )
        assert unsafe_in(sidebar) == [] and "[b]bold[/b]" in sidebar
        shown = table_text(screen.table)
        assert unsafe_in(shown) == [] and "Project [b]bold" in shown
        screen.table.move_cursor(0)
        await pilot.pause()
        assert unsafe_in(widget_texts(app)) == []
        assert _raw_controls_in_screenshot(app.export_screenshot()) == []


async def test_app_status_filter_views_of_the_hostile_page(
    tmp_path: Path, hostile_server: ScriptedServer
) -> None:
    app = build_app(tmp_path, scripted_connection(hostile_server.base_url))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        for key in "23451":
            await pilot.press(key)
            screen = await settled(pilot)
            assert unsafe_in(table_text(screen.table)) == []
        assert len(screen.table.items) == ITEMS
        assert isinstance(screen.table, AnalysesTable)


@pytest.mark.parametrize("label", [WORLD, MARKUP, LONG_LABEL])
def test_width_of_wide_text_never_overflows_a_cli_table_line(label: str, cli_run: CliRun) -> None:
    from tests.support.scripted_server import analysis, page

    with ScriptedServer(lambda p, q: page([analysis(1, label=label)], None, 1)) as server:
        result = cli_run(server.base_url, "analyses", "list", columns=100)
    assert result.exit_code == 0
    from rich.cells import cell_len

    assert max(cell_len(line) for line in result.stdout.splitlines()) <= 100

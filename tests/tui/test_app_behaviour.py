"""The main screen with hostile server text, errors that need the user, and the keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from screen_analysis.demo.generator import AnalysisRow
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.dialogs.error import ErrorScreen
from screen_analysis.tui.dialogs.show_url import ShowUrlDialog
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.tui.screens.login import LoginScreen
from screen_analysis.tui.widgets.analysis_detail import DetailText
from screen_analysis.tui.widgets.table import AnalysesTable

from .conftest import connection_to, make_app, notes_of, palette_offers, settled, wait_until

HOSTILE_LABELS = (
    "[bold]x[/]",
    "[@click=app.quit]boom[/]",
    "[/",
    "\x1b[31mred\x1b]0;title\x07 \x9b2J",
    "右から左 \u202eevil\u202c 🎉🎉 " + "wide" * 40,
)


def insert(server: DemoServer, number: int, label: str, **fields: object) -> str:
    """Add an analysis newer than every seeded one; returns its id."""
    project = server.store.projects()[0]
    analysis_id = f"ana_hostile{number:04d}"
    values = {
        "id": analysis_id,
        "project_id": project.id,
        "status": "failed",
        "image_url": "https://images.example.com/x.png",
        "label": label,
        "score": None,
        "breakdown": None,
        "feedback": (),
        "error_message": "[red]boom[/] \x1b[2J",
        "created_at": f"2026-12-01T00:00:{number:02d}Z",
        "completed_at": f"2026-12-01T00:01:{number:02d}Z",
    }
    values.update(fields)
    server.store.add_analysis(AnalysisRow(**values))  # type: ignore[arg-type]
    return analysis_id


def table_text(table: AnalysesTable) -> str:
    """What the table shows, line by line."""
    return "\n".join(table.render_line(y).text for y in range(table.size.height))


async def test_markup_and_control_characters_are_shown_literally(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    for number, label in enumerate(HOSTILE_LABELS):
        insert(server, number, label, feedback=("[b]not bold[/b]", "\x1b]52;c;AAAA\x07"))
    app = make_app(tmp_path, connection_to(server))
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await settled(pilot)
        shown = table_text(screen.table)
        assert "[bold]x[/]" in shown
        assert "[@click=app.quit]" in shown
        assert "\x1b" not in shown and "\x9b" not in shown
        assert "␛[31mred" in shown
        for row in range(len(HOSTILE_LABELS)):
            screen.table.move_cursor(row)
            await pilot.pause()
            head = screen.detail.query_one("#detail-head", DetailText).text
            assert "\x1b" not in head and "\x1b" not in screen.detail.label
        screen.table.move_cursor(0)  # the newest: "[/" sorts by time, labels vary
        await pilot.pause()
        body = screen.detail.query_one("#detail-body", DetailText).text
        assert "[b]not bold[/b]" in body and "[red]boom[/]" in body and "\x1b" not in body
        await pilot.press("y")
        assert app.clipboard.startswith("ana_hostile")
        assert app.is_running, "a label's click action must not run"


async def test_refresh_follows_the_selected_row_when_rows_arrive_above(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    app = make_app(tmp_path, connection_to(server))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        screen.table.move_cursor(5)
        await pilot.pause()
        selected = screen.table.highlighted_item
        insert(server, 1, "a new one on top")
        await pilot.press("r")
        await settled(pilot)
        assert screen.table.cursor_row == 6
        assert screen.table.highlighted_item == selected


async def test_a_wrong_key_at_start_explains_what_to_do(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server, api_key="wrong"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, LoginScreen) and app.screen.query("#login-message"),
        )
        message = str(app.screen.query_one("#login-message").render())
        assert "401" in message and "valid key" in message


async def test_an_unreachable_server_explains_what_to_do(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    connection = connection_to(demo_server)
    gone = type(connection)("http://127.0.0.1:9", connection.api_key)
    app = make_app(tmp_path, gone)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        assert isinstance(app.screen, ErrorScreen)
        assert "Cannot reach" in app.screen.problem.title


async def test_adding_an_unknown_project_says_so_and_adds_nothing(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        before = screen.sidebar.project_ids
        await pilot.press("a")
        await pilot.press(*"proj_nope[b]")
        await pilot.press("enter")
        await settled(pilot)
        assert screen.sidebar.project_ids == before
        assert any("proj_nope[b]" in m and "not added" in m for m in notes.messages())
        assert "proj_nope[b]" not in app.remembered.ids


async def test_adding_a_known_project_lists_and_remembers_it(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    project_id = demo_server.store.projects()[0].id
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        screen.sidebar.remove_entry(project_id)
        await pilot.press("a", *project_id, "enter")
        await settled(pilot)
        assert project_id in screen.sidebar.project_ids
        assert project_id in app.remembered.ids


async def test_find_moves_to_the_next_loaded_label(tmp_path: Path, demo_server: DemoServer) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        target = screen.table.items[30]
        label = getattr(target, "label", "")
        first = next(
            i for i, item in enumerate(screen.table.items) if getattr(item, "label", "") == label
        )
        await pilot.press("slash", *label, "enter")
        await pilot.pause()
        assert screen.table.cursor_row == first


async def test_status_keys_mouse_and_palette_switch_the_filter(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("5")
        await settled(pilot)
        assert all(getattr(i, "status", None) == "failed" for i in screen.table.items)
        await pilot.click("#status-filter", offset=(1, 0))
        await settled(pilot)
        assert screen.status_filter.current is None
        await pilot.press("ctrl+p", *"Filter: Pending")
        await wait_until(pilot, lambda: palette_offers(pilot.app, "Filter: Pending"))
        await pilot.press("enter")
        await settled(pilot)
        assert all(getattr(i, "status", None) == "pending" for i in screen.table.items)


async def test_enter_opens_the_detail_below_120_columns_and_escape_returns(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        assert not screen.detail.display or not screen.detail.region.width
        await pilot.press("enter")
        await pilot.pause()
        assert screen.detail.has_focus and screen.detail.region.width == 80
        await pilot.press("escape")
        await pilot.pause()
        assert screen.table.has_focus


async def test_open_without_a_browser_shows_the_address(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: object
) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, ShowUrlDialog)
        await pilot.press("y")
        assert app.clipboard.endswith(".png") and app.clipboard.startswith("http")


async def test_help_and_quit(tmp_path: Path, demo_server: DemoServer) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "q")
        await pilot.pause()
    assert app.return_code == 0

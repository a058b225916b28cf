"""Saved views in the app: tabs, a scope filtered as pages arrive (costing only the pages
that fill the screen), the heat map without colour, and the same rows as the command line."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path

import httpx
import pytest
from tests.support.apps import build_app, demo_connection

from screen_analysis.api.models import Analysis, AnalysisStatus, as_sent
from screen_analysis.browse.saved_views import read_views
from screen_analysis.config import load_settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.widgets.table.render import heat_cell

from ..conftest import Invoke, Serve, demo_config
from .conftest import notes_of, page_requests, settled, wait_until

CONFIG = """\
# three views, and one that cannot be used
[views.checkout]   # checkout screens that completed under 60
label = "Checkout*"
status = "completed"
max_score = 60

[views.contrast]
criteria = ["color_contrast < 50"]
columns = ["status", "score", "label", "color_contrast", "visual_clarity"]
sort = "color_contrast"

[views.failures]
status = "failed"

[views.bad]
label = "Check[out"
"""


@pytest.fixture
def big_server(served: Serve) -> DemoServer:
    """A server of its own with enough analyses that a filtered view fills a screen long
    before the end of the listing."""
    return served(demo_config(analyses=4000))


def write_config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def app_with_views(tmp_path: Path, server: DemoServer, view: str | None = None) -> object:
    path = write_config(tmp_path)
    settings = load_settings(config_path=path, environ={}).with_overrides(
        state_path=tmp_path / "state.json", view=view, refresh_interval=0.0
    )
    return build_app(tmp_path, demo_connection(server), settings=settings)


def checkout_match(item: object) -> bool:
    return (
        isinstance(item, Analysis)
        and (item.label or "").startswith("Checkout")
        and item.status is AnalysisStatus.COMPLETED
        and item.score is not None
        and item.score <= 60
    )


def pages_to_fill(server: DemoServer, rows: int) -> int:
    """How many pages of the completed listing hold `rows` checkout matches."""
    headers = {"Authorization": f"Bearer {server.api_key}"}
    found, pages, after = 0, 0, None
    with httpx.Client(base_url=server.base_url, headers=headers) as client:
        while found < rows:
            query = {"status": "completed", "limit": "100", **({"after": after} if after else {})}
            page = client.get("/v1/analyses", params=query).json()
            pages += 1
            found += sum(checkout_match(Analysis.model_validate(row)) for row in page["data"])
            after = page.get("next_cursor")
            if after is None:
                break
    return pages


async def test_three_views_open_as_three_tabs_and_a_bad_one_is_said_on_start(
    tmp_path: Path, fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_with_views(tmp_path, fresh_demo_server)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:  # type: ignore[attr-defined]
        screen = await settled(pilot)
        assert screen.view_tabs.names == ("checkout", "contrast", "failures")
        assert screen.view_tabs.display
        bad = [m for m in notes.messages("warning") if m.startswith("view 'bad'")]
        assert bad == [
            "view 'bad': label: bad glob 'Check[out': a '[' is not closed — this view is left out"
        ]
        await pilot.press("right_square_bracket")
        screen = await settled(pilot)
        assert screen.saved.current == "checkout"
        assert screen.view_tabs.current == "checkout"
        await pilot.press("right_square_bracket")
        await settled(pilot)
        assert screen.saved.current == "contrast"
        assert screen.table.shown_columns == (
            "status",
            "score",
            "label",
            "color_contrast",
            "visual_clarity",
        )
        await pilot.press("1")  # a status key leaves the view
        await settled(pilot)
        assert screen.saved.current is None and screen.table.shown_columns is None


async def test_a_filtered_view_shows_only_matches_and_costs_only_the_pages_that_fill_the_screen(
    tmp_path: Path, big_server: DemoServer
) -> None:
    app = app_with_views(tmp_path, big_server, view="checkout")
    async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
        screen = await settled(pilot)
        items = list(screen.table.items)
        assert items and all(checkout_match(item) for item in items)
        pages = page_requests(big_server)
        assert all(q.get("status") == "completed" for q in pages)
        pager = screen.pager
        assert not pager.done, "the view should stop before the end of the listing"
        assert len(pages) == math.ceil(pager.scanned / 100)
        await pilot.pause()  # nothing more is asked while the reader stays (refresh is off)
        assert len(page_requests(big_server)) == len(pages)
        # The pages needed to fill the screen, counted on the listing itself: no more.
        rows_on_screen = screen.table.size.height - 1  # under the header
        needed = await asyncio.to_thread(pages_to_fill, big_server, rows_on_screen)
        assert len(pages) == needed
        assert len(items) >= rows_on_screen
        status = screen.status_line.status
        assert status.scanned == pager.scanned and status.loaded == len(items)
        assert status.total == pager.total  # the server's total: of the rows scanned
        line = screen.status_line.render_line(0).text
        assert f"{len(items)} match" in line and "scanned" in line


async def test_l_scans_the_rest_of_a_filtered_view(tmp_path: Path, big_server: DemoServer) -> None:
    app = app_with_views(tmp_path, big_server, view="checkout")
    async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
        screen = await settled(pilot)
        await pilot.press("L")
        await wait_until(pilot, lambda: screen.pager.done, timeout=60)
        screen = await settled(pilot)
        assert screen.pager.scanned == screen.pager.total
        assert all(checkout_match(item) for item in screen.table.items)
        assert screen.status_line.status.state == "end"


async def test_the_cli_prints_exactly_the_rows_the_app_view_shows(
    tmp_path: Path,
    big_server: DemoServer,
    invoke: Invoke,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = app_with_views(tmp_path, big_server, view="checkout")
    async with app.run_test(size=(120, 40)) as pilot:  # type: ignore[attr-defined]
        screen = await settled(pilot)
        await pilot.press("L")
        await wait_until(pilot, lambda: screen.pager.done, timeout=60)
        screen = await settled(pilot)
        shown = [as_sent(item) for item in screen.table.items]
    monkeypatch.setenv("SCREEN_ANALYSIS_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", big_server.base_url)
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", big_server.api_key)
    args = ("analyses", "list", "--view", "checkout", "--all", "--format", "jsonl")
    result = await asyncio.to_thread(invoke, *args)  # the command runs its own event loop
    assert result.exit_code == 0, result.stderr
    printed = [json.loads(line) for line in result.stdout.splitlines()]
    assert printed == shown
    assert len(printed) > 20


def test_criterion_cells_read_the_same_without_colour() -> None:
    """A digit and a shade that order the same way: the cell's text alone tells a weak
    score from a strong one (16 colours, NO_COLOR, high contrast)."""
    cells = [heat_cell(value)[0] for value in (12, 45, 55, 79, 80, 97)]
    assert cells == ["12░", "45░", "55▒", "79▒", "80▓", "97▓"]
    shades = "░▒▓"
    ranks = [shades.index(cell[-1]) for cell in cells]
    assert ranks == sorted(ranks)
    assert heat_cell(None)[0] == "—"


def test_the_views_of_a_profile_replace_the_top_levels(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        CONFIG + '\n[profiles.staging.views.mine]\nproject_id = "proj_1"\n', encoding="utf-8"
    )
    top = read_views(load_settings(config_path=path, environ={}).views)
    assert list(top.views) == ["checkout", "contrast", "failures"]
    staging = read_views(load_settings(config_path=path, environ={}, profile="staging").views)
    assert list(staging.views) == ["mine"]


async def test_save_view_as_writes_the_config_keeping_its_comments(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    app = app_with_views(tmp_path, fresh_demo_server, view="checkout")
    path = tmp_path / "config.toml"
    async with app.run_test(size=(120, 40)) as pilot:  # type: ignore[attr-defined]
        screen = await settled(pilot)
        await pilot.press("C")
        await wait_until(pilot, lambda: pilot.app.screen is not screen)
        await pilot.press("ctrl+a", "ctrl+k", *"status score label color_contrast", "enter")
        await wait_until(pilot, lambda: screen.table.shown_columns is not None)
        assert screen.table.shown_columns == ("status", "score", "label", "color_contrast")
        await wait_until(pilot, lambda: "color_contrast" in path.read_text(encoding="utf-8"))
        await pilot.press("S")
        await wait_until(pilot, lambda: pilot.app.screen is not screen)
        await pilot.press("ctrl+a", "ctrl+k", *"weak-checkout", "enter")
        await wait_until(pilot, lambda: "weak-checkout" in screen.view_tabs.names)
        assert screen.view_tabs.current == "weak-checkout"
    text = path.read_text(encoding="utf-8")
    assert "# three views, and one that cannot be used" in text
    assert "# checkout screens that completed under 60" in text
    assert "[views.weak-checkout]" in text
    again = read_views(load_settings(config_path=path, environ={}).views)
    saved = again.views["weak-checkout"]
    assert saved.label == "Checkout*" and saved.max_score == 60
    assert saved.columns == ("status", "score", "label", "color_contrast")
    assert again.views["checkout"].columns == saved.columns  # C kept them with the view


async def export_every_page(
    tmp_path: Path,
    server: DemoServer,
    monkeypatch: pytest.MonkeyPatch,
    view: str,
    file_name: str,
    *,
    unfinished: bool = False,
) -> list[str]:
    """The lines `e` writes to `file_name` for every page of `view` (`unfinished`: the
    listing is not all loaded when `e` is pressed, so the app asks which rows)."""
    from screen_analysis.tui.dialogs.choice import ChoiceDialog
    from screen_analysis.tui.dialogs.prompt import PromptDialog

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    app = app_with_views(tmp_path, server, view=view)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:  # type: ignore[attr-defined]
        screen = await settled(pilot)
        if unfinished:
            assert not screen.pager.done
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PromptDialog))
        pilot.app.screen.query_one("#export-path").value = file_name
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ChoiceDialog) or notes.any("Wrote")
        )
        if isinstance(pilot.app.screen, ChoiceDialog):
            await pilot.press("a")
        await wait_until(pilot, lambda: notes.any("Wrote"))
    return (work / file_name).read_text(encoding="utf-8").splitlines()


async def listed_by_the_command_line(
    tmp_path: Path,
    server: DemoServer,
    invoke: Invoke,
    monkeypatch: pytest.MonkeyPatch,
    view: str,
    fmt: str,
) -> list[str]:
    """The lines `analyses list --view VIEW --all --format FMT` prints."""
    monkeypatch.setenv("SCREEN_ANALYSIS_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", server.base_url)
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", server.api_key)
    args = ("analyses", "list", "--view", view, "--all", "--format", fmt)
    listed = await asyncio.to_thread(invoke, *args)
    return listed.stdout.splitlines()


async def test_export_of_every_page_writes_the_views_rows(
    tmp_path: Path, big_server: DemoServer, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = await export_every_page(
        tmp_path, big_server, monkeypatch, "checkout", "view.jsonl", unfinished=True
    )
    listed = await listed_by_the_command_line(
        tmp_path, big_server, invoke, monkeypatch, "checkout", "jsonl"
    )
    assert [json.loads(line) for line in written] == [json.loads(line) for line in listed]
    assert all(checkout_match(Analysis.model_validate(json.loads(line))) for line in written)


async def test_a_csv_export_has_the_views_columns_as_the_command_lines(
    tmp_path: Path, fresh_demo_server: DemoServer, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = await export_every_page(
        tmp_path, fresh_demo_server, monkeypatch, "contrast", "contrast.csv"
    )
    # The view's columns, by the API's names, the id first to lead back to each analysis.
    assert written[0] == "id,status,score,label,color_contrast,visual_clarity"
    assert len(written) > 1
    assert all(float(row.split(",")[4]) < 50 for row in written[1:])
    listed = await listed_by_the_command_line(
        tmp_path, fresh_demo_server, invoke, monkeypatch, "contrast", "csv"
    )
    assert listed == written

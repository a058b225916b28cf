"""The analysed screen in the detail pane and full screen (half-cell, deterministic)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual_image.widget import HalfcellImage

from screen_analysis.demo.runner import DemoServer
from screen_analysis.images.disk import DiskCache
from screen_analysis.tui.graphics import Graphics, choose_graphics, parse_image_mode
from screen_analysis.tui.screens.image_view import ImageView
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.screen_image import SETTLE_S, ScreenImage

from .conftest import (
    answered,
    connection_to,
    make_app,
    notes_of,
    settled,
    wait_until,
    workers_done,
)

Compare = Callable[..., bool]
HALFCELL = Graphics("halfcell")


async def hold_down(pilot: Pilot[Any], rows: int, interval_s: float = 0.03) -> int:
    """↓ held: key events at a terminal's repeat rate, through the driver's path.

    Returns how many times the loop let `SETTLE_S` or more pass between two keys (a shared
    machine stalling the process): only there may a row the cursor passed settle and load.
    """
    stalls = 0
    for n in range(rows):
        pilot.app.post_message(events.Key("down", None))
        posted = time.monotonic()
        await asyncio.sleep(interval_s)
        stalls += n < rows - 1 and time.monotonic() - posted >= SETTLE_S
    return stalls


def image_requests(server: DemoServer) -> list[str]:
    """Paths of the image requests the server received."""
    return [r.path for r in server.request_log if r.path.startswith("/v1/images/")]


def painted(screen: Any) -> bool:
    """Whether the screen's image widget shows a picture."""
    return any(w.display for w in screen.query(ScreenImage).first().query(HalfcellImage))


def note(screen: Any) -> str:
    """The image widget's one line."""
    return str(screen.query_one(".screen-image--note").render())


async def test_detail_pane_shows_the_highlighted_image(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), graphics=HALFCELL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: painted(screen.detail))
        item = screen.table.highlighted_item
        assert image_requests(fresh_demo_server) == [f"/v1/images/{item.id}.png"]
        picture = screen.detail.query_one(HalfcellImage)
        assert picture.size.width <= screen.detail.content_size.width


async def test_holding_down_fetches_only_where_the_cursor_stops(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), graphics=HALFCELL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: painted(screen.detail))
        before = len(image_requests(fresh_demo_server))
        stalls = await hold_down(pilot, 60)
        image = screen.detail.query_one(ScreenImage)

        def stopped_and_painted() -> bool:
            # the row and its analysis read at each look, not once after the last key
            item = screen.table.highlighted_item
            return screen.table.cursor_row == 60 and (
                item is not None and image.painted_url == item.image_url
            )

        def seen() -> dict[str, object]:
            item = screen.table.highlighted_item
            return {
                "row": screen.table.cursor_row,
                "wanted": item.image_url if item is not None else None,
                "painted": image.painted_url,
                "note": note(screen.detail),
                "asked": image_requests(fresh_demo_server)[before:],
                "in flight": fresh_demo_server.requests_in_flight,
            }

        # a deadline, not a timing: sixty keys' rows and the image decode on a crowded machine
        await wait_until(pilot, stopped_and_painted, timeout=30, seen=seen)
        await answered(pilot, fresh_demo_server)
        assert screen.table.cursor_row == 60
        item = screen.table.highlighted_item
        assert item is not None
        during = image_requests(fresh_demo_server)[before:]
        # One, where the cursor stopped, and one more only per stall the keys saw: the
        # bound follows what this run's loop did, not a guess about the machine. (The server
        # notes a request once its answer starts: one given up on may be noted after it.)
        assert f"/v1/images/{item.id}.png" in during
        assert len(during) <= 1 + stalls, (during, stalls)


async def test_a_failure_is_one_line_and_not_retried(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    fresh_demo_server.faults.image_fault = "404"
    app = make_app(tmp_path, connection_to(fresh_demo_server), graphics=HALFCELL)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: "unavailable" in note(screen.detail))
        assert note(screen.detail) == "image unavailable: HTTP 404"
        await workers_done(pilot)  # a retry would be a worker still waiting out its backoff
        await answered(pilot, fresh_demo_server)
        assert len(image_requests(fresh_demo_server)) == 1
        assert screen.detail.query_one("#detail-body").display  # the rest of the detail stays


async def test_image_key_opens_full_screen_and_escape_goes_back(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(
        tmp_path,
        connection_to(demo_server),
        graphics=HALFCELL,
        image_cache=DiskCache(tmp_path / "images"),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("4", "i")
        await wait_until(pilot, lambda: isinstance(app.screen, ImageView))
        await wait_until(pilot, lambda: painted(app.screen))
        full = app.screen.query_one(HalfcellImage).size
        assert full.width > 60  # larger than in the pane
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))


async def test_images_off_shows_nothing_and_fetches_nothing(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await workers_done(pilot)
        assert not screen.detail.query_one(ScreenImage).display
        assert image_requests(fresh_demo_server) == []


@pytest.mark.parametrize(
    ("environ", "remedy"),
    [
        ({"TERM": "xterm-256color", "NO_COLOR": "1"}, "--images halfcell"),
        ({"TERM": "xterm", "SCREEN_ANALYSIS_IMAGES": "off"}, "--images auto"),
    ],
    ids=["NO_COLOR", "images-off"],
)
async def test_with_images_off_the_detail_and_i_say_why_and_what_draws_them(
    tmp_path: Path,
    fresh_demo_server: DemoServer,
    monkeypatch: pytest.MonkeyPatch,
    environ: dict[str, str],
    remedy: str,
) -> None:
    requested = parse_image_mode(environ.get("SCREEN_ANALYSIS_IMAGES"))
    graphics = choose_graphics(requested, environ=environ, interactive=True)
    app = make_app(tmp_path, connection_to(fresh_demo_server), graphics=graphics)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: screen.detail.query_one(ScreenImage).display)
        said = note(screen.detail)
        assert said.startswith("Images are off (") and remedy in said
        await pilot.press("i")
        await wait_until(pilot, lambda: notes.any("Images are off"))
        assert notes.messages("warning")[-1] == said
        assert image_requests(fresh_demo_server) == []


@pytest.mark.parametrize("size", [(120, 40)], ids=["120x40"])
def test_halfcell_preview_snapshot(
    snap_compare: Compare, tmp_path: Path, demo_server: DemoServer, size: Any
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), graphics=HALFCELL)

    async def run(pilot: Pilot[Any]) -> None:
        screen = await settled(pilot)
        await pilot.press("4", "down")
        await settled(pilot)
        await wait_until(pilot, lambda: painted(screen.detail))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


def test_full_screen_snapshot(
    snap_compare: Compare, tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), graphics=HALFCELL)

    async def run(pilot: Pilot[Any]) -> None:
        await settled(pilot)
        await pilot.press("4", "down", "i")
        await wait_until(pilot, lambda: isinstance(app.screen, ImageView) and painted(app.screen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=run)


async def test_a_row_left_before_its_image_arrives_never_shows_it(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(fresh_demo_server), graphics=HALFCELL)
    images = fresh_demo_server.faults.hold("/v1/images/")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await wait_until(pilot, lambda: images.waiting == 1)  # the first row's, unanswered
        first = screen.table.highlighted_item
        await pilot.press("down")
        images.release()  # the first row's image arrives now, after the cursor left it
        image = screen.detail.query_one(ScreenImage)
        second = screen.table.highlighted_item
        await wait_until(pilot, lambda: image.painted_url is not None)
        assert image.painted_url == second.image_url != first.image_url

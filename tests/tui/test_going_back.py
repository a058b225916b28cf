"""One rule for going back, as in k9s and lazygit: on every screen opened over the main one
(the overview, compare, the image, help) and in every dialog without a text field (an
error, a choice, an address), Esc and q go back; q quits only from the main screen. The
image view once quit the whole app on q while compare went back."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.dialogs.choice import ChoiceDialog
from screen_analysis.tui.dialogs.error import ErrorScreen
from screen_analysis.tui.dialogs.show_url import ShowUrlDialog
from screen_analysis.tui.graphics import Graphics
from screen_analysis.tui.screens.compare import CompareScreen
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.tui.screens.image_view import ImageView
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.overview import OverviewScreen

from .conftest import connection_to, make_app, settled, wait_until


async def open_compare(pilot: Pilot[Any]) -> None:
    await pilot.press("m", "down", "c")


async def open_address(pilot: Pilot[Any]) -> None:
    main = pilot.app.screen
    assert isinstance(main, MainScreen)
    main.on_analysis.show_url("/x.png", "Copy the address:")


async def open_choice(pilot: Pilot[Any]) -> None:
    await pilot.press("e", "enter")  # not every page is loaded: loaded rows, or every page?


OPENERS: dict[str, tuple[Callable[[Pilot[Any]], Any], type[Screen[Any]]]] = {
    "overview": (lambda pilot: pilot.press("v"), OverviewScreen),
    "compare": (open_compare, CompareScreen),
    "image": (lambda pilot: pilot.press("i"), ImageView),
    "help": (lambda pilot: pilot.press("question_mark"), HelpScreen),
    "choice": (open_choice, ChoiceDialog),
    "address": (open_address, ShowUrlDialog),
}


@pytest.mark.parametrize("key", ["q", "escape"])
@pytest.mark.parametrize("opened", list(OPENERS))
async def test_esc_and_q_go_back_from_every_screen_over_the_main_one(
    tmp_path: Path, demo_server: DemoServer, opened: str, key: str
) -> None:
    open_it, kind = OPENERS[opened]
    app = make_app(tmp_path, connection_to(demo_server), graphics=Graphics("halfcell"))
    async with app.run_test(size=(120, 40)) as pilot:
        main = await settled(pilot)
        await open_it(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, kind))
        await pilot.press(key)
        await wait_until(pilot, lambda: app.screen is main)
        assert app.is_running and app.return_code is None
        await pilot.press("q")  # on the main screen, q quits
        await wait_until(pilot, lambda: not app.is_running)
        assert app.return_code == 0 and isinstance(main, MainScreen)


@pytest.mark.parametrize("key", ["q", "escape"])
async def test_esc_and_q_close_the_error_dialog(
    tmp_path: Path, demo_server: DemoServer, key: str
) -> None:
    gone = dataclasses.replace(connection_to(demo_server), base_url="http://127.0.0.1:9")
    app = make_app(tmp_path, gone)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        await pilot.press(key)
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.is_running

"""The collector is held while the program starts and released once the first screen is
drawn (or a subcommand starts); holding it is never left on by accident."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.tui.conftest import connection_to, make_app, settled

from screen_analysis import collector
from screen_analysis.cli.root import cli
from screen_analysis.demo.runner import DemoServer


@pytest.fixture
def held() -> Iterator[None]:
    """The collector held as the entry point holds it; restored whatever the test does."""
    collector.hold()
    try:
        yield
    finally:
        collector.release()
        gc.unfreeze()
        gc.enable()


def test_hold_and_release() -> None:
    try:
        collector.hold()
        assert not gc.isenabled() and collector.is_held()
        collector.release()
        assert gc.isenabled() and not collector.is_held()
        assert gc.get_freeze_count() > 0  # what start-up built is out of the collector's sight
        collector.release()  # a second release changes nothing
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_holding_leaves_a_collector_disabled_by_someone_else_alone() -> None:
    gc.disable()
    try:
        collector.hold()
        collector.release()
        assert not gc.isenabled()  # not ours to turn on
    finally:
        gc.enable()


@pytest.mark.usefixtures("held")
def test_a_subcommand_runs_with_the_collector() -> None:
    result = CliRunner().invoke(cli, ["--demo", "analyses", "list", "--limit", "2"])
    assert result.exit_code == 0, result.output
    assert gc.isenabled() and not collector.is_held()


@pytest.mark.usefixtures("held")
async def test_the_app_releases_it_once_the_first_rows_are_painted(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert screen.table.items
        assert gc.isenabled() and not collector.is_held()
        assert gc.get_freeze_count() > 0  # the main screen stays: it is left out of collections


@pytest.mark.usefixtures("held")
async def test_the_welcome_screen_releases_it_too(tmp_path: Path) -> None:
    app = make_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert gc.isenabled() and not collector.is_held()
        assert gc.get_freeze_count() == 0  # the welcome screen goes once signed in: not frozen

"""The collector is held while the program imports and released before the app is built
(or once a subcommand starts); holding it is never left on by accident, and what the
freeze keeps never includes a screen that is later left."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.tui.conftest import connection_to, make_app, settled, wait_until

from screen_analysis import collector
from screen_analysis.cli.root import cli
from screen_analysis.config import Connection
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


def demo_connection() -> Connection:
    """A connection that is never used: the app does not run here."""
    return Connection("http://127.0.0.1:9", SecretStr("sk-test-never-sent"), is_demo=True)


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
def test_the_app_is_built_with_the_collector_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screen_analysis.cli.launch import launch_app
    from screen_analysis.config import Settings
    from screen_analysis.tui.app import ScreenAnalysisApp
    from screen_analysis.tui.themes import load_themes

    seen: list[tuple[bool, bool]] = []

    def run(self: ScreenAnalysisApp, *args: object, **kwargs: object) -> None:
        seen.append((gc.isenabled(), collector.is_held()))  # the terminal itself is not needed

    monkeypatch.setattr(ScreenAnalysisApp, "run", run)
    settings = Settings(state_path=tmp_path / "state.json", config_path=tmp_path / "c.toml")
    themes = load_themes(None)
    launch_app(
        settings,
        demo_connection(),
        themes=themes,
        start_demo=demo_connection,
        make_client=lambda connection: None,  # type: ignore[arg-type,return-value]
    )
    assert seen == [(True, False)], "released before anything of the app is built"


async def test_a_left_screen_is_collected_after_the_freeze(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    """What the start-up freeze keeps is the imports: main screens built afterwards and left
    (here by five profile switches' `browse`) are collected as usual."""
    gc.freeze()  # as the entry point does before the app is built
    try:
        app = make_app(tmp_path, connection_to(demo_server))
        async with app.run_test(size=(120, 40)) as pilot:
            left = [weakref.ref(await settled(pilot))]
            for _ in range(5):  # a leak keeps every one of them
                await app.browse(connection_to(demo_server))
                left.append(weakref.ref(await settled(pilot)))
            current = left.pop()

            def all_freed() -> bool:
                gc.collect()  # a finished task's context may hold the last one a moment
                return all(ref() is None for ref in left)

            await wait_until(pilot, all_freed)  # fails after its deadline if any is kept
            assert current() is app.screen
    finally:
        gc.unfreeze()

"""The first run: the welcome screen offers the demo or a connection."""

from __future__ import annotations

from pathlib import Path

from screen_analysis.auth import KeyringUnavailableError
from screen_analysis.config import Connection
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.welcome import WelcomeScreen

from .conftest import connection_to, make_app, settled, wait_until


async def test_the_demo_button_starts_the_demo_and_browses(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    started: list[bool] = []

    def start_demo() -> Connection:
        started.append(True)
        return connection_to(demo_server)

    app = make_app(tmp_path, None, start_demo=start_demo)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, WelcomeScreen)
        await pilot.press("enter")  # the demo button has the focus
        screen = await settled(pilot)
        assert started == [True]
        assert len(screen.table.items) == 100


async def test_connecting_with_a_url_and_a_key(tmp_path: Path, demo_server: DemoServer) -> None:
    saved: list[Connection] = []

    async def save_key(connection: Connection) -> None:
        saved.append(connection)

    app = make_app(tmp_path, None, save_key=save_key)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, WelcomeScreen)
        await pilot.click("#base-url")
        await pilot.press(*demo_server.base_url, "enter", *demo_server.api_key)
        app.screen.query_one("#store-key").focus()
        await pilot.press("space")
        app.screen.query_one("#connect").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        screen = await settled(pilot)
        assert len(screen.table.items) == 100
        assert [c.base_url for c in saved] == [demo_server.base_url]
        assert demo_server.base_url in (tmp_path / "config.toml").read_text()
        assert not app.screen.query("Input")  # the key field is gone


async def test_a_plain_http_address_elsewhere_is_refused(tmp_path: Path) -> None:
    app = make_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#base-url")
        await pilot.press(*"http://example.com", "enter", *"k", "enter")
        await pilot.pause()
        assert isinstance(app.screen, WelcomeScreen)
        message = str(app.screen.query_one("#welcome-error").render())
        assert "plain HTTP" in message


async def test_a_refused_key_stays_on_the_welcome_and_is_not_kept(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    saved: list[Connection] = []

    async def save_key(connection: Connection) -> None:
        saved.append(connection)

    app = make_app(tmp_path, None, save_key=save_key)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#base-url")
        await pilot.press(*demo_server.base_url, "enter", *"wrong-key")
        app.screen.query_one("#store-key").focus()
        await pilot.press("space")
        app.screen.query_one("#connect").focus()
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: "refused" in str(app.screen.query_one("#welcome-error").render())
        )
        assert isinstance(app.screen, WelcomeScreen)
        assert saved == []
        assert not (tmp_path / "config.toml").exists()


async def test_an_unticked_box_signs_in_for_the_session_only(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    saved: list[Connection] = []

    async def save_key(connection: Connection) -> None:
        saved.append(connection)

    app = make_app(tmp_path, None, save_key=save_key)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#base-url")
        await pilot.press(*demo_server.base_url, "enter", *demo_server.api_key, "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.connection is not None and app.connection.key_source == "session"
        assert saved == []
        assert not (tmp_path / "config.toml").exists()


async def test_a_failing_keyring_still_connects_and_says_so(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    async def save_key(connection: Connection) -> None:
        raise KeyringUnavailableError("the keyring is locked")

    app = make_app(tmp_path, None, save_key=save_key)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#base-url")
        await pilot.press(*demo_server.base_url, "enter", *demo_server.api_key)
        app.screen.query_one("#store-key").focus()
        await pilot.press("space")
        app.screen.query_one("#connect").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        notes = [str(n.message) for n in app._notifications]
        assert any("the keyring is locked" in n and "session only" in n for n in notes)
        assert demo_server.base_url in (tmp_path / "config.toml").read_text()

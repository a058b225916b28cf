"""Signing in from the app: the login screen checks a key, stores it, and never shows it."""

from __future__ import annotations

import asyncio
import logging
import time
import tomllib
from pathlib import Path
from typing import Any

import httpx
import keyring
import pytest
from tests.auth.backends import HangingKeyring, MemoryKeyring, failing_keyring
from textual.pilot import Pilot
from textual.widgets import Input, Static

from screen_analysis.auth import SERVICE, KeyringUnavailableError
from screen_analysis.auth.connection import NotConnected
from screen_analysis.cli.launch import keyring_saver
from screen_analysis.cli.root import CliContext
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.login import LoginScreen
from screen_analysis.tui.screens.main import MainScreen

from ..conftest import Serve, demo_config
from .conftest import answered, make_app, settled, wait_until, workers_done

SECRET = "sk-live-Zq7Xw9Pk4Jm2Rv8T"


@pytest.fixture
def secret_server(served: Serve) -> DemoServer:
    """A reference server whose key is easy to look for in output."""
    return served(demo_config(api_key=SECRET))


def login_app(
    tmp_path: Path,
    base_url: str | None,
    connection: Connection | NotConnected | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    **kwargs: Any,
) -> ScreenAnalysisApp:
    """The app as `screen-analysis --base-url URL` builds it when no key was found."""
    return make_app(
        tmp_path,
        connection,
        transport=transport,
        base_url=base_url,
        save_key=keyring_saver(),
        **kwargs,
    )


def login(pilot: Pilot[Any]) -> LoginScreen:
    screen = pilot.app.screen
    assert isinstance(screen, LoginScreen), type(screen).__name__
    return screen


def message(pilot: Pilot[Any]) -> str:
    return str(login(pilot).query_one("#login-message", Static).render())


async def type_key(pilot: Pilot[Any], key: str) -> None:
    """Replace the key field's text with `key` and press Enter."""
    field = login(pilot).query_one("#api-key", Input)
    field.value = ""
    field.focus()
    await pilot.press(*key, "enter")


def saved_base_url(tmp_path: Path) -> str | None:
    path = tmp_path / "config.toml"
    if not path.exists():
        return None
    value = tomllib.loads(path.read_text())["base_url"]
    assert isinstance(value, str)
    return value


async def test_no_key_then_a_wrong_key_then_the_right_one(
    tmp_path: Path, demo_server: DemoServer, memory_keyring: MemoryKeyring
) -> None:
    app = login_app(tmp_path, demo_server.base_url)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        assert login(pilot).query_one("#base-url", Input).value == demo_server.base_url
        assert login(pilot).query_one("#api-key", Input).has_focus

        await type_key(pilot, "not-the-key")
        await wait_until(pilot, lambda: "refused" in message(pilot))
        assert "nothing was stored" in message(pilot)
        assert memory_keyring.items == {}
        assert saved_base_url(tmp_path) is None

        await type_key(pilot, demo_server.api_key)
        screen = await settled(pilot)
        assert len(screen.table.items) == 100
        assert memory_keyring.items == {(SERVICE, demo_server.base_url): demo_server.api_key}
        assert saved_base_url(tmp_path) == demo_server.base_url
        assert app.connection is not None and app.connection.key_source == "keyring"


async def test_an_unreachable_server_is_said_and_nothing_stored(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    app = login_app(tmp_path, "http://127.0.0.1:9")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        await type_key(pilot, "some-key")
        await wait_until(pilot, lambda: "Cannot reach" in message(pilot))
        assert memory_keyring.items == {}
        assert saved_base_url(tmp_path) is None


async def test_an_unusable_keyring_is_said_in_a_line_and_the_session_goes_on(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    keyring.set_keyring(failing_keyring())
    app = login_app(tmp_path, demo_server.base_url)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        await type_key(pilot, demo_server.api_key)
        await wait_until(pilot, lambda: "session only" in message(pilot))
        text = message(pilot)
        assert "No usable keyring" in text and "backend exploded" in text
        assert "SCREEN_ANALYSIS_API_KEY" in text and "--insecure-storage" in text
        await pilot.press("enter")  # Continue
        screen = await settled(pilot)
        assert len(screen.table.items) == 100
        assert app.connection is not None and app.connection.key_source == "session"
        assert saved_base_url(tmp_path) == demo_server.base_url


async def test_a_hanging_keyring_never_freezes_the_app(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Long enough that the keys below reach the app while it still waits, on any machine.
    monkeypatch.setenv("SCREEN_ANALYSIS_KEYRING_TIMEOUT", "3")
    hanging = HangingKeyring()
    keyring.set_keyring(hanging)
    app = login_app(tmp_path, demo_server.base_url)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
            await type_key(pilot, demo_server.api_key)
            await wait_until(pilot, lambda: hanging.calls > 0)
            # The keyring is stuck, the app is not: keys still reach it.
            await pilot.press("shift+tab")
            assert login(pilot).query_one("#base-url", Input).has_focus
            assert "Storing" in message(pilot)
            await wait_until(pilot, lambda: "did not answer" in message(pilot), timeout=30)
            assert login(pilot).query_one("#sign-in").has_focus  # now "Continue"
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
    finally:
        hanging.release.set()


async def test_the_start_with_a_hanging_keyring_opens_the_login_with_the_cause(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_KEYRING_TIMEOUT", "0.5")
    hanging = HangingKeyring()
    keyring.set_keyring(hanging)
    try:
        settings = Settings(base_url=demo_server.base_url, config_path=tmp_path / "c.toml")
        started = time.monotonic()
        why = CliContext(settings=settings).app_start()
        assert time.monotonic() - started < 30  # given up on: the keyring never answers
        assert isinstance(why, NotConnected)
        assert why.keyring_problem.startswith(
            "No usable keyring: the keyring did not answer within 0.5 s"
        )

        app = login_app(tmp_path, demo_server.base_url, why)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
            assert "did not answer" in message(pilot)
    finally:
        hanging.release.set()


async def test_plain_http_elsewhere_at_start_is_a_clear_screen(tmp_path: Path) -> None:
    settings = Settings(base_url="http://example.com", config_path=tmp_path / "c.toml")
    why = CliContext(settings=settings).app_start()
    assert isinstance(why, NotConnected)
    assert "plain HTTP" in why.message and "--allow-insecure-http" in why.message

    app = login_app(tmp_path, "http://example.com", why)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        assert "plain HTTP" in message(pilot)
        assert login(pilot).query_one("#base-url", Input).has_focus
        await type_key(pilot, "some-key")  # still refused, nothing sent
        await pilot.pause()
        assert "plain HTTP" in message(pilot)


def test_the_start_finds_a_stored_key(tmp_path: Path, memory_keyring: MemoryKeyring) -> None:
    url = "https://api.example.com"
    memory_keyring.items[(SERVICE, url)] = "stored-key"
    ctx = CliContext(settings=Settings(base_url=url, config_path=tmp_path / "c.toml"))
    connection = ctx.app_start()
    assert isinstance(connection, Connection) and connection.key_source == "keyring"
    assert connection.api_key.get_secret_value() == "stored-key"
    assert "stored-key" in ctx.secrets()


async def test_a_key_refused_mid_session_asks_for_another_and_keeps_the_rows(
    tmp_path: Path, fresh_demo_server: DemoServer, memory_keyring: MemoryKeyring
) -> None:
    server = fresh_demo_server
    revoked = Connection(server.base_url, SecretStr(server.api_key), key_source="keyring")
    app = login_app(tmp_path, server.base_url, revoked)
    async with app.run_test(size=(80, 24)) as pilot:
        main = await settled(pilot)
        await workers_done(pilot)  # the start's side reads would take the refusal
        await answered(pilot, server)
        assert len(main.table.items) == 100
        server.faults.inject(401, count=1)
        await pilot.press("end")  # the next page is refused
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        url_field = login(pilot).query_one("#base-url", Input)
        assert url_field.value == server.base_url and url_field.disabled
        assert "401" in message(pilot)
        assert len(main.table.items) == 100  # still underneath

        await type_key(pilot, server.api_key)
        await wait_until(pilot, lambda: app.screen is main)
        await wait_until(pilot, lambda: len(main.table.items) == 200)
        assert main.status_line.status.state != "error"
        assert memory_keyring.items == {(SERVICE, server.base_url): server.api_key}


@pytest.mark.parametrize("refused", ["end", "r"], ids=["the next page", "a reload"])
async def test_escape_keeps_the_rows_and_r_retries(
    tmp_path: Path, fresh_demo_server: DemoServer, refused: str
) -> None:
    server = fresh_demo_server
    connection = Connection(server.base_url, SecretStr(server.api_key))
    app = login_app(tmp_path, server.base_url, connection)
    async with app.run_test(size=(80, 24)) as pilot:
        main = await settled(pilot)
        await workers_done(pilot)  # the start's side reads would take the refusal
        await answered(pilot, server)
        server.faults.inject(401)
        await pilot.press(refused)
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is main)
        assert len(main.table.items) == 100, "the rows stay under the login screen"
        await pilot.press("r")  # the key works again: the retry succeeds
        await settled(pilot)
        assert main.status_line.status.state != "error"
        if refused == "end":
            await wait_until(pilot, lambda: len(main.table.items) == 200)


async def test_the_key_is_never_on_screen_nor_in_logs(
    tmp_path: Path, secret_server: DemoServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    keyring.set_keyring(failing_keyring())
    app = login_app(tmp_path, secret_server.base_url)
    shots: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        field = login(pilot).query_one("#api-key", Input)
        field.focus()
        await pilot.press(*SECRET)
        shots.append(app.export_screenshot())
        await type_key(pilot, SECRET[::-1])  # refused: the message must not echo it
        await wait_until(pilot, lambda: "refused" in message(pilot))
        shots.append(app.export_screenshot())
        await type_key(pilot, SECRET)  # accepted; the keyring fails
        await wait_until(pilot, lambda: "session only" in message(pilot))
        shots.append(app.export_screenshot())
        await pilot.press("enter")
        await settled(pilot)
        shots.append(app.export_screenshot())
        notes = [str(n.message) for n in app._notifications]
    for key in (SECRET, SECRET[::-1]):
        chunks = [key[i : i + 5] for i in range(len(key) - 4)]
        for text in [*shots, caplog.text, *notes]:
            assert not [c for c in chunks if c in text]


def test_a_failing_keyring_raises_the_one_line_error() -> None:
    keyring.set_keyring(failing_keyring())
    save = keyring_saver()
    connection = Connection("https://api.example.com", SecretStr("k-123456"))
    with pytest.raises(KeyringUnavailableError) as caught:
        asyncio.run(save(connection))
    assert "\n" not in str(caught.value)
    assert "k-123456" not in str(caught.value)

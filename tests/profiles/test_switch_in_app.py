"""Switching profiles in one running app: checked first, nothing of one server on the other."""

from __future__ import annotations

from pathlib import Path

import keyring
from tests.profiles.conftest import TwoServers, profiles_config
from tests.support.apps import build_app
from tests.tui.conftest import palette_offers, settled, wait_until

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.auth import SERVICE
from screen_analysis.auth.connection import resolve_connection
from screen_analysis.config import Connection, load_settings
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.login import LoginScreen
from screen_analysis.tui.screens.main import MainScreen


def profiles_app(config: Path, tmp_path: Path, profile: str, saved: list[Connection]):
    settings = load_settings(profile=profile, config_path=config).with_overrides(
        state_path=tmp_path / "state.json"
    )
    clients: list[ScreenAnalysisClient] = []

    async def save_key(conn: Connection) -> None:
        keyring.set_password(SERVICE, conn.base_url, conn.api_key.get_secret_value())
        saved.append(conn)

    app = build_app(
        tmp_path,
        resolve_connection(settings),
        settings=settings,
        clients=clients,
        save_key=save_key,
    )
    return app, clients


def replaced(app: ScreenAnalysisApp, old: MainScreen) -> bool:
    """Whether another main screen has taken `old`'s place."""
    return isinstance(app.screen, MainScreen) and app.screen is not old


def shown_ids(screen: MainScreen) -> set[str]:
    return {item.id for item in screen.table.items if item.id}


async def test_palette_switches_between_two_servers(
    two_servers: TwoServers, config_file: Path, tmp_path: Path
) -> None:
    config_file.write_text(profiles_config(two_servers))
    for server in (two_servers.a, two_servers.b):
        keyring.set_password(SERVICE, server.base_url, server.api_key)
    app, clients = profiles_app(config_file, tmp_path, "a", [])
    async with app.run_test(size=(120, 40)) as pilot:
        first = await settled(pilot)
        assert app.sub_title.startswith("a · ")
        ids_a = shown_ids(first)
        projects_a = set(first.sidebar.project_ids)
        assert ids_a and projects_a
        await pilot.press("ctrl+p")
        await pilot.press(*"Switch to b")
        await wait_until(pilot, lambda: palette_offers(app, "Switch to b"))
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: app.screen is not first and isinstance(app.screen, MainScreen)
        )
        second = await settled(pilot)
        assert app.sub_title.startswith("b · ")
        assert app.settings.profile == "b"
        ids_b = shown_ids(second)
        assert ids_b and not ids_a & ids_b
        assert not projects_a & set(second.sidebar.project_ids)
        assert clients[0].is_closed  # the old client, once the new one worked
        assert second.current.client.base_url == two_servers.b.base_url
        # and back: a's view again, with nothing of b
        app.switch_profile("a")
        await wait_until(
            pilot, lambda: app.screen is not second and isinstance(app.screen, MainScreen)
        )
        third = await settled(pilot)
        assert shown_ids(third) == ids_a


async def test_profile_without_a_key_opens_its_login(
    two_servers: TwoServers, config_file: Path, tmp_path: Path
) -> None:
    config_file.write_text(profiles_config(two_servers))
    keyring.set_password(SERVICE, two_servers.a.base_url, two_servers.a.api_key)
    saved: list[Connection] = []
    app, _clients = profiles_app(config_file, tmp_path, "a", saved)
    async with app.run_test(size=(120, 40)) as pilot:
        first = await settled(pilot)
        app.switch_profile("b")
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        assert first.current.client.is_closed is False  # still browsing a meanwhile
        await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "api-key")
        app.screen.query_one("#api-key").value = two_servers.b.api_key  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: isinstance(app.screen, MainScreen) and app.screen is not first
        )
        second = await settled(pilot)
        assert second.current.client.base_url == two_servers.b.base_url
        assert saved and saved[0].profile == "b"
        assert app.sub_title.startswith("b · ")
    text = config_file.read_text()
    assert "# my servers" in text and "# the first" in text


async def test_a_refused_switch_keeps_the_view(
    two_servers: TwoServers, config_file: Path, tmp_path: Path
) -> None:
    config_file.write_text(
        profiles_config(two_servers) + '\n[profiles.gone]\nbase_url = "http://127.0.0.1:9"\n'
    )
    keyring.set_password(SERVICE, two_servers.a.base_url, two_servers.a.api_key)
    keyring.set_password(SERVICE, "http://127.0.0.1:9", "some-key-123")
    app, _clients = profiles_app(config_file, tmp_path, "a", [])
    async with app.run_test(size=(120, 40)) as pilot:
        first = await settled(pilot)
        app.switch_profile("gone")
        await wait_until(pilot, lambda: any("gone:" in str(n.message) for n in app._notifications))
        assert app.screen is first and not first.current.client.is_closed
        assert app.settings.profile == "a"

"""A start with a warm local cache paints the kept rows before the API client is built:
the client (its modules, connection pool and TLS context) comes once they are drawn, when
the view is first asked of the server. Two runs of the app in one home against the
reference server; the second's client factory notes what was on screen when it was called."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.main import MainScreen

from .conftest import cache_at, connection_to, make_app, settled


class ClientsMade(list[ScreenAnalysisClient]):
    """The clients an app made; for each, the rows its table held when it was made."""

    def __init__(self) -> None:
        super().__init__()
        self.app: Any = None
        self.seen: list[int] = []

    def append(self, client: ScreenAnalysisClient) -> None:
        screen = self.app.screen if self.app is not None else None
        rows = len(screen.table.items) if isinstance(screen, MainScreen) else 0
        self.seen.append(rows)
        super().append(client)


async def test_the_kept_rows_are_painted_before_the_client_is_built(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    cache = cache_at(tmp_path / "c.db")
    app = make_app(tmp_path, connection_to(fresh_demo_server), open_cache=cache)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
    made = ClientsMade()
    app = make_app(tmp_path, connection_to(fresh_demo_server), open_cache=cache, clients=made)
    made.app = app
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
    assert len(made) == 1 and made.seen[0] >= 100, made.seen


async def test_an_opened_client_is_built_when_first_asked_for(
    fresh_demo_server: DemoServer,
) -> None:
    built: list[ScreenAnalysisClient] = []

    def build() -> ScreenAnalysisClient:
        client = ScreenAnalysisClient(fresh_demo_server.base_url, fresh_demo_server.api_key)
        built.append(client)
        return client

    current = CurrentClient()
    await current.open(build, fresh_demo_server.base_url)
    assert current.connected and not built
    assert current.base_url == fresh_demo_server.base_url
    assert current.api_path(fresh_demo_server.base_url + "/images/a.png") == "/images/a.png"
    assert current.api_path("https://elsewhere.example/a.png") is None and not built
    page = await current.client.list_analyses(None, None, 1)
    assert page.total is not None and len(built) == 1
    assert current.client is built[0], "built once"
    await current.swap(None)
    assert not current.connected

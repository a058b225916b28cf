"""A start with a warm local cache paints the kept rows before the API client is built:
the client (its modules, connection pool and TLS context) comes once they are drawn, when
the view is first asked of the server. Two runs of the app in one home against the
reference server; the second's client factory notes what was on screen when it was called.
pydantic too comes after them: the second run in a fresh interpreter notes what was on
screen when pydantic was first imported."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from benchmarks import cold_start, warm_start_trees
from tests.support.caches import NotedCaches, callbacks_done

from screen_analysis.api import current as current_module
from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient
from screen_analysis.cache import LocalCache
from screen_analysis.cache.ahead import CacheAhead
from screen_analysis.cache.kept import KeptCache
from screen_analysis.config import Connection
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.main import screen as main_screen
from screen_analysis.tui.screens.main.screen import FIRST_ROWS_WAIT_S
from screen_analysis.tui.widgets.project_sidebar import FOLD_BELOW, ProjectSidebar
from screen_analysis.tui.widgets.table import AnalysesTable

from .conftest import cache_at, connection_to, make_app, page_requests, settled, wait_until


class ClientsMade(list[ScreenAnalysisClient]):
    """The clients an app made; for each, the rows its table held when it was made and
    whether its main screen was mounted then."""

    def __init__(self) -> None:
        super().__init__()
        self.app: Any = None
        self.seen: list[int] = []
        self.mounted: list[bool] = []

    def append(self, client: ScreenAnalysisClient) -> None:
        screen = self.app.screen if self.app is not None else None
        mounted = isinstance(screen, MainScreen) and screen.is_mounted
        self.mounted.append(mounted)
        self.seen.append(len(screen.table.items) if mounted else 0)
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


async def test_no_part_builds_the_client_before_the_kept_rows_are_drawn(
    tmp_path: Path, fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sidebar wants a pinned project at start and the disk is slow: the project is
    asked for (and the client built, its imports holding the event loop) only once the
    view's kept rows are in the table and drawn, not while they are being read."""
    project = fresh_demo_server.store.projects()[0].id
    cache = cache_at(tmp_path / "c.db")
    app = make_app(tmp_path, connection_to(fresh_demo_server), open_cache=cache)
    async with app.run_test(size=(140, 40)) as pilot:
        await settled(pilot)
    # the hold's bound only guards against a hang here: a busy machine may take longer
    # than the app's second to draw the rows, and the order is what is tested
    monkeypatch.setattr(current_module, "START_HOLD_S", 30.0)
    disk_answering(monkeypatch, "drawn")  # slower than the screen: rows drawn after it
    made = ClientsMade()
    app = make_app(
        tmp_path,
        connection_to(fresh_demo_server),
        open_cache=cache,
        clients=made,
        projects=(project,),
    )
    made.app = app
    async with app.run_test(size=(140, 40)) as pilot:
        await settled(pilot)
    assert len(made) == 1 and made.seen[0] >= 100, made.seen


async def test_without_kept_rows_the_first_page_is_asked_while_the_screen_is_built(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    """No local cache, so no kept rows to draw first: the client is built and the opening
    view's first page asked before the main screen is mounted, so the server works on it
    while the screen is built and drawn; the pager takes that answer (one first page
    asked, not two), and the rows are the view's."""
    made = ClientsMade()
    app = make_app(tmp_path, connection_to(fresh_demo_server), clients=made)
    made.app = app
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert len(made) == 1 and made.mounted == [False], made.mounted
        first = page_requests(fresh_demo_server)
        assert len(first) == 1 and "after" not in first[0] and "status" not in first[0]
        assert len(screen.table.items) == 100


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


# The app as the command line builds it, on the cache the first run filled; an import hook
# notes how many rows the table held when pydantic was first asked for.
WARM_START = """
import json, sys
from pathlib import Path
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cli.root import make_client
from screen_analysis.config import Connection, load_settings
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.themes import load_themes
from tests.support.pilot import wait_until

folder, base_url, key = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
state = folder / "state.json"
settings = load_settings(config_path=folder / "config.toml", environ={})
app = ScreenAnalysisApp(
    settings.with_overrides(state_path=state),
    Connection(base_url, SecretStr(key), key_source="demo", is_demo=True),
    RememberedProjects(state),
    themes=load_themes(None),
    make_client=make_client,
    open_cache=(
        None
        if sys.argv[4:] == ["no-cache"]
        else lambda connection: LocalCache(CacheScope("demo", ""), path=folder / "c.db")
    ),
)
rows_at_import = []

def rows():
    screen = app.screen_stack[-1] if app.screen_stack else None
    return len(screen.table.items) if isinstance(screen, MainScreen) else 0

class Noted:
    def find_spec(self, name, path=None, target=None):
        if name in ("pydantic", "pydantic_core") and not rows_at_import:
            rows_at_import.append(rows())

sys.meta_path.insert(0, Noted())
loaded_before = sorted(
    m for m in sys.modules if m.startswith(("pydantic", "screen_analysis.config_file"))
)

async def main():
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        screen = app.screen
        await wait_until(pilot, lambda: not screen.busy and screen.pager.started, timeout=30)
        await pilot.pause()
        shown = rows()
        tabs, theme = list(screen.view_tabs.names), app.theme
    noted = {"before": loaded_before, "at_import": rows_at_import, "shown": shown}
    print(json.dumps({**noted, "tabs": tabs, "theme": theme}))

import asyncio
asyncio.run(main())
"""


def start_noted(folder: Path, server: DemoServer, *options: str) -> dict[str, Any]:
    """What `WARM_START` noted of a start in a fresh interpreter on `folder` (its cache, its
    config; `"no-cache"`: none)."""
    done = subprocess.run(
        [sys.executable, "-c", WARM_START, str(folder), server.base_url, server.api_key, *options],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr[-2000:]
    noted: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return noted


# A config file as most signed-in users have one: read without pydantic (`config_plain`),
# its saved views' tabs drawn without it (`browse.saved_views.plain_view`).
TYPICAL_CONFIG = 'base_url = "https://api.example.com"\n' + warm_start_trees.TYPICAL_CONFIG


@pytest.mark.parametrize("config", [None, TYPICAL_CONFIG], ids=["no config", "a config file"])
async def test_the_kept_rows_are_painted_before_pydantic_is_imported(
    tmp_path: Path, fresh_demo_server: DemoServer, config: str | None
) -> None:
    if config is not None:
        (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    cache = cache_at(tmp_path / "c.db")
    app = make_app(tmp_path, connection_to(fresh_demo_server), open_cache=cache)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
    noted = start_noted(tmp_path, fresh_demo_server)
    assert noted["before"] == [], "pydantic was imported with the app's modules or the config"
    assert noted["shown"] >= 100, noted
    # pydantic comes, if anything asks for it, once the kept rows are in the table.
    assert all(rows >= 100 for rows in noted["at_import"]), noted
    if config is not None:  # the file was read: its profile's theme, its view's tab
        assert (noted["theme"], noted["tabs"]) == ("screen-analysis-light", ["failures"])


def test_the_server_s_first_page_is_painted_before_pydantic_is_imported(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    """Without a local cache, the first rows are the server's: its page, in the shape
    pydantic writes, is read without pydantic (`api.plain_resources`), its request's
    arguments too (`api.arguments`), so they are drawn before pydantic is loaded."""
    noted = start_noted(tmp_path, fresh_demo_server, "no-cache")
    assert noted["before"] == [] and noted["shown"] >= 100, noted
    assert all(rows >= 100 for rows in noted["at_import"]), noted


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
async def test_the_screen_starts_with_its_width_s_classes(
    tmp_path: Path, fresh_demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """The main screen's width class and the sidebar's fold are set when they are made, so
    the first frame is drawn with them: the screen's first styling already has its width
    class, it is never styled with the other one, and the sidebar is never restyled. (How
    often Textual restyles the screen at a resize is its own: releases before 8.2.2 take the
    breakpoint classes off and put them back at each one.)"""
    app = make_app(tmp_path, connection_to(fresh_demo_server))
    restyled: list[tuple[object, frozenset[str]]] = []
    update_styles = app.update_styles

    def noting(node: Any, animate: bool = True) -> None:
        if isinstance(node, MainScreen | ProjectSidebar):
            restyled.append((node, frozenset(node.classes)))
        update_styles(node, animate=animate)

    app.update_styles = noting  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        wide = size[0] >= 120
        assert screen.has_class("-wide") is wide and screen.has_class("-narrow") is not wide
        sidebar = screen.query_one(ProjectSidebar)
        assert sidebar.folded is (size[0] < FOLD_BELOW)
    own, other = ("-wide", "-narrow") if wide else ("-narrow", "-wide")
    assert restyled, "the screen was never styled"
    assert restyled[0] == (screen, restyled[0][1]) and own in restyled[0][1], restyled
    assert all(node is screen and other not in classes for node, classes in restyled), restyled


def disk_answering(monkeypatch: pytest.MonkeyPatch, when: str) -> list[int]:
    """A slow disk: the cache's reads of a view wait, in the reading thread, until the
    screen starts waiting for them (`when` "waited") or until the analyses table is first
    drawn ("drawn"). The rows the table holds when it is first drawn are noted (once)."""
    drawn: list[int] = []
    answer = threading.Event()
    render_lines, read_view = AnalysesTable.render_lines, LocalCache.view
    read_ahead_done = KeptCache.read_ahead_done

    def noting(self: AnalysesTable, crop: Any) -> Any:
        if not drawn:
            drawn.append(len(self.items))
            answer.set()
        return render_lines(self, crop)

    def slow_view(self: LocalCache, project_id: str | None, status: object) -> Any:
        assert answer.wait(10), "the disk was never let answer"
        return read_view(self, project_id, status)

    async def waited(self: KeptCache, within: float) -> None:
        answer.set()
        await read_ahead_done(self, within)

    monkeypatch.setattr(AnalysesTable, "render_lines", noting)
    monkeypatch.setattr(LocalCache, "view", slow_view)
    if when == "waited":
        monkeypatch.setattr(KeptCache, "read_ahead_done", waited)
    return drawn


@pytest.mark.parametrize(
    ("when", "wait_s", "first"), [("waited", 5.0, "rows"), ("drawn", None, "loading")]
)
async def test_the_first_frame_waits_a_moment_for_the_kept_rows(
    tmp_path: Path,
    fresh_demo_server: DemoServer,
    monkeypatch: pytest.MonkeyPatch,
    when: str,
    wait_s: float | None,
    first: str,
) -> None:
    """The opening view's kept rows are read while the screen is built, and the first
    frame waits for them a moment (`FIRST_ROWS_WAIT_S`): a disk that answers while the
    screen waits (here for up to 5 s, however loaded the machine) has them drawn with the
    first frame, not "Loading…" and again a moment later. A disk that answers only once
    the screen is drawn does not hold it back past the shipped wait: it is drawn, and the
    rows follow."""
    cache = cache_at(tmp_path / "c.db")
    app = make_app(tmp_path, connection_to(fresh_demo_server), open_cache=cache)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
    assert 0 < FIRST_ROWS_WAIT_S <= 0.2, "a moment, not a stall"
    if wait_s is not None:
        monkeypatch.setattr(main_screen, "FIRST_ROWS_WAIT_S", wait_s)
    drawn = disk_answering(monkeypatch, when)
    app = make_app(tmp_path, connection_to(fresh_demo_server), open_cache=cache)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert len(screen.table.items) >= 100
    assert drawn[0] >= 100 if first == "rows" else drawn[0] == 0, drawn


ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>]")


def test_the_first_frame_on_a_terminal_already_holds_the_kept_rows(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    """A warm start in a real pseudo-terminal: nothing fills the screen before the frame
    that holds the kept rows (the local cache opened while the app was imported, no empty
    frame drawn while a thread opened it)."""
    needle = cold_start.needle_for(fresh_demo_server.base_url, fresh_demo_server.api_key)
    env = cold_start.child_env(fresh_demo_server.api_key, tmp_path)
    env.pop("PYTHONPYCACHEPREFIX")
    argv = cold_start.commands(fresh_demo_server.base_url, cache=True)["app"]
    # The first start keeps the first page in the local cache (and quits as asked).
    cold_start.time_to_bytes(argv, env, needle, settle_s=cold_start.WARM_UP_SETTLE_S)
    seen = bytearray()
    cold_start.time_to_bytes(argv, env, needle, seen=seen)
    columns, lines = cold_start.SCREEN
    before_rows = ESCAPES.sub(b"", bytes(seen[: seen.index(needle)]))
    assert len(before_rows.decode(errors="replace")) < columns * lines, before_rows[:400]


def app_with_cache_ahead(
    folder: Path, start: Connection | None, ahead_for: Connection
) -> tuple[ScreenAnalysisApp, NotedCaches[Connection], CacheAhead]:
    """The app starting on `start`, given the cache of `ahead_for` being opened ahead, its
    opener noting each cache it opens and each one closed."""
    opener = NotedCaches(cache_at(folder / "c.db"))
    ahead = CacheAhead.start(opener, ahead_for)
    return make_app(folder, start, open_cache=opener, cache_ahead=ahead), opener, ahead


async def test_the_app_browses_with_the_cache_opened_ahead(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    connection = connection_to(demo_server)
    app, opener, ahead = app_with_cache_ahead(tmp_path, connection, connection)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        assert app.cache is ahead.opened.result() is opener.made[0]
        assert len(opener.made) == 1  # not opened again
    assert opener.closed == opener.made  # closed with the app


async def test_a_cache_opened_ahead_for_another_server_is_closed_unused(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    connection = connection_to(demo_server)
    other = Connection("https://api.example.com", connection.api_key, key_source="env")
    app, opener, ahead = app_with_cache_ahead(tmp_path, connection, other)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        callbacks_done(ahead)
        # the two openings run in threads of their own: either may be noted first
        unused, used = ahead.opened.result(), app.cache
        assert used is not unused
        assert opener.made in ([unused, used], [used, unused])
        assert opener.closed == [unused]
    assert opener.closed == [unused, used]


async def test_a_cache_opened_ahead_is_closed_when_the_app_ends_without_browsing(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    connection = connection_to(demo_server)
    app, opener, ahead = app_with_cache_ahead(tmp_path, None, connection)  # the welcome
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: type(app.screen).__name__ == "WelcomeScreen")
    callbacks_done(ahead)
    assert opener.closed == opener.made != []

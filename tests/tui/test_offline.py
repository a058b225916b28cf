"""The local cache in the app: a second start paints the last view before the server
answers (when the server accepted the key before), works offline on it (browse, filter on
what is kept, detail, compare), comes back by itself, and never shows a rejected key what
was kept — nor a key the server never accepted, before it answers. Without anything kept,
the error screen says so and offers the demo. Real SQLite files, the reference server on
loopback; a server that is gone is a closed port."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from textual.pilot import Pilot

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.dialogs.error import ErrorScreen
from screen_analysis.tui.screens.compare import CompareScreen
from screen_analysis.tui.screens.login import LoginScreen
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.analysis_detail import DetailText

from ..conftest import demo_config
from .conftest import cache_at, connection_to, make_app, offline_screen, settled, wait_until

GONE = "http://127.0.0.1:9"  # nothing listens: connection refused


class Trust:
    """What the cache remembers of the keys its server accepted, in memory: whether the key
    in use is `known`, and what the app told it since."""

    def __init__(self, known: bool) -> None:
        self.was_known = known
        self.told: list[str] = []

    def known(self) -> bool:
        return self.was_known

    def accepted(self) -> None:
        self.told.append("accepted")

    def refused(self) -> None:
        self.told.append("refused")


def trusting(monkeypatch: pytest.MonkeyPatch, trust: Trust) -> None:
    """The app's main screens get `trust` (the app builds them in `browse`)."""

    class TrustingMainScreen(MainScreen):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **{**kwargs, "trust": trust})

    monkeypatch.setattr("screen_analysis.tui.app_connect.MainScreen", TrustingMainScreen)


class Seen(NamedTuple):
    """What a first run showed: the rows' ids and labels, and the projects' names."""

    ids: list[str]
    labels: list[str]
    projects: list[str]

    def words(self) -> list[str]:
        return [*self.ids, *self.labels, *self.projects]


def on_screen(app: Any) -> str:
    """Every text the main screen's parts show now: the totals, the rows, the status line,
    the detail (title and texts) and the sidebar's entries."""
    main = next(s for s in app.screen_stack if isinstance(s, MainScreen))
    parts = [main.status_filter.render().plain, main.status_line.render().plain]
    parts += [f"{i.id} {getattr(i, 'label', '')}" for i in main.table.items]
    parts += [str(main.detail.border_title), *(t.text for t in main.detail.query(DetailText))]
    sidebar = main.sidebar
    parts += [str(sidebar.prompt_of(option_id)) for option_id in sidebar.option_ids]
    return "\n".join(parts)


async def watch_screen(
    pilot: Pilot[Any], until: Callable[[], bool], never: list[str], timeout: float = 10.0
) -> None:
    """Let the app run until `until()` holds, looking at what the main screen shows at every
    step: none of `never` may be on it, ever."""
    deadline = time.monotonic() + timeout
    while not until():
        if any(isinstance(s, MainScreen) for s in pilot.app.screen_stack):
            shown = on_screen(pilot.app)
            leaked = [word for word in never if word and word in shown]
            assert not leaked, f"kept data on screen: {leaked[:3]}\n{shown}"
        assert time.monotonic() < deadline, "timed out waiting for the app"
        await pilot.pause(0.01)


async def first_run(tmp_path: Path, server: DemoServer, keys: tuple[str, ...] = ()) -> list[str]:
    """The app once, online: its view kept in the cache; the ids it showed."""
    return (await first_seen(tmp_path, server, keys)).ids


async def first_seen(tmp_path: Path, server: DemoServer, keys: tuple[str, ...] = ()) -> Seen:
    """The app once, online: its view kept in the cache; what it showed."""
    app = make_app(tmp_path, connection_to(server), open_cache=cache_at(tmp_path / "c.db"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        for key in keys:
            await pilot.press(key)
            screen = await settled(pilot)
        await wait_until(pilot, lambda: bool(screen.sidebar.names) and not screen.busy)
        items = [i for i in screen.table.items if isinstance(i, Analysis)]
        labels = [i.label for i in items if i.label and len(i.label) > 12]  # unmistakable
        seen = Seen([i.id or "" for i in items], labels, list(screen.sidebar.names.values()))
    return seen  # the app closed its cache on exit: every write is in


async def test_offline_the_last_view_is_there_and_every_read_only_feature_works(
    tmp_path: Path,
) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        seen = await first_run(tmp_path, server, ("1",))
        gone = dataclasses.replace(connection_to(server), base_url=GONE)
    app = make_app(tmp_path, gone, open_cache=cache_at(tmp_path / "c.db"), max_retries=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await offline_screen(pilot)
        assert [i.id for i in screen.table.items] == seen
        line = screen.status_line.render().plain
        assert "offline · data from" in line and re.search(r"retry in \d+ s", line)
        assert app.screen is screen, "no error screen: the cache stands in"
        await pilot.press("down", "enter")
        assert screen.detail.item is screen.table.highlighted_item
        await pilot.press("escape", "m", "down", "c")  # compare two kept analyses
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("4")  # filter on what is kept, saying so
        await wait_until(pilot, lambda: "kept" in screen.status_line.render().plain)
        kept = screen.table.items
        assert kept and all(isinstance(i, Analysis) for i in kept)
        assert all(i.status == AnalysisStatus.COMPLETED for i in kept)  # type: ignore[union-attr]


async def test_offline_retries_bring_the_view_back(tmp_path: Path) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        await first_run(tmp_path, server)
    with DemoServer(demo_config(analyses=150)) as again:
        app = make_app(tmp_path, connection_to(again), open_cache=cache_at(tmp_path / "c.db"))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            assert not screen.pane.offline
            again.faults.error_rate = 0.0
            gone_client = dataclasses.replace(connection_to(again), base_url=GONE)
            app.current.replace(app.make_client(gone_client))  # the network goes away
            screen.pane.refresh_now()
            await wait_until(pilot, lambda: screen.pane.offline)
            assert "offline" in screen.status_line.render().plain
            app.current.replace(app.make_client(connection_to(again)))  # and comes back
            await pilot.press("r")  # a retry at once (else in 30 s)
            await wait_until(pilot, lambda: not screen.pane.offline and not screen.busy)
            assert "offline" not in screen.status_line.render().plain


async def test_a_second_start_paints_the_cache_before_the_server_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        seen = await first_run(tmp_path, server)  # the cache notes the key was accepted
        app = make_app(tmp_path, connection_to(server), open_cache=cache_at(tmp_path / "c.db"))
        with server.faults.hold("/v1/analyses") as listings:  # the server answers when told
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
                screen = app.screen
                assert isinstance(screen, MainScreen)
                await wait_until(pilot, lambda: bool(screen.table.items))
                assert "refreshing…" in screen.status_line.render().plain
                assert [i.id for i in screen.table.items] == seen
                await pilot.press("down", "down")  # the reader moves on the kept rows
                picked = screen.table.highlighted_id
                listings.release()
                plain = lambda: screen.status_line.render().plain  # noqa: E731
                await wait_until(pilot, lambda: "refreshing" not in plain())
                assert screen.table.highlighted_id == picked, "the server's answer keeps the pick"


async def test_a_key_never_accepted_sees_nothing_kept_ever(tmp_path: Path) -> None:
    """The issue's repro: a cache for the server, then a start with a wrong key. Nothing
    kept (rows, labels, ids, totals, the detail, the projects) is on screen at any step:
    not before the 401, not under the login screen, not after Esc."""
    with DemoServer(demo_config(analyses=150)) as server:
        seen = await first_seen(tmp_path, server, ("4", "1"))
        assert seen.labels and seen.projects
        server.faults.latency_ms = 200  # the time the old app painted the cache in
        wrong = connection_to(server, api_key="sk_test_FAKE_x_123456")
        app = make_app(tmp_path, wrong, open_cache=cache_at(tmp_path / "c.db"))
        async with app.run_test(size=(120, 40)) as pilot:
            never = seen.words()
            await watch_screen(pilot, lambda: isinstance(app.screen, LoginScreen), never)
            main = app.screen_stack[1]
            assert isinstance(main, MainScreen)
            assert main.status_filter.counts == {} and main.sidebar.project_ids == ()
            await pilot.press("escape")  # no other key: the main screen, as it is
            await watch_screen(pilot, lambda: app.screen is main and not main.busy, never)
            await pilot.press("down", "enter", "1", "4")
            await watch_screen(pilot, lambda: not main.busy, never)
            assert main.detail.item is None and list(main.table.items) == []


async def test_a_refused_key_loses_what_was_painted_of_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key the server accepted before (its cache painted at once) and now refuses: the
    rows, the detail, the totals and the kept projects all go, and the cache forgets it."""
    trust = Trust(known=True)
    trusting(monkeypatch, trust)
    with DemoServer(demo_config(analyses=150)) as server:
        seen = await first_seen(tmp_path, server)
        revoked = connection_to(server, api_key="sk_test_revoked_123456")
        app = make_app(tmp_path, revoked, open_cache=cache_at(tmp_path / "c.db"))
        held = server.faults.hold("/v1/")  # the 401s come when the test lets them
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
            main = app.screen
            assert isinstance(main, MainScreen)
            painted = lambda: bool(main.table.items and main.status_filter.counts)  # noqa: E731
            await wait_until(pilot, lambda: painted() and main.detail.item is not None)
            assert not isinstance(app.screen, LoginScreen), "painted at once, before the 401"
            held.release()
            await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen) and not main.busy)
            await pilot.press("escape")  # every request of the key has been refused
            await watch_screen(pilot, lambda: app.screen is main and not main.busy, seen.words())
            assert list(main.table.items) == [] and main.detail.item is None
            assert main.status_filter.counts == {} and main.sidebar.project_ids == ()
            assert "refused" in trust.told


async def test_a_key_not_known_to_be_accepted_waits_for_the_first_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The right key, but the cache does not know it: nothing kept is painted before the
    server answers; once it answers, the key is remembered as accepted."""
    trust = Trust(known=False)
    trusting(monkeypatch, trust)
    with DemoServer(demo_config(analyses=150)) as server:
        seen = await first_seen(tmp_path, server)
        trust.told.clear()
        server.faults.latency_ms = 300
        app = make_app(tmp_path, connection_to(server), open_cache=cache_at(tmp_path / "c.db"))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
            main = app.screen
            assert isinstance(main, MainScreen)
            answered = lambda: main.pager.loaded > 0  # noqa: E731
            await watch_screen(pilot, answered, seen.words())
            assert "refreshing" not in main.status_line.render().plain
            await wait_until(pilot, lambda: not main.busy)
            assert [i.id for i in main.table.items] == seen.ids  # now the server's
            assert trust.told == ["accepted"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_offline_the_status_line_fits_and_says_when_it_retries(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Offline on the Completed tab (a filter on what is kept): the words fit the line, the
    retry part included, at 80 and 120 columns."""
    with DemoServer(demo_config(analyses=150)) as server:
        await first_run(tmp_path, server, ("1",))
        gone = dataclasses.replace(connection_to(server), base_url=GONE)
    app = make_app(tmp_path, gone, open_cache=cache_at(tmp_path / "c.db"), max_retries=0)
    async with app.run_test(size=size) as pilot:
        screen = await offline_screen(pilot)
        await pilot.press("4")
        line = screen.status_line
        shown_now = lambda: screen.view.status == AnalysisStatus.COMPLETED and not screen.busy  # noqa: E731
        await wait_until(pilot, lambda: shown_now() and bool(screen.table.items))
        shown = line.render().plain.rstrip()
        assert len(shown) <= line.content_size.width, shown
        words = r"offline · data from .* · kept rows only( · retry in \d+ s)?$"
        assert re.search(words, shown), shown


async def test_without_anything_kept_the_error_screen_says_so_and_offers_the_demo(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    gone = dataclasses.replace(connection_to(demo_server), base_url=GONE)
    app = make_app(
        tmp_path, gone, open_cache=cache_at(tmp_path / "c.db"),
        start_demo=lambda: connection_to(demo_server),
    )  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        error = app.screen
        assert isinstance(error, ErrorScreen)
        await pilot.pause()
        assert "Nothing from this server is kept" in str(error.query_one("#error-note").render())
        keys = str(error.query_one("#error-keys").render())
        assert keys.startswith("r retry · d start the demo · c connect"), keys
        await pilot.press("d")
        screen = await settled(pilot)
        assert screen is app.screen and screen.table.items, "the demo, browsed"
        assert app.connection is not None and app.connection.base_url == demo_server.base_url


async def test_with_the_cache_off_the_error_screen_says_so(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    gone = dataclasses.replace(connection_to(demo_server), base_url=GONE)
    app = make_app(tmp_path, gone)  # no cache, no demo to offer
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        await pilot.pause()
        note = str(app.screen.query_one("#error-note").render())
        assert "local cache is off" in note
        keys = str(app.screen.query_one("#error-keys").render())
        assert "demo" not in keys and keys.startswith("r retry · c connect"), keys


@pytest.mark.parametrize("setting", ["config", "flag"])
def test_cache_off_writes_no_file(tmp_path: Path, setting: str, demo_server: DemoServer) -> None:
    from screen_analysis.cli.launch import cache_opener
    from screen_analysis.config import load_settings

    config = tmp_path / "config.toml"
    config.write_text("cache = false\n" if setting == "config" else "")
    settings = load_settings(config_path=config, no_cache=setting == "flag")
    assert not settings.cache and cache_opener(settings) is None

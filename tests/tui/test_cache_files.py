"""The app and the cache file as untrusted input: `cache clear --all` run from the command
line while the app is open and writing (another server and key then see nothing, offline
or not), a row of the file the app cannot read (the others shown, the user told), and a
cache folder that refuses new files (one warning, the app runs without it)."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest
from tests.cache.test_place import folder_read_only_file_writable
from tests.conftest import Invoke, demo_config

from screen_analysis.cache import CacheScope, LocalCache, default_cache_path
from screen_analysis.cache.contents import kept_scopes
from screen_analysis.cli.launch import cache_opener
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr
from screen_analysis.tui.dialogs.error import ErrorScreen
from screen_analysis.tui.screens.main import MainScreen

from .conftest import (
    cache_at,
    connection_to,
    make_app,
    notes_of,
    offline_screen,
    settled,
    wait_until,
)

GONE = "http://127.0.0.1:9"  # nothing listens: connection refused


def server_connection(server: DemoServer) -> Connection:
    """A connection kept under the server's own address (not the demo's one scope)."""
    return Connection(server.base_url, SecretStr(server.api_key), key_source="env")


async def test_a_clear_while_the_app_writes_leaves_nothing_for_another_server(
    tmp_path: Path, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    opener = cache_opener(Settings())
    assert opener is not None
    with DemoServer(demo_config(analyses=150)) as first:
        app = make_app(tmp_path, server_connection(first), open_cache=opener)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            assert app.cache is not None
            app.cache.flush()
            cleared = invoke("cache", "clear", "--all")
            assert cleared.exit_code == 0 and "Cleared everything" in cleared.stdout
            for key in ("r", "4", "1"):  # the app writes on: reloads, another view
                await pilot.press(key)
                screen = await settled(pilot)
            assert screen.table.items
            app.cache.flush()
            scopes, _warning = kept_scopes(default_cache_path())
            db = sqlite3.connect(default_cache_path())
            in_file = db.execute("SELECT count(*) FROM analyses").fetchone()[0]
            db.close()
            assert sum(s.analyses for s in scopes) == in_file, "cache info tells the truth"
            assert {s.base_url for s in scopes} <= {first.base_url}
    other_key = "sk-test-another-key-000"
    with DemoServer(demo_config(analyses=150, api_key=other_key)) as second:
        monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", second.base_url)
        listed = invoke("analyses", "list", "--offline")
        assert listed.exit_code == 4 and "holds nothing" in listed.stderr, listed.stdout
        gone = dataclasses.replace(server_connection(second), base_url=GONE)
    scope = CacheScope(GONE)
    seen = LocalCache(scope)
    assert seen.view(None, None) is None and seen.analyses(None) == []
    seen.close()
    app = make_app(tmp_path, gone, open_cache=opener, max_retries=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        await pilot.pause()
        assert "Nothing from this server is kept" in str(
            app.screen.query_one("#error-note").render()
        )


async def test_an_unreadable_row_is_left_out_offline_and_the_user_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.db"
    with DemoServer(demo_config(analyses=150)) as server:
        app = make_app(tmp_path, connection_to(server), open_cache=cache_at(path))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            ids = [i.id for i in screen.table.items]
        gone = dataclasses.replace(connection_to(server), base_url=GONE)
    db = sqlite3.connect(path)
    db.execute("UPDATE analyses SET raw = '{not json' WHERE id = ?", (ids[2],))
    db.execute("UPDATE analyses SET raw = ? WHERE id = ?", ("[" * 50_000 + "]" * 50_000, ids[5]))
    db.commit()
    db.close()
    app = make_app(tmp_path, gone, open_cache=cache_at(path), max_retries=0)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await offline_screen(pilot)
        assert [i.id for i in screen.table.items] == [i for i in ids if i not in (ids[2], ids[5])]
        await wait_until(pilot, lambda: notes.any("could not be read"))
        assert notes.any("2 rows of the local cache could not be read and were left out")


async def test_a_cache_folder_that_refuses_new_files_is_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_server: DemoServer
) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    LocalCache(CacheScope("demo"), path=folder / "c.db").close()
    for suffix in ("-wal", "-shm"):
        (folder / f"c.db{suffix}").unlink(missing_ok=True)
    with folder_read_only_file_writable(folder, "c.db") as path:
        app = make_app(tmp_path, connection_to(demo_server), open_cache=cache_at(path))
        notes = notes_of(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            assert isinstance(screen, MainScreen) and screen.table.items
            warnings = [m for m in notes.messages("warning") if "local cache" in m]
            assert len(warnings) == 1 and "off for this run" in warnings[0]
        assert sorted(p.name for p in folder.iterdir()) == ["c.db"]

"""`e` exports the view: the loaded rows or every page (read with the client in use when
the walk starts), never over a file unasked, a failure in words that name the file."""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path

import pytest
from tests.tui.conftest import Notes, connection_to, make_app, notes_of, settled, wait_until

from screen_analysis.api.writers import CSV_COLUMNS
from screen_analysis.browse import ViewKey
from screen_analysis.tui.dialogs.choice import ChoiceDialog
from screen_analysis.tui.dialogs.progress import ProgressDialog
from screen_analysis.tui.dialogs.prompt import PromptDialog
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.screens.main.export import default_export_path


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


async def answer_path(pilot, text: str | None = None) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PromptDialog))
    if text is not None:
        pilot.app.screen.query_one("#export-path").value = text
    await pilot.press("enter")


async def choose(pilot, key: str) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChoiceDialog))
    await pilot.press(key)


def notified(notes: Notes, words: str) -> bool:
    return notes.any(words)


def test_default_path_names_the_view(tmp_path: Path) -> None:
    view = ViewKey("proj/../x", "completed")
    assert default_export_path(view, tmp_path) == tmp_path / "analyses-proj_.._x-completed.csv"
    assert default_export_path(ViewKey(), tmp_path).name == "analyses-all-all.csv"


async def test_export_loaded_then_every_page(
    demo_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, invoke
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        loaded = [item.id for item in screen.table.items]
        assert 0 < len(loaded) < 300
        await pilot.press("e")
        await answer_path(pilot)  # the default, in the current directory
        await choose(pilot, "l")
        target = work / "analyses-all-all.csv"
        await wait_until(pilot, lambda: target.exists() and notified(notes, "Wrote"))
        rows = read_csv(target)
        assert rows[0] == list(CSV_COLUMNS)
        assert [row[0] for row in rows[1:]] == loaded
        before = target.read_bytes()
        # the file exists: kept unless the user says otherwise
        await pilot.press("e")
        await answer_path(pilot)
        await choose(pilot, "a")
        await choose(pilot, "n")
        await wait_until(pilot, lambda: notified(notes, "The file was kept"))
        assert target.read_bytes() == before
        await pilot.press("e")
        await answer_path(pilot)
        await choose(pilot, "a")
        await choose(pilot, "y")
        await wait_until(pilot, lambda: notified(notes, "Wrote 300 analyses"))
        assert isinstance(app.screen, MainScreen)
        # the same file `analyses list --all --format csv` writes
        monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", demo_server.api_key)
        args = ("--base-url", demo_server.base_url, "analyses", "list", "--all", "--format", "csv")
        listed = await asyncio.to_thread(invoke, *args)
        assert target.read_text(encoding="utf-8") == listed.stdout
        # JSON Lines, as received, by the suffix
        await pilot.press("e")
        await answer_path(pilot, "out.jsonl")
        await choose(pilot, "l")
        await wait_until(pilot, lambda: (work / "out.jsonl").exists())
        lines = (work / "out.jsonl").read_text(encoding="utf-8").splitlines()
        assert [json.loads(line)["id"] for line in lines] == loaded
        assert sorted(p.name for p in work.iterdir()) == ["analyses-all-all.csv", "out.jsonl"]


async def test_cancelled_export_leaves_nothing(
    fresh_demo_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(tmp_path, connection_to(fresh_demo_server), refresh_interval=0)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        pages = fresh_demo_server.faults.hold("/v1/analyses")  # answered only once cancelled
        await pilot.press("e")
        await answer_path(pilot, "slow.csv")
        await choose(pilot, "a")
        await wait_until(pilot, lambda: isinstance(app.screen, ProgressDialog))
        await wait_until(pilot, lambda: pages.waiting > 0)  # writing
        await pilot.press("escape")
        await wait_until(pilot, lambda: notified(notes, "Export cancelled"))
        assert isinstance(app.screen, MainScreen)
        assert not any(p.name.startswith(("slow", ".slow")) for p in tmp_path.iterdir())
        pages.release()


async def test_unknown_suffix_writes_nothing(demo_server, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("e")
        await answer_path(pilot, "out.xlsx")
        await wait_until(pilot, lambda: notified(notes, "a .csv or a .jsonl"))
        assert not (tmp_path / "out.xlsx").exists()


async def test_sorted_view_exports_in_the_tables_order(demo_server, tmp_path, monkeypatch) -> None:
    from screen_analysis.browse.order import SortOrder

    monkeypatch.chdir(tmp_path)
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        screen.table.sort_by(SortOrder("score", descending=True))
        await pilot.pause()
        shown = [item.id for item in screen.table.items]
        await pilot.press("e")
        await answer_path(pilot)
        target = tmp_path / "analyses-all-all-by-score-desc.csv"
        await choose(pilot, "l")
        await wait_until(pilot, lambda: target.exists() and notified(notes, "Wrote"))
        assert [row[0] for row in read_csv(target)[1:]] == shown
        await pilot.press("e")
        await answer_path(pilot)
        await choose(pilot, "a")
        await choose(pilot, "y")
        await wait_until(pilot, lambda: notified(notes, "Wrote 300 analyses"))
    rows = read_csv(target)[1:]
    scores = [row[4] for row in rows]
    present = [float(score) for score in scores if score]
    assert present == sorted(present, reverse=True)
    assert scores[len(present) :] == [""] * (len(scores) - len(present))  # unscored last


async def test_every_page_is_read_with_the_client_in_use_when_the_walk_starts(
    demo_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(tmp_path, connection_to(demo_server), refresh_interval=0)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("e")
        await answer_path(pilot, "renewed.csv")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceDialog))
        # While the question is open the key is renewed: a new client, the old one closed.
        stale = app.current.replace(app.make_client(connection_to(demo_server)))
        assert stale is not None
        await stale.aclose()
        await choose(pilot, "a")
        await wait_until(pilot, lambda: notified(notes, "Wrote 300 analyses"))
        assert len(read_csv(tmp_path / "renewed.csv")) == 301


async def test_a_failed_export_names_the_file_and_says_what_to_do(
    demo_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not-a-folder").write_text("a file where a folder should be")
    app = make_app(tmp_path, connection_to(demo_server), refresh_interval=0)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("e")
        await answer_path(pilot, "not-a-folder/out.csv")
        await choose(pilot, "l")
        await wait_until(pilot, lambda: bool(notes.messages("error")))
    said = notes.messages("error")[-1]
    assert said.startswith("Nothing was written: cannot write ")
    assert str(tmp_path / "not-a-folder" / "out.csv") in said
    assert said.endswith("A file stands where a folder should be.")


async def test_every_page_of_a_listing_that_never_ends_stops_at_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.cli.test_endless_listings import endless
    from tests.support.scripted_server import ScriptedServer

    from screen_analysis.api import pagination
    from screen_analysis.config import Connection
    from screen_analysis.secret import SecretStr

    monkeypatch.setattr(pagination, "MAX_WALK_PAGES", 12)
    monkeypatch.chdir(tmp_path)
    with ScriptedServer(endless) as server:
        connection = Connection(server.base_url, SecretStr("sk-test-endless-not-real"))
        app = make_app(tmp_path, connection, refresh_interval=0)
        notes = notes_of(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot)
            await pilot.press("e")
            await answer_path(pilot, "endless.csv")
            await choose(pilot, "a")
            await wait_until(pilot, lambda: bool(notes.messages("error")))
        exported = sum(1 for s in server.seen if s.query.get("limit") == "100") - 1  # the table's
    said = notes.messages("error")[-1]
    assert "endless.csv was not written: " in said
    assert "listing stopped: it did not end within 12 pages" in said
    assert 12 <= exported <= 13 and not (tmp_path / "endless.csv").exists()

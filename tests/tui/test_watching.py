"""Watching in the app, against the reference server: `w` and `W`, one page a round
whatever is watched (counted in the server's request log with one, ten and a hundred
watched), the end told (toast, bell, desktop sequence), the watches kept between runs and
dropped once finished. The live simulation moves only when the test ticks it, and rounds
run when the test asks (`WatchDesk.round`), so nothing waits on a timer."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from tests.support.pilot import wait_until

from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.state.watches import WatchedFile
from screen_analysis.tui.watching.tell import desktop_sequence, parse_notify

from ..conftest import DEMO_NOW, Serve, demo_config
from .conftest import answered, connection_to, make_app, notes_of, settled


@pytest.fixture
def server(served: Serve) -> DemoServer:
    return served(demo_config())


def listings(server: DemoServer) -> int:
    return sum(r.path == "/v1/analyses" for r in server.request_log)


@pytest.mark.parametrize("watched", [1, 10, 100])
async def test_a_round_asks_one_page_whatever_is_watched(
    server: DemoServer, tmp_path: Path, watched: int
) -> None:
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    rows, _cursor = server.store.list_analyses(None, None, 300, None)
    spread = rows[:: max(1, len(rows) // watched)][:watched]  # across every page
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        desk = screen.watch_desk
        for row in spread:
            assert desk.book.watch(row["id"], "pending", None)
        # The view's own reads (the tabs' totals) may still be under way: count from when
        # nothing else asks.
        await wait_until(pilot, lambda: not any(worker.is_running for worker in app.workers))
        await answered(pilot, server)  # a cancelled worker's request is not counted as a round's
        before = listings(server)
        for _ in range(6):
            await desk.round()
        assert listings(server) - before == 6  # one page a round
        await pilot.pause()


async def test_w_watches_and_the_end_is_told_as_configured(
    server: DemoServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    simulator = LiveSimulator(server.config, server.store)
    app = make_app(
        tmp_path,
        connection_to(server),
        refresh_interval=0,
        notify=["toast", "bell", "desktop"],
    )
    notes = notes_of(app, monkeypatch)
    rang: list[bool] = []
    sent: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        teller = screen.watch_desk._teller
        monkeypatch.setattr(teller, "bell", lambda: rang.append(True))
        monkeypatch.setattr(teller, "to_terminal", sent.append)
        item = screen.table.highlighted_item
        assert getattr(item, "status", None) in ("pending", "processing")
        await pilot.press("w")
        await wait_until(pilot, lambda: notes.any("Watching 1 analysis"))
        kept = WatchedFile(tmp_path / "state.json", "demo")
        assert [entry[0] for entry in kept.read()] == [item.id]
        seconds = 0
        while server.store.get_analysis(item.id)["status"] in ("pending", "processing"):
            seconds += 5
            simulator.tick(DEMO_NOW + timedelta(seconds=seconds))
        events = await screen.watch_desk.round()
        await pilot.pause()
    final = server.store.get_analysis(item.id)
    assert [e.analysis.id for e in events] == [item.id]
    done = final["status"] == "completed"
    told = f"completed: score {final['score']}" if done else "failed: "
    assert any(told in m for m in notes.messages()), notes
    assert rang == [True] and len(sent) == 1 and told in sent[0]
    assert kept.read() == []  # dropped once finished


async def test_watches_survive_a_restart(server: DemoServer, tmp_path: Path) -> None:
    first = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with first.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("W")
        await wait_until(pilot, lambda: len(screen.watch_desk.book) > 0)
        ids = screen.watch_desk.book.ids
    second = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with second.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert screen.watch_desk.book.ids == ids


def test_a_damaged_watches_file_is_nothing_watched(tmp_path: Path) -> None:
    path = tmp_path / "watches.json"
    for text in ("{not json", '{"servers": []}', '{"servers": {"demo": [1, ["a"]]}}'):
        path.write_text(text)
        kept = WatchedFile(tmp_path / "state.json", "demo")
        assert kept.read() == [] and kept.problem
    path.write_text('{"servers": {"demo": [["ana_1", "pending", null], 7]}}')
    assert WatchedFile(tmp_path / "state.json", "demo").read() == [("ana_1", "pending", None)]


def test_notify_is_checked_with_the_one_wording() -> None:
    assert parse_notify(["toast", "desktop"]) == (("toast", "desktop"), None)
    kinds, problem = parse_notify(["toast", "popup"])
    assert kinds == ("toast",) and problem is not None and problem.startswith("notify: 1: ")


@pytest.mark.parametrize(
    ("env", "start"),
    [
        ({}, "\x1b]777;notify;T;a, b\x1b\\"),
        ({"KITTY_WINDOW_ID": "1"}, "\x1b]99;i=sa:d=0;T\x1b\\"),
        ({"TERM_PROGRAM": "iTerm.app"}, "\x1b]9;T: a; b\x1b\\"),
        ({"TMUX": "/tmp/x"}, "\x1bPtmux;\x1b\x1b]777;notify;T;a, b\x1b\x1b\\\x1b\\"),
    ],
)
def test_the_desktop_sequence_fits_the_terminal(env: dict[str, Any], start: str) -> None:
    assert desktop_sequence("T", "a; b", env).startswith(start)

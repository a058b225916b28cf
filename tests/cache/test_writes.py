"""What the cache's writer keeps and how it reads back, one kind of write at a time, with a
clock the test sets: pages appended below a view and arrivals above it, the rows that are
not kept (no id, too large), updates of rows already kept, totals per status, the newest
first, and a cache that turns itself off on damage found while running."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.cache.conftest import WRITES_SCOPE, Clock

from screen_analysis.api.models import AnalysisItem, InvalidAnalysis, Project
from screen_analysis.api.parsing import parse_item
from screen_analysis.cache import LocalCache
from screen_analysis.cache.writes import MAX_ROW_BYTES


def row(ident: str, status: str = "completed", **fields: object) -> AnalysisItem:
    return parse_item({"id": ident, "project_id": "p1", "status": status, **fields})


def ids(items: list[AnalysisItem]) -> list[str | None]:
    return [i.id for i in items]


def when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


@pytest.fixture
def cache(opened: Callable[..., LocalCache]) -> LocalCache:
    return opened()


def test_pages_append_below_a_view_and_arrivals_go_above_it(
    cache: LocalCache, clock: Clock
) -> None:
    cache.store_page(None, None, [row("a4"), row("a5")], total=9, done=False, first=True)
    cache.store_page(None, None, [row("a6")], total=9, done=True, first=False)
    cache.store_arrivals(None, None, [row("a3")], None)  # no total said: the last one stays
    cache.flush()
    clock.now = 2_000.0
    cache.store_arrivals(None, None, [row("a1"), row("a2")], 11)
    cache.flush()
    view = cache.view(None, None)
    assert view is not None
    assert ids(view.items) == ["a1", "a2", "a3", "a4", "a5", "a6"]
    assert (view.total, view.done, view.fetched_at) == (11, True, when(2_000.0))
    cache.store_page(None, None, [row("b1")], total=None, done=False, first=True)
    cache.flush()
    again = cache.view(None, None)
    assert again is not None and ids(again.items) == ["b1"]
    assert again.total is None and not again.done


def test_arrivals_above_an_emptied_view_start_it(cache: LocalCache) -> None:
    cache.store_page(None, "failed", [], total=0, done=True, first=True)
    cache.store_arrivals(None, "failed", [row("a1", "failed")], 1)
    cache.store_page(None, "failed", [row("a2", "failed")], total=2, done=True, first=False)
    cache.flush()
    view = cache.view(None, "failed")
    assert view is not None and ids(view.items) == ["a1", "a2"] and view.total == 2


def test_a_page_that_continues_a_view_never_kept_is_not_kept(cache: LocalCache) -> None:
    cache.store_page("p1", None, [row("a2")], total=2, done=True, first=False)
    cache.store_arrivals("p1", None, [row("a1")], 2)
    cache.flush()
    assert cache.view("p1", None) is None
    assert cache.analyses(None) == []


def test_each_view_is_its_projects_and_its_statuses(cache: LocalCache) -> None:
    cache.store_page("p1", "failed", [row("a1", "failed")], total=1, done=True, first=True)
    cache.store_page("p1", None, [row("a2")], total=1, done=True, first=True)
    cache.store_page(None, "failed", [row("a3", "failed")], total=1, done=True, first=True)
    cache.flush()
    assert ids(cache.view("p1", "failed").items) == ["a1"]  # type: ignore[union-attr]
    assert ids(cache.view("p1", None).items) == ["a2"]  # type: ignore[union-attr]
    assert ids(cache.view(None, "failed").items) == ["a3"]  # type: ignore[union-attr]
    assert cache.view(None, None) is None and cache.view("p2", "failed") is None


def test_rows_without_an_id_are_shown_but_not_kept_and_a_flagged_one_is(
    cache: LocalCache,
) -> None:
    flagged = parse_item({"id": "a2", "status": 5})
    assert isinstance(flagged, InvalidAnalysis)
    nameless = InvalidAnalysis("not an object", None, [1, 2])
    empty = InvalidAnalysis("no id", "", {"id": ""})
    items = [row("a1"), nameless, flagged, empty, row("a1"), row("a3")]
    cache.store_page(None, None, items, total=6, done=True, first=True)
    cache.flush()
    view = cache.view(None, None)
    assert view is not None and ids(view.items) == ["a1", "a2", "a3"]  # a1 once
    assert view.items[1] == flagged and view.skipped == 0
    assert sorted(i.id or "" for i in cache.analyses(None)) == ["a1", "a2", "a3"]


def padded(ident: str, size: int) -> InvalidAnalysis:
    """A flagged row whose JSON, as the cache writes it, is `size` characters long."""
    bare = len(json.dumps({"id": ident, "pad": ""}, separators=(",", ":")))
    raw = {"id": ident, "pad": "x" * (size - bare)}
    return InvalidAnalysis("odd", ident, raw)


def test_a_row_of_exactly_the_limit_is_kept_and_one_byte_more_is_not(cache: LocalCache) -> None:
    items = [padded("at", MAX_ROW_BYTES), padded("over", MAX_ROW_BYTES + 1), row("small")]
    cache.store_page(None, None, items, total=3, done=True, first=True)
    cache.flush()
    view = cache.view(None, None)
    assert view is not None and ids(view.items) == ["at", "small"]
    assert view.skipped == 0


def test_a_project_too_large_to_keep_is_not_kept(cache: LocalCache) -> None:
    cache.store_project(Project.model_validate({"id": "big", "name": "x" * MAX_ROW_BYTES}))
    cache.store_project(Project.model_validate({"id": "small", "name": "Small"}))
    cache.flush()
    assert [p.id for p, _at in cache.projects()] == ["small"]


def test_updates_change_only_rows_already_kept_and_confirm_their_view(
    cache: LocalCache, clock: Clock
) -> None:
    cache.store_page("p1", None, [row("a1", "pending"), row("a2")], total=2, done=True, first=True)
    cache.store_page("p2", None, [row("b1", "pending")], total=1, done=True, first=True)
    cache.flush()
    clock.now = 5_000.0
    fresh = [row("a1", "failed", error_message="boom"), row("a9", "failed")]
    cache.store_updates("p1", None, fresh)
    cache.flush()
    view = cache.view("p1", None)
    assert view is not None and view.fetched_at == when(5_000.0)
    assert view.items == [fresh[0], row("a2")]
    assert "a9" not in {i.id for i in cache.analyses(None)}, "an update adds no row"
    other = cache.view("p2", None)
    assert other is not None and other.fetched_at == when(1_000.0)


def test_totals_per_status_of_each_project(cache: LocalCache, clock: Clock) -> None:
    cache.store_totals(None, {None: 300, "failed": 19})
    cache.store_totals("p1", {None: 7})
    cache.flush()
    clock.now = 3_000.0
    cache.store_totals(None, {"failed": 20})
    cache.flush()
    assert cache.totals(None) == {None: (300, when(1_000.0)), "failed": (20, when(3_000.0))}
    assert cache.totals("p1") == {None: (7, when(1_000.0))}
    assert cache.totals("p2") == {}


def test_every_analysis_of_a_project_the_newest_first(cache: LocalCache) -> None:
    items = [
        row("a1", created_at="2026-01-01T00:00:00Z"),
        row("a3"),  # no date: after every dated one
        row("a2", created_at="2026-03-01T00:00:00Z"),
        row("a0"),
        row("a4", created_at="2026-03-01T00:00:00Z"),  # the same time: by id
        parse_item({"id": "b1", "project_id": "p2", "created_at": "2026-12-01T00:00:00Z"}),
        parse_item({"id": "c1", "status": 5}),  # flagged: no project, no date
    ]
    cache.store_page(None, None, items, total=7, done=True, first=True)
    cache.flush()
    assert ids(cache.analyses(None)) == ["b1", "a2", "a4", "a1", "a0", "a3", "c1"]
    assert ids(cache.analyses("p1")) == ["a2", "a4", "a1", "a0", "a3"]
    assert cache.analyses("p3") == []


def test_damage_found_while_running_turns_the_cache_off_with_one_warning(
    cache: LocalCache,
) -> None:
    cache.store_page(None, None, [row("a1")], total=1, done=True, first=True)
    cache.flush()
    db = sqlite3.connect(cache.path)
    db.execute("DROP TABLE totals")  # another program's doing
    db.close()
    cache.store_totals(None, {None: 1})
    cache.flush()
    assert not cache.usable
    warning = cache.warning
    assert warning is not None and str(cache.path) in warning and "totals" in warning
    assert "\n" not in warning
    assert cache.view(None, None) is None and cache.analyses(None) == []
    assert cache.projects() == [] and cache.totals(None) == {}
    assert not cache.key_known("digest")
    cache.store_page(None, None, [row("a2")], total=1, done=True, first=True)
    cache.store_project(Project.model_validate({"id": "p1", "name": "One"}))
    cache.flush()  # writes asked for now are dropped, not queued for ever
    assert cache.warning == warning, "one warning"
    cache.close()
    db = sqlite3.connect(cache.path)
    try:  # the projects' table is whole: only the cache's being off kept p1 out
        assert [r[0] for r in db.execute("SELECT id FROM analyses")] == ["a1"]
        assert db.execute("SELECT count(*) FROM projects").fetchone()[0] == 0
    finally:
        db.close()


def test_a_read_of_damage_turns_the_cache_off_too(cache: LocalCache) -> None:
    cache.store_page(None, None, [row("a1")], total=1, done=True, first=True)
    cache.flush()
    db = sqlite3.connect(cache.path)
    db.execute("DROP TABLE view_rows")
    db.close()
    assert cache.view(None, None) is None
    assert not cache.usable and cache.warning is not None and "view_rows" in cache.warning


def test_a_cache_closed_reads_and_writes_nothing(opened: Callable[..., LocalCache]) -> None:
    cache = opened()
    cache.store_page(None, None, [row("a1")], total=1, done=True, first=True)
    cache.close()
    assert not cache.usable and cache.warning is None
    cache.store_page(None, None, [row("a2")], total=1, done=True, first=True)
    cache.flush()
    cache.close()  # twice is fine
    view = opened().view(None, None)
    assert view is not None and ids(view.items) == ["a1"], "the write before close is in"


def test_offline_filtering_keeps_the_views_time_and_what_it_left_out(
    cache: LocalCache, clock: Clock
) -> None:
    flagged = parse_item({"id": "a3", "status": 5})  # a flagged row has no status
    items = [row("a1", "failed"), row("a2"), flagged, row("a4", "failed")]
    cache.store_page("p1", None, items, total=4, done=True, first=True)
    cache.flush()
    db = sqlite3.connect(cache.path)
    db.execute("UPDATE analyses SET raw = '{not json' WHERE id = 'a2'")
    db.commit()
    db.close()
    failed = cache.matching("p1", "failed")
    assert failed is not None and ids(failed.items) == ["a1", "a4"]
    assert (failed.total, failed.done, failed.fetched_at, failed.skipped) == (
        None,
        True,
        when(1_000.0),
        1,
    )


def test_arrivals_and_updates_reach_the_view_they_were_loaded_for(
    cache: LocalCache, clock: Clock
) -> None:
    cache.store_page("p1", "failed", [row("a2", "failed")], total=1, done=True, first=True)
    cache.store_page("p1", None, [row("a2", "failed")], total=1, done=True, first=True)
    cache.store_page(None, "failed", [row("a2", "failed")], total=1, done=True, first=True)
    cache.flush()
    clock.now = 2_000.0
    cache.store_arrivals("p1", "failed", [row("a1", "failed")], 2)
    cache.store_updates("p1", "failed", [row("a2", "failed", error_message="late")])
    cache.flush()
    view = cache.view("p1", "failed")
    assert view is not None and ids(view.items) == ["a1", "a2"]
    assert (view.total, view.fetched_at) == (2, when(2_000.0))
    for other in (("p1", None), (None, "failed")):
        kept = cache.view(*other)
        assert kept is not None and ids(kept.items) == ["a2"], other
        assert (kept.total, kept.fetched_at) == (1, when(1_000.0)), other


def test_a_project_round_trips_whole_and_one_of_exactly_the_limit_is_kept(
    cache: LocalCache,
) -> None:
    whole = Project.model_validate(
        {
            "id": "p1",
            "name": "Shop",
            "description": "The shop's screens",
            "default_criteria": {"contrast": 0.5, "layout": 0.5},
            "analysis_count": 12,
            "avg_score": 81.5,
            "created_at": "2026-01-02T03:04:05Z",
            "updated_at": "2026-02-03T04:05:06Z",
        }
    )
    bare = Project.model_validate({"id": "p2", "name": ""})
    compact = json.dumps(bare.model_dump(mode="json"), separators=(",", ":"))
    at_limit = Project.model_validate({"id": "p2", "name": "x" * (MAX_ROW_BYTES - len(compact))})
    cache.store_project(whole)
    cache.store_project(at_limit)
    cache.flush()
    assert [p for p, _at in cache.projects()] == [whole, at_limit]


def test_a_page_appended_to_an_empty_view_starts_it(cache: LocalCache) -> None:
    cache.store_page(None, None, [], total=None, done=False, first=True)  # nothing yet
    cache.store_page(None, None, [row("a1"), row("a2")], total=2, done=True, first=False)
    cache.flush()
    view = cache.view(None, None)
    assert view is not None and ids(view.items) == ["a1", "a2"] and view.done
    assert cache.usable


def test_a_write_queued_while_damage_was_found_is_dropped_too(tmp_path: Path) -> None:
    """A batch finds damage and turns the cache off; a write asked for while that batch ran
    (queued then: the cache was still on) is dropped with it, never written to the file."""
    running, go_on = threading.Event(), threading.Event()
    hold = [False]

    def clock() -> float:  # the writer asks the time first in a batch: hold it there once
        if hold[0]:
            hold[0] = False
            running.set()
            go_on.wait(10)
        return 1_000.0

    path = tmp_path / "c.sqlite3"
    cache = LocalCache(WRITES_SCOPE, path=path, clock=clock)
    try:
        cache.store_page(None, None, [row("a1")], total=1, done=True, first=True)
        cache.flush()
        db = sqlite3.connect(path)
        db.execute("DROP TABLE totals")  # another program's doing
        db.close()
        hold[0] = True
        cache.store_totals(None, {None: 1})  # its batch finds the damage
        assert running.wait(10)
        assert cache.usable
        cache.store_project(Project.model_validate({"id": "p1", "name": "One"}))
        go_on.set()
        cache.flush()
        assert not cache.usable and cache.warning is not None
    finally:
        go_on.set()
        cache.close()
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT count(*) FROM projects").fetchone()[0] == 0
    finally:
        db.close()

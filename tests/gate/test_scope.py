"""The gate's scope: how it is described, which analyses fall in it and which are the N
newest, and what a wait that ran out of time records."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from tests.conftest import DEMO_NOW, demo_config
from tests.gate.test_measure import NOW, row

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.demo.runner import DemoServer
from screen_analysis.gate import (
    GateInputError,
    Scope,
    ScopeCollector,
    Source,
    Window,
    build_spec,
    measure,
    parse_when,
)
from screen_analysis.gate.document import timeout_document
from screen_analysis.gate.scope import quoted
from screen_analysis.gate.wait import WaitState
from screen_analysis.secret import SecretStr
from screen_analysis.words import utc_time

PLUS_TWO = timezone(timedelta(hours=2))


def test_a_scope_describes_itself_in_one_line() -> None:
    assert Scope().describe() == "all projects"
    full = Scope(project_id="proj_1", label="Checkout*", since=NOW, last=1000)
    assert full.describe() == (
        "project proj_1 · label Checkout* · since 2026-11-01 12:00 UTC · last 1,000"
    )
    assert Scope(label="").describe() == "all projects · label "


def test_a_window_describes_itself_in_utc() -> None:
    assert Window().describe() == "all time"
    assert Window(until=NOW).describe() == "until 2026-11-01 12:00 UTC"
    assert Window(NOW - timedelta(days=1), NOW.astimezone(PLUS_TWO)).describe() == (
        "since 2026-10-31 12:00 UTC until 2026-11-01 12:00 UTC"
    )
    assert utc_time(datetime(2026, 11, 1, 9, 30, tzinfo=PLUS_TWO)) == "2026-11-01 07:30 UTC"


def test_a_window_holds_its_start_and_not_its_end() -> None:
    window = Window(NOW - timedelta(hours=1), NOW)
    assert window.contains(NOW - timedelta(hours=1)) and not window.contains(NOW)
    assert not window.contains(NOW - timedelta(hours=2)) and not window.contains(None)
    assert Window().contains(None) and Window(until=NOW).contains(NOW - timedelta(days=999))


def test_an_analysis_is_in_scope_by_label_and_time() -> None:
    scope = Scope(label="Check*", since=NOW - timedelta(hours=5))
    assert scope.matches(row(1, label="Checkout", hours_ago=5))  # since: met exactly
    assert not scope.matches(row(2, label="Checkout", hours_ago=6))
    assert not scope.matches(row(3, label="Cart", hours_ago=1))
    assert Scope().matches(row(4, label="anything", hours_ago=10_000))


def test_the_last_n_are_the_newest_whatever_order_the_listing_brings_them_in() -> None:
    items = [row(1, hours_ago=30, score=10), row(2, hours_ago=20, score=20), row(3, score=90)]
    undated = row(4, score=40).model_copy(update={"created_at": None})
    for order in ([*items, undated], [undated, *reversed(items)]):
        collector = ScopeCollector(Scope(last=2))
        collector.add_page(order)
        measured = collector.result()
        assert measured.scores.analyses == 2 and measured.scores.mean_score == 55


def test_a_naive_time_is_utc_and_an_aware_one_is_kept() -> None:
    assert parse_when(datetime(2026, 10, 1, 9), now=NOW, option="x") == datetime(
        2026, 10, 1, 9, tzinfo=UTC
    )
    aware = datetime(2026, 10, 1, 9, tzinfo=PLUS_TWO)
    assert parse_when(aware, now=NOW, option="x").utcoffset() == timedelta(hours=2)
    assert parse_when("2026-10-01T09:00", now=NOW, option="x").tzinfo is UTC
    assert parse_when("2026-10-01T09:00+02:00", now=NOW, option="x") == aware


def test_a_duration_reaching_before_year_one_is_refused_with_the_value() -> None:
    with pytest.raises(GateInputError) as refused:
        parse_when("999999d", now=NOW, option="--since")
    assert str(refused.value) == "--since: '999999d' reaches too far back"


def test_a_repeated_value_is_cut_after_40_characters() -> None:
    assert quoted("x" * 40) == repr("x" * 40)  # met exactly: whole
    assert quoted("y" * 41) == repr("y" * 39 + "…")


def test_a_wait_that_ran_out_records_what_was_still_being_scored() -> None:
    state = WaitState(
        waiting=5, pending=2, processing=3, elapsed=12.34, timeout=600, rounds=4, finished_rounds=3
    )
    document = timeout_document("release", Scope("proj_1", since=NOW), state, NOW)
    assert document == {
        "kind": "screen-analysis-check",
        "version": 1,
        "name": "release",
        "generated_at": "2026-11-01T12:00:00Z",
        "passed": False,
        "timed_out": True,
        "scope": {
            "project_id": "proj_1",
            "label": None,
            "since": "2026-11-01T12:00:00Z",
            "last": None,
        },
        "waiting": {
            "analyses": 5,
            "pending": 2,
            "processing": 3,
            "elapsed_s": 12.3,
            "timeout_s": 600,
            "last_poll_failed": None,
            "last_poll_cut_short": None,
        },
    }
    failed = timeout_document(None, Scope(), state._replace(failed_round="503"), NOW)
    assert failed["waiting"]["last_poll_failed"] == "503" and failed["name"] is None


def test_a_wait_cut_off_before_any_poll_read_both_listings_says_unknown_not_zero() -> None:
    """A CI reading `waiting.analyses: 0` would take it that nothing was left to score."""
    state = WaitState(waiting=0, pending=0, processing=0, elapsed=1.0, timeout=1, rounds=1)
    waiting = timeout_document(None, Scope(), state, NOW)["waiting"]
    assert (waiting["analyses"], waiting["pending"], waiting["processing"]) == (None, None, None)


async def test_a_scope_of_one_status_reads_only_that_status_listing(
    demo_server: DemoServer,
) -> None:
    project = demo_server.store.projects()[0].id
    failed = demo_server.store.count_analyses(project, "failed")
    assert 0 < failed < demo_server.store.count_analyses(project, None)
    async with ScreenAnalysisClient(
        demo_server.base_url, SecretStr(demo_server.api_key), max_retries=0
    ) as client:
        measured = await measure(client, Scope(project_id=project, status=AnalysisStatus.FAILED))
    assert measured.received == measured.scores.analyses == measured.scores.failed == failed


async def test_one_walk_measures_the_scope_and_its_baseline_window_page_by_page(
    fresh_demo_server: DemoServer,
) -> None:
    project = fresh_demo_server.store.projects()[0].id
    totals: list[int | None] = []
    window = Window(until=DEMO_NOW)
    async with ScreenAnalysisClient(
        fresh_demo_server.base_url, SecretStr(fresh_demo_server.api_key), max_retries=0
    ) as client:
        measured = await measure(
            client,
            Scope(project_id=project),
            window,
            on_page=lambda collector, total: totals.append(total),
        )
    listed = [r for r in fresh_demo_server.request_log if r.path == "/v1/analyses"]
    assert len(totals) == len(listed) >= 1 and set(totals) == {measured.scores.analyses}
    assert measured.window is not None and measured.window.analyses == measured.scores.analyses
    assert [r.path for r in fresh_demo_server.request_log] == ["/v1/analyses"] * len(listed)


async def test_an_empty_listing_of_every_project_is_an_empty_scope() -> None:
    with DemoServer(demo_config(analyses=0)) as server:
        async with ScreenAnalysisClient(
            server.base_url, SecretStr(server.api_key), max_retries=0
        ) as client:
            measured = await measure(client, Scope())
        paths = [r.path for r in server.request_log]
    assert measured.scores.analyses == 0 and paths == ["/v1/analyses"]  # no look-up


def test_times_read_in_utc_whatever_the_machines_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert utc_time(datetime(2026, 11, 1, 9, 30, tzinfo=PLUS_TWO)) == "2026-11-01 07:30 UTC"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_naive_creation_time_is_utc_and_no_label_is_an_empty_one() -> None:
    naive = row(1).model_copy(update={"created_at": datetime(2026, 11, 1, 11, 0)})
    assert Scope(since=NOW - timedelta(hours=1)).matches(naive)
    assert not Scope(since=NOW - timedelta(minutes=59)).matches(naive)
    unlabelled = row(2).model_copy(update={"label": None})
    assert not Scope(label="?*").matches_label(unlabelled)
    assert Scope(label="*").matches_label(unlabelled)


def test_a_check_told_not_to_wait_does_not_wait() -> None:
    """`wait = false` in a check's table, or given after a table that says true."""
    table = Source({"min_score": 1, "wait": True}, "[checks.x] of c.toml")
    assert build_spec([Source({"min_score": 1, "wait": False})], now=NOW).wait is False
    assert build_spec([table, Source({"wait": False})], now=NOW).wait is False
    assert build_spec([table], now=NOW).wait is True

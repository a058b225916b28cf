"""The overview of what the local cache kept (the overview's offline stand-in): the analyses
of a scope added up as the server's would be, with the time their view was fetched and the
projects' names; nothing kept is None."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from screen_analysis.api.models import AnalysisItem, Project
from screen_analysis.api.parsing import parse_item
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.insight.offline import kept_overview

FETCHED = datetime(2026, 11, 1, 10, 42, tzinfo=UTC)


def analysis(number: int, project_id: str, status: str) -> AnalysisItem:
    return parse_item(
        {
            "id": f"ana_{number}",
            "project_id": project_id,
            "status": status,
            "created_at": f"2026-10-{number + 1:02d}T09:00:00Z",
        }
    )


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[LocalCache]:
    kept = LocalCache(
        CacheScope("http://127.0.0.1:1"), path=tmp_path / "c.db", clock=FETCHED.timestamp
    )
    yield kept
    kept.close()


def keep(cache: LocalCache) -> None:
    """Two projects' analyses seen in the all-projects view, and one project fetched."""
    items = [analysis(n, "proj_a", "completed") for n in range(3)]
    items += [analysis(3, "proj_a", "failed"), analysis(4, "proj_b", "completed")]
    cache.store_page(None, None, items, total=5, done=True, first=True)
    cache.store_project(Project.model_validate({"id": "proj_a", "name": "Lumen Banking"}))
    cache.flush()


def test_the_overview_of_everything_kept(cache: LocalCache) -> None:
    keep(cache)
    found = kept_overview(cache, None)
    assert found is not None
    assert found.kept == found.overview.seen == 5
    assert dict(found.overview.status_counts)["completed"] == 4
    assert found.overview.scope == "All projects"
    assert found.fetched_at == FETCHED
    assert found.project_names == {"proj_a": "Lumen Banking"}


def test_one_project_named_as_kept_or_by_its_id(cache: LocalCache) -> None:
    keep(cache)
    mine = kept_overview(cache, "proj_a")
    assert mine is not None and mine.kept == 4 and mine.overview.scope == "Lumen Banking"
    assert mine.fetched_at == FETCHED  # its own view was never kept: the one of all projects
    other = kept_overview(cache, "proj_b")
    assert other is not None and other.kept == 1 and other.overview.scope == "proj_b"
    failed = kept_overview(cache, "proj_a", status="failed")
    assert failed is not None and failed.kept == 1


def test_nothing_kept_is_none(cache: LocalCache) -> None:
    assert kept_overview(cache, None) is None
    keep(cache)
    assert kept_overview(cache, "proj_never_seen") is None


def test_the_scopes_own_view_gives_its_time_and_since_and_status_filter_what_was_kept(
    tmp_path: Path,
) -> None:
    now = [FETCHED.timestamp()]
    kept = LocalCache(
        CacheScope("http://127.0.0.1:1"), path=tmp_path / "d.db", clock=lambda: now[0]
    )
    try:
        keep(kept)  # all projects, fetched at FETCHED
        now[0] += 3600
        mine = [analysis(n, "proj_a", "completed") for n in range(3)]
        kept.store_page("proj_a", None, mine, total=3, done=True, first=True)
        kept.flush()
        now[0] += 3600
        failed = [analysis(3, "proj_a", "failed")]
        kept.store_page("proj_a", "failed", failed, total=1, done=True, first=True)
        kept.flush()
        one = kept_overview(kept, "proj_a")
        assert one is not None and one.fetched_at == FETCHED + timedelta(hours=1)
        assert one.overview.projects is None  # one project: no table of projects
        only_failed = kept_overview(kept, "proj_a", status="failed")
        assert only_failed is not None
        assert only_failed.fetched_at == FETCHED + timedelta(hours=2)
        every = kept_overview(kept, None)
        assert every is not None and every.overview.projects is not None
        recent = kept_overview(kept, "proj_a", since=datetime(2026, 10, 3, tzinfo=UTC))
        assert recent is not None and recent.kept == 4 and recent.overview.seen == 2
        assert recent.overview.expected is None  # the cache keeps no listing's total
    finally:
        kept.close()


def test_an_invalid_row_kept_is_no_match_for_a_status(cache: LocalCache) -> None:
    keep(cache)
    bad = parse_item({"id": "ana_bad", "score": "high"})
    page = [bad, analysis(9, "proj_c", "failed")]
    cache.store_page(None, "failed", page, total=2, done=True, first=True)
    cache.flush()
    assert any(not hasattr(item, "status") for item in cache.analyses(None))
    failed = kept_overview(cache, None, status="failed")
    assert failed is not None and failed.kept == 2  # proj_a's and proj_c's

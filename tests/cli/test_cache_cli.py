"""The local cache from the command line: `cache info`, `cache clear`, and `--offline`
listings and reports that send no request at all (the reference server's log says so)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from tests.conftest import Invoke

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


def keep_first_pages(server: DemoServer, pages: int = 2) -> None:
    """What the app would have kept after showing the unfiltered view of all projects."""

    async def fetch() -> None:
        cache = LocalCache(CacheScope(server.base_url.rstrip("/")))
        client = ScreenAnalysisClient(server.base_url, SecretStr(server.api_key))
        async with client, client.iter_pages(limit=50) as walk:
            number = 0
            async for page in walk:
                cache.store_page(
                    None, None, page.items, total=page.total, done=False, first=number == 0
                )
                number += 1
                if number == pages:
                    break
        await asyncio.to_thread(cache.close)

    asyncio.run(fetch())


@pytest.fixture
def offline_env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> DemoServer:
    """A server whose first pages are kept, then forgotten by its request log."""
    keep_first_pages(fresh_demo_server)
    fresh_demo_server.request_log.clear()
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", fresh_demo_server.base_url)
    monkeypatch.delenv("SCREEN_ANALYSIS_API_KEY", raising=False)  # offline needs no key
    return fresh_demo_server


def test_an_offline_listing_reads_the_cache_only(offline_env: DemoServer, invoke: Invoke) -> None:
    result = invoke("analyses", "list", "--offline", "--limit", "5", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 5 and all(row["id"].startswith("ana_") for row in rows)
    assert "From the local cache: 5 analyses of 300" in result.stderr
    assert "data from" in result.stderr
    failed = invoke("analyses", "list", "--offline", "--status", "failed", "--all")
    assert failed.exit_code == 0 and "among the kept rows of every status" in failed.stderr
    assert offline_env.request_log == [], "no request at all"


def test_an_offline_report_says_where_its_data_is_from(
    offline_env: DemoServer, invoke: Invoke, tmp_path: Path
) -> None:
    out = tmp_path / "r.md"
    result = invoke("report", "--offline", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert "From the local cache, data from" in text and "100 analyses" in text
    assert offline_env.request_log == []


def test_nothing_kept_is_one_line_and_exit_4(offline_env: DemoServer, invoke: Invoke) -> None:
    result = invoke("analyses", "list", "--offline", "--project-id", "proj_never_seen")
    assert result.exit_code == 4
    assert result.stderr.count("Error:") == 1 and "holds nothing" in result.stderr
    off = invoke("--no-cache", "analyses", "list", "--offline")
    assert off.exit_code == 2 and "which is off" in off.stderr


def test_info_and_clear(offline_env: DemoServer, invoke: Invoke) -> None:
    info = invoke("cache", "info", "--format", "json")
    assert info.exit_code == 0
    (scope,) = json.loads(info.stdout)["scopes"]
    assert scope["base_url"] == offline_env.base_url and scope["analyses"] == 100
    assert "1 view, 100 analyses" in invoke("cache", "info").stdout
    cleared = invoke("cache", "clear")
    assert cleared.exit_code == 0 and "100 analyses" in cleared.stdout
    assert json.loads(invoke("cache", "info", "--format", "json").stdout)["scopes"] == []
    assert invoke("analyses", "list", "--offline").exit_code == 4
    keep_first_pages(offline_env, pages=1)
    assert invoke("cache", "clear", "--all").exit_code == 0
    assert "Nothing kept yet." in invoke("cache", "info").stdout

"""The local cache from the command line: `cache info`, `cache clear`, and `--offline`
listings and reports that send no request at all (the reference server's log says so)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from click.testing import Result
from tests.conftest import Invoke

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.cache import CacheScope, LocalCache, default_cache_path
from screen_analysis.config import default_config_path
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


def keep_first_pages(server: DemoServer, pages: int = 2, *scopes: CacheScope) -> None:
    """What the app would have kept after showing the unfiltered view of all projects (for
    each of `scopes`; none: the server's, without a profile)."""
    for scope in scopes or (CacheScope(server.base_url.rstrip("/")),):
        _keep(server, pages, scope)


def _keep(server: DemoServer, pages: int, scope: CacheScope) -> None:
    async def fetch() -> None:
        cache = LocalCache(scope)
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
    failed = invoke("analyses", "list", "--offline", "--status", "pending", "--all")
    assert failed.exit_code == 0
    said = re.search(
        r"From the local cache: (\d+) pending analys[ie]s among the (\d+) kept", failed.stderr
    )
    assert said is not None and int(said[1]) == len(failed.stdout.splitlines()) - 1
    assert "of all statuses (the pending list itself was not kept), data from" in failed.stderr
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


PROD = "https://prod.example.test"


@pytest.fixture
def two_profiles(fresh_demo_server: DemoServer) -> DemoServer:
    """A config with no top-level server and two profiles, each with its own server, and
    a view of each kept; the server's request log then emptied."""
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'[profiles.staging]\nbase_url = "{fresh_demo_server.base_url}"\n'
        f'[profiles.prod]\nbase_url = "{PROD}"\n'
    )
    keep_first_pages(
        fresh_demo_server,
        1,
        CacheScope(fresh_demo_server.base_url, "staging"),
        CacheScope(PROD, "prod"),
    )
    fresh_demo_server.request_log.clear()
    return fresh_demo_server


def kept(invoke: Invoke) -> dict[str, int]:
    """Analyses kept per profile, as `cache info --format json` lists them."""
    info = invoke("cache", "info", "--format", "json")
    assert info.exit_code == 0, info.stderr
    return {s["profile"]: s["analyses"] for s in json.loads(info.stdout)["scopes"]}


def test_clear_profile_clears_that_profiles_own_server(
    two_profiles: DemoServer, invoke: Invoke
) -> None:
    assert kept(invoke) == {"prod": 50, "staging": 50}
    # With another profile in use, the named one's server is still its own.
    cleared = invoke("-P", "prod", "cache", "clear", "--profile", "staging")
    assert cleared.exit_code == 0, cleared.stderr
    assert cleared.stdout == (
        f"Cleared {two_profiles.base_url} (profile staging): 1 view, 50 analyses.\n"
    )
    assert kept(invoke) == {"prod": 50}
    again = invoke("cache", "clear", "--profile", "staging")  # no top-level server at all
    assert again.exit_code == 0, again.stderr
    assert "Nothing was kept for" in again.stdout and "(profile staging)" in again.stdout
    prod = invoke("cache", "clear", "--profile", "prod")
    assert prod.exit_code == 0 and f"Cleared {PROD} (profile prod): 1 view" in prod.stdout
    assert kept(invoke) == {}
    assert two_profiles.request_log == [], "clearing asks no server"


def test_clear_an_unknown_profile_is_one_line_and_the_usage_code(
    two_profiles: DemoServer, invoke: Invoke
) -> None:
    for args in (
        ("cache", "clear", "--profile", "nope"),
        ("-P", "prod", "cache", "clear", "--profile", "nope"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith("Error: unknown profile 'nope'") and "staging" in line
        assert result.stdout == ""
    assert kept(invoke) == {"prod": 50, "staging": 50}, "nothing cleared"


def one_warning(result: Result) -> str:
    """The one warning line on stderr."""
    (line,) = result.stderr.splitlines()
    assert line.startswith("Warning: ") and "Traceback" not in result.stderr
    return line


@pytest.mark.parametrize(
    "damage",
    [b"", b"not a database at all" * 50, b"SQLite format 3\x00" + b"\xff" * 4000],
    ids=["empty", "garbage", "bad-header"],
)
def test_info_and_clear_on_a_damaged_file_start_fresh(invoke: Invoke, damage: bytes) -> None:
    path = default_cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(damage)
    bad = path.with_name(path.name + ".bad")
    info = invoke("cache", "info")
    assert info.exit_code == 0, info.stderr
    assert "Nothing kept yet." in info.stdout
    if damage:
        assert "set aside (cache.sqlite3.bad)" in one_warning(info)
        assert bad.read_bytes() == damage, "set aside as it was"
    else:
        assert info.stderr == "" and not bad.exists()  # an empty file is a new cache
    again = invoke("cache", "info", "--format", "json")
    assert again.exit_code == 0 and again.stderr == "", "one warning, once"
    assert json.loads(again.stdout)["scopes"] == []
    path.write_bytes(damage or b"\x00" * 100)
    cleared = invoke("cache", "clear", "--all")
    assert cleared.exit_code == 0, cleared.stderr
    assert "set aside" in one_warning(cleared)
    assert cleared.stdout == "Nothing was kept: nothing to clear.\n"


def test_offline_on_a_damaged_file_is_a_warning_then_nothing_kept(
    fresh_demo_server: DemoServer, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", fresh_demo_server.base_url)
    path = default_cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database at all" * 50)
    result = invoke("analyses", "list", "--offline")
    assert result.exit_code == 4
    warning, error = result.stderr.splitlines()
    assert warning.startswith("Warning: ") and "set aside" in warning
    assert error.startswith("Error: ") and "holds nothing" in error
    assert "Nothing kept yet." in invoke("cache", "info").stdout
    assert fresh_demo_server.request_log == []

"""Exit codes scripts rely on, against the reference server and a scripted one."""

from __future__ import annotations

import pytest
from tests.support.scripted_server import Reply, ScriptedServer, analysis, page

KEY = "sk-test-not-a-real-key-0000"


def _one_error_line(result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.stderr
    return lines[0]


def test_no_server_configured_is_usage(invoke):
    result = invoke("analyses", "list")
    assert result.exit_code == 2
    line = _one_error_line(result)
    assert "--base-url" in line and "--demo" in line


def test_missing_key_names_login_and_env(demo_server, monkeypatch, invoke):
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", demo_server.base_url)
    result = invoke("analyses", "list")
    assert result.exit_code == 3
    line = _one_error_line(result)
    assert "screen-analysis login" in line and "SCREEN_ANALYSIS_API_KEY" in line


def test_rejected_key_is_auth(demo_server, against, invoke):
    against(demo_server.base_url, "sk-wrong-key-not-real")
    result = invoke("analyses", "list")
    assert result.exit_code == 3
    _one_error_line(result)


def test_unknown_project_is_not_found(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    result = invoke("projects", "get", "proj_does_not_exist")
    assert result.exit_code == 4
    _one_error_line(result)


def test_server_errors_after_retries_exit_5(fresh_demo_server, against, invoke):
    server = fresh_demo_server
    server.faults.error_rate = 1.0
    against(server.base_url, server.api_key)
    result = invoke("analyses", "list")
    assert result.exit_code == 5
    _one_error_line(result)
    assert len(server.request_log) == 3  # the first try and two retries


def test_unreachable_server_exits_5(against, invoke):
    against("http://127.0.0.1:9", KEY)
    result = invoke("analyses", "list")
    assert result.exit_code == 5
    _one_error_line(result)


@pytest.mark.parametrize(
    ("name", "script"),
    [
        (
            "cursor loop A→B→A",
            lambda path, q: page(
                [analysis(len(q.get("after", "")))],
                {"": "A", "A": "B", "B": "A"}[q.get("after", "")],
                10,
            ),
        ),
        (
            "truncated body",
            lambda path, q: Reply(200, b'{"data": [', {"Content-Type": "application/json"}, 500),
        ),
        (
            "not json",
            lambda path, q: Reply(
                200, b"<html><title>Gateway</title></html>", {"Content-Type": "text/html"}
            ),
        ),
        ("wrong shape", lambda path, q: Reply.json({"items": []})),
        ("empty 204", lambda path, q: Reply(204)),
    ],
)
def test_broken_responses_exit_5_in_one_line(name, script, against, invoke):
    with ScriptedServer(script) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--all", "--format", "jsonl")
    assert result.exit_code == 5, (name, result.stderr)
    line = _one_error_line(result)
    assert "/v1/analyses" in line
    assert KEY not in result.stdout + result.stderr


def test_scripted_server_pages_end_to_end(against, invoke):
    pages = {"": (["1", "2"], "c1"), "c1": (["3"], None)}

    def script(path, q):
        ids, cursor = pages[q.get("after", "")]
        return page([analysis(int(i)) for i in ids], cursor, 3)

    with ScriptedServer(script) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--all", "--format", "jsonl")
        assert server.seen[0].headers["Authorization"] == f"Bearer {KEY}"
        assert server.seen[0].headers["User-Agent"].startswith("screen-analysis/")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 3


def test_debug_traceback_redacts_the_key(against, invoke):
    with ScriptedServer(lambda path, q: Reply.json({"detail": f"bad key {KEY}"}, 500)) as server:
        against(server.base_url, KEY)
        result = invoke("--debug", "analyses", "list")
    assert result.exit_code == 5
    assert KEY not in result.stderr

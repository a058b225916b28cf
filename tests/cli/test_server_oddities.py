"""`analyses list` and `projects get` against answers the document allows but the reference
server never sends: a total that is no count, empty pages that say more exist, cursors
with spaces, failures part-way through `--format json`, an id other than the one asked."""

from __future__ import annotations

import json
import subprocess

import pytest
from tests.support.scripted_server import Reply, ScriptedServer, analysis, page

from screen_analysis.api.pagination import MAX_EMPTY_PAGES

KEY = "sk-test-oddities-0000000000"


def pages_of(pages: dict[str, tuple[list[int], str | None, object]]) -> ScriptedServer:
    """A server serving `pages`: by `after` (\"\" the first), the ids, the next cursor and the
    total (sent as it is; `...` leaves it out)."""

    def script(path: str, q: dict[str, str]) -> Reply:
        ids, cursor, total = pages[q.get("after", "")]
        body: dict[str, object] = {"data": [analysis(i) for i in ids], "next_cursor": cursor}
        if total is not ...:
            body["total"] = total
        return Reply.json(body)

    return ScriptedServer(script)


@pytest.mark.parametrize("fmt", ["table", "jsonl", "json", "csv"])
def test_a_negative_total_streams_every_page_with_one_warning(fmt, against, invoke):
    pages = {"": ([1, 2], "c1", -1), "c1": ([3], "c2", -7), "c2": ([4], None, -1)}
    with pages_of(pages) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--all", "--format", fmt)
    assert result.exit_code == 0, result.stderr
    for n in (1, 2, 3, 4):
        assert f"ana_{n:04d}" in result.stdout
    assert result.stderr.count("Warning:") == 1
    assert "the server's total is negative (-1): the total is shown as unknown (?)" in (
        result.stderr
    )
    if fmt == "json":
        assert len(json.loads(result.stdout)) == 4


@pytest.mark.parametrize("total", [..., -3, "many", 2.5, None])
def test_a_total_that_is_no_count_shows_as_unknown_in_the_summary(total, against, invoke):
    with pages_of({"": ([1, 2], "next one", total)}) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--limit", "2")
    assert result.exit_code == 0, result.stderr
    assert "Showing 2 of ?. Next page: --after 'next one'" in result.stderr
    assert result.stderr.count("Warning:") == 1


def test_the_next_page_hint_is_one_shell_word(against, invoke):
    cursor = "quis consectetur Lorem 'x' $HOME"
    with pages_of({"": ([1], cursor, 5)}) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--limit", "1")
    hint = result.stderr.rsplit("--after ", 1)[1].strip()
    echoed = subprocess.run(
        ["bash", "-c", f"printf %s {hint}"], capture_output=True, text=True, check=True
    )
    assert echoed.stdout == cursor


def test_a_cursor_with_control_characters_reaches_no_terminal_and_pastes_back(against, invoke):
    cursor = "c\x1b]0;title\x07 2"
    with pages_of({"": ([1], cursor, 5)}) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--limit", "1")
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    hint = result.stderr.rsplit("--after ", 1)[1].strip()
    echoed = subprocess.run(["bash", "-c", f"printf %s {hint}"], capture_output=True, check=True)
    assert echoed.stdout == cursor.encode()


def test_an_empty_page_that_says_more_exist_is_read_on_to_the_rows(against, invoke):
    pages = {"": ([], "c1", 9), "c1": ([], "c2", 9), "c2": ([1, 2], "c3", 9)}
    with pages_of(pages) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list")
    assert result.exit_code == 0, result.stderr
    assert "No analyses match" not in result.stderr
    assert "ana_0001" in result.stdout and "ana_0002" in result.stdout
    assert "Showing 2 of 9. Next page: --after c3" in result.stderr


def test_five_empty_pages_with_fresh_cursors_are_no_loop(against, invoke):
    pages = {"": ([], "c1", 1)} | {f"c{i}": ([], f"c{i + 1}", 1) for i in range(1, 5)}
    pages["c5"] = ([1], None, 1)
    with pages_of(pages) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--all", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["ana_0001"]
    assert result.stderr == ""


@pytest.mark.parametrize("args", [(), ("--all", "--format", "json")])
def test_endless_empty_pages_stop_at_the_bound_saying_more_may_exist(args, against, invoke):
    def script(path: str, q: dict[str, str]) -> Reply:
        n = int(q.get("after", "c0")[1:])
        return page([analysis(1)] if n == 0 and args else [], f"c{n + 1}", 10**6)

    with ScriptedServer(script) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", *args)
        asked = len(server.seen)
    assert result.exit_code == 0, result.stderr
    assert "No analyses match" not in result.stderr
    last = f"c{asked}"
    assert (
        f"Warning: stopped after {MAX_EMPTY_PAGES} empty pages in a row; more may exist. "
        f"Next page: --after {last}"
    ) in result.stderr
    if args:
        assert [row["id"] for row in json.loads(result.stdout)] == ["ana_0001"]


def test_a_cursor_seen_twice_stays_a_loop(against, invoke):
    pages = {"": ([], "A", 1), "A": ([], "B", 1), "B": ([], "A", 1)}
    with pages_of(pages) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--all")
    assert result.exit_code == 5
    assert "pagination loop" in result.stderr
    assert "try again" not in result.stderr.lower()


def test_json_that_fails_part_way_is_closed_and_the_error_is_on_stderr(against, invoke):
    def script(path: str, q: dict[str, str]) -> Reply:
        if q.get("after") == "c1":
            return Reply(200, b"<html>maintenance</html>", {"Content-Type": "text/html"})
        return page([analysis(1), analysis(2)], "c1", 4)

    with ScriptedServer(script) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--all", "--format", "json")
    assert result.exit_code == 5
    assert [row["id"] for row in json.loads(result.stdout)] == ["ana_0001", "ana_0002"]
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "body is not JSON" in errors[0]
    assert "Try again" not in result.stderr


def test_json_that_fails_on_the_first_page_writes_nothing(against, invoke):
    with ScriptedServer(lambda path, q: Reply.json({"items": []})) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--all", "--format", "json")
    assert result.exit_code == 5
    assert result.stdout == ""


def test_a_retryable_failure_still_says_try_again(against, invoke):
    with ScriptedServer(lambda path, q: Reply(503, b"busy")) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--limit", "1")
    assert result.exit_code == 5
    assert "Try again later." in result.stderr


def test_rows_of_another_status_are_listed_and_counted(against, invoke):
    rows = [analysis(1), analysis(2, status="failed"), analysis(3, status="pending")]
    with ScriptedServer(lambda path, q: page(rows, None, 3)) as server:
        against(server.base_url, KEY)
        result = invoke("analyses", "list", "--status", "completed", "--format", "jsonl")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 3
    assert (
        "Warning: 2 analyses came with a status other than 'completed' (listed as sent)"
        in result.stderr
    )


def test_projects_get_says_when_another_id_came_back(against, invoke):
    project = {
        "id": "proj_b",
        "name": "Other",
        "analysis_count": 1,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
    }
    with ScriptedServer(lambda path, q: Reply.json(project)) as server:
        against(server.base_url, KEY)
        result = invoke("projects", "get", "proj_a")
    assert result.exit_code == 0
    assert result.stderr == (
        "Warning: asked for 'proj_a', the server sent 'proj_b'; shown as sent\n"
    )
    assert "proj_b" in result.stdout

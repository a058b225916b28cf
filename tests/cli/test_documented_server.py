"""`analyses list` and `projects get` over a scripted server serving answers generated from
the document's schema (docs/openapi-documented.json): a schema-valid answer never ends in
exit 5 (refused) or 1 (internal error), never a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import documented_schema as documented
from tests.support.scripted_server import Reply, ScriptedServer

KEY = "sk-test-documented-000000"
RUNS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ARGS = [
    ("analyses", "list"),
    ("analyses", "list", "--all", "--format", "jsonl"),
    ("analyses", "list", "--all", "--format", "json"),
    ("analyses", "list", "--max-items", "5", "--format", "csv"),
    ("analyses", "list", "--status", "completed", "--limit", "3"),
]


class Served:
    """What the server answers now: pages chained by their cursors, a project."""

    def __init__(self) -> None:
        self.pages: dict[str, dict[str, Any]] = {}
        self.project: dict[str, Any] = {}

    def __call__(self, path: str, q: dict[str, str]) -> Reply:
        if path.startswith("/v1/projects/"):
            return Reply.json(self.project)
        after = q.get("after", "")
        if after not in self.pages:  # the client sent a cursor the server never gave
            return Reply(418, b"unknown cursor")
        return Reply.json(self.pages[after])


@pytest.fixture(scope="module")
def served() -> Any:
    answers = Served()
    with ScriptedServer(answers) as server:
        yield answers, server


@st.composite
def chained_pages(draw: st.DrawFn) -> list[dict[str, Any]]:
    """1–5 generated pages chained by distinct cursors (the last one's null or empty)."""
    pages = draw(st.lists(documented.pages(), min_size=1, max_size=5))
    cursors = draw(
        st.lists(
            st.text(min_size=1, max_size=30), min_size=len(pages), max_size=len(pages), unique=True
        )
    )
    end = draw(st.sampled_from([None, ""]))
    return [
        {**page, "next_cursor": cursors[i + 1] if i + 1 < len(pages) else end, "_after": cursor}
        for i, (page, cursor) in enumerate(zip(pages, cursors, strict=True))
    ]


@RUNS
@given(pages=chained_pages(), args=st.sampled_from(ARGS))
def test_analyses_list_never_fails_on_a_documented_answer(
    served: Any, against: Any, invoke: Any, pages: list[dict[str, Any]], args: tuple[str, ...]
) -> None:
    answers, server = served
    answers.pages = {"" if i == 0 else page.pop("_after"): page for i, page in enumerate(pages)}
    pages[0].pop("_after", None)
    against(server.base_url, KEY)
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    if "json" in args:
        written = json.loads(result.stdout)
        assert isinstance(written, list)


@RUNS
@given(project=documented.projects())
def test_projects_get_never_fails_on_a_documented_project(
    served: Any, against: Any, invoke: Any, project: dict[str, Any]
) -> None:
    answers, server = served
    answers.project = project
    against(server.base_url, KEY)
    for fmt in ("table", "json"):
        result = invoke("projects", "get", "proj_asked", "--format", fmt)
        assert result.exit_code == 0, result.stderr
        assert ("Warning: asked for 'proj_asked'" in result.stderr) == (
            project["id"] != "proj_asked"
        )

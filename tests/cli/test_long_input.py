"""Error lines repeat at most about 80 characters of what the user typed, cut with an
ellipsis, however long the value was (against the reference server)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from tests.conftest import Invoke

from screen_analysis.demo.runner import DemoServer
from screen_analysis.safe_text import QUOTE_LIMIT, shorten, shorten_runs

HUGE = "x" * 10_000


def quoted_at_most(stderr: str) -> None:
    """Each repetition of the value is at most QUOTE_LIMIT characters, and marked cut."""
    assert max(len(run) for run in re.findall("x+", stderr)) < QUOTE_LIMIT
    assert "x…" in stderr
    assert len(stderr) < 700


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("analyses", "list", "--after", HUGE), 2),
        (("analyses", "list", "--limit", HUGE), 2),
        (("analyses", "list", "--status", HUGE), 2),
        (("analyses", "list", "--format", HUGE), 2),
        (("projects", "get", HUGE), 4),
        (("--theme", HUGE, "serve"), 2),
    ],
)
def test_a_huge_value_is_quoted_short(
    invoke: Invoke,
    against: Callable[[str, str], None],
    demo_server: DemoServer,
    args: tuple[str, ...],
    code: int,
) -> None:
    against(demo_server.base_url, demo_server.api_key)
    result = invoke(*args)
    assert result.exit_code == code, result.stderr
    quoted_at_most(result.stderr)
    assert "Error:" in result.stderr


def test_the_request_named_in_an_error_keeps_its_separators(
    invoke: Invoke, against: Callable[[str, str], None], demo_server: DemoServer
) -> None:
    against(demo_server.base_url, demo_server.api_key)
    stderr = invoke("analyses", "list", "--after", HUGE).stderr
    assert stderr.startswith("Error: GET /v1/analyses?limit=20&after=xxx")
    assert "x…: bad request 400" in stderr


def test_shorten_cuts_with_an_ellipsis() -> None:
    assert shorten("abc") == "abc"
    assert shorten("a" * 100) == "a" * 79 + "…"
    assert shorten_runs("value 'short' stays") == "value 'short' stays"
    assert shorten_runs(f"got '{'y' * 200}'.") == f"got '{'y' * 76}…'."
    assert shorten_runs(f"/v1/p/{'z' * 100}?a=1") == f"/v1/p/{'z' * 79}…?a=1"

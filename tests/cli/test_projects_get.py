"""`projects get`: the values in one column whatever the project, weights a line each."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

from click.testing import Result

from screen_analysis.demo.runner import DemoServer
from screen_analysis.words import utc_time

Invoke = Callable[..., Result]


def value_column(text: str) -> set[int]:
    """Where the values start on each `Label:  value` line."""
    starts = set()
    for line in text.splitlines():
        if not line.startswith(" ") and ":" in line:
            label, _, rest = line.partition(":")
            starts.add(len(label) + 1 + len(rest) - len(rest.lstrip(" ")))
    return starts


def test_the_values_start_in_the_same_column_for_every_project(
    demo_server: DemoServer, against: Callable[[str, str], None], invoke: Invoke
) -> None:
    against(demo_server.base_url, demo_server.api_key)
    projects = demo_server.store.projects()
    with_weights = next(p for p in projects if p.default_criteria is not None)
    without = next(p for p in projects if p.default_criteria is None)
    shown = {}
    for project in (with_weights, without):
        result = invoke("projects", "get", project.id)
        assert result.exit_code == 0, result.stderr
        shown[project.id] = result.stdout
    columns = set.union(*(value_column(text) for text in shown.values()))
    assert len(columns) == 1, shown  # one column, in both projects
    weighted = shown[with_weights.id].splitlines()
    assert "Weights:" in weighted[-6] and "set by the project" in weighted[-6]
    weights = [line.split()[-1] for line in weighted[-5:]]
    assert all(line.startswith("  ") for line in weighted[-5:])
    assert len({len(w) for w in weights}) == 1 and len({len(line) for line in weighted[-5:]}) == 1
    assert shown[without.id].splitlines()[-1].endswith("platform defaults (the project sets none)")
    assert "default_criteria" not in "".join(shown.values())  # words, not the API's field


def test_its_times_read_as_every_time_written_down(
    demo_server: DemoServer, against: Callable[[str, str], None], invoke: Invoke
) -> None:
    """The project's times were ISO stamps ("2026-10-01T09:00:00+00:00"), unlike every other
    time the command line writes; they read as the rest: "2026-10-01 09:00 UTC"."""
    against(demo_server.base_url, demo_server.api_key)
    project = demo_server.store.projects()[0]
    sent = json.loads(invoke("projects", "get", project.id, "--format", "json").stdout)
    shown = invoke("projects", "get", project.id).stdout.splitlines()
    lines = dict(line.split(":", 1) for line in shown if not line.startswith(" "))
    for label, field in (("Created", "created_at"), ("Updated", "updated_at")):
        assert lines[label].strip() == utc_time(datetime.fromisoformat(sent[field]))

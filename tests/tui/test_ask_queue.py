"""Which projects the sidebar asks about, headless: the urgent ones at once, others as far
as a refresh allows, never more than a few at a time."""

from __future__ import annotations

from screen_analysis.tui.widgets.project_sidebar.asking import AskQueue


def ids(count: int, prefix: str = "proj_") -> list[str]:
    return [f"{prefix}{n}" for n in range(count)]


def test_a_refresh_allows_its_budget_and_no_more() -> None:
    queue = AskQueue(per_refresh=3, in_flight=10)
    queue.wait(ids(100))
    assert queue.take() == ["proj_0", "proj_1", "proj_2"]
    for project_id in ("proj_0", "proj_1", "proj_2"):
        queue.done(project_id)
    assert queue.take() == []  # the refresh is spent: the rest wait
    queue.refresh()
    assert queue.take() == ["proj_3", "proj_4", "proj_5"]


def test_what_the_reader_looks_at_comes_first_and_costs_no_budget() -> None:
    queue = AskQueue(per_refresh=2, in_flight=4)
    queue.wait(ids(10))
    queue.urge(["seen_a", "seen_b", "proj_7"])
    assert queue.take() == ["seen_a", "seen_b", "proj_7", "proj_0"]  # four at a time
    queue.done("seen_a")
    assert queue.take() == ["proj_1"]  # then the refresh's second
    queue.done("seen_b")
    assert queue.take() == []
    queue.urge(["seen_c"])
    queue.done("proj_7")
    assert queue.take() == ["seen_c"] and queue.asking == 3


def test_first_goes_before_those_waiting_and_a_project_is_asked_once_at_a_time() -> None:
    queue = AskQueue(per_refresh=5, in_flight=5)
    queue.wait(["proj_a", "proj_b"])
    queue.wait(["proj_failed"], first=True)
    assert queue.take() == ["proj_failed", "proj_a", "proj_b"]
    queue.wait(["proj_a"], first=True)  # its counts moved while it is being asked for
    assert queue.take() == []  # not twice at once: asked again once the answer is in
    queue.done("proj_a")
    assert queue.take() == ["proj_a"]
    queue.forget("proj_a")
    assert queue.asking == 2

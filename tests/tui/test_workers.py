"""A widget's named workers (tui/workers.py): work replaced before it started is dropped
whole — never run, and no coroutine of it left behind unawaited."""

from __future__ import annotations

import gc
import warnings
from functools import partial

from textual.app import App

from screen_analysis.tui.workers import Workers


async def start(started: list[int], number: int) -> None:
    """Work that says it started."""
    started.append(number)


async def test_work_replaced_before_it_started_never_runs_and_leaves_nothing_unawaited() -> None:
    started: list[int] = []
    page = partial(start, started)
    app: App[None] = App()
    async with app.run_test():
        workers = Workers(app.screen)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            workers.run(partial(page, 1), "page")
            last = workers.run(partial(page, 2), "page")  # in place of the first
            await last.wait()
            gc.collect()
        assert started == [2]
        assert not workers.busy("page")
    unawaited = [w for w in caught if "never awaited" in str(w.message)]
    assert not unawaited, unawaited


async def test_work_beside_another_runs_too() -> None:
    started: list[int] = []
    page = partial(start, started)
    app: App[None] = App()
    async with app.run_test():
        workers = Workers(app.screen)
        first = workers.run(partial(page, 1), "page", exclusive=False)
        second = workers.run(partial(page, 2), "page", exclusive=False)
        await first.wait()
        await second.wait()
    assert sorted(started) == [1, 2]

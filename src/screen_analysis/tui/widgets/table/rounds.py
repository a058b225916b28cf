"""The analyses pane's auto-refresh rounds: planned from the rows on screen, one at a time
on the timer (`RefreshTimer`), run in the pane's "auto-refresh" worker, and applied to its
table (arrivals on top, changes in place).

A part the pane composes, as `RestLoader` is: what a round finds that concerns the pane
beyond its table (the server is gone, more arrived than a page holds, the rows were
confirmed) goes back through `RoundHooks`; what the other widgets need is posted as the
pane's messages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from textual.widget import Widget

from screen_analysis.tui.feed import PageSource, RefreshJob, RefreshSchedule, unreachable
from screen_analysis.tui.widgets.table.live import RefreshTimer, apply_round
from screen_analysis.tui.widgets.table.messages import Failed
from screen_analysis.tui.widgets.table.table import AnalysesTable

GROUP = "auto-refresh"
CURSOR_REFUSED = "refresh: old page cursor refused, r reloads"


class RoundHooks(Protocol):
    """What a round tells the pane it runs for."""

    def confirmed(self) -> None:
        """The server answered: the rows on screen are as of now."""

    def went_offline(self) -> None:
        """The server cannot be reached."""

    def reload(self) -> None:
        """More arrived than a page holds, or every row left the view: read it again."""

    def show_state(self, label: str) -> None:
        """Say the auto-refresh state in the status line."""

    def update_status(self) -> None:
        """Say again how paging stands."""

    @property
    def ever_loaded(self) -> bool:
        """Whether a page was ever shown (a failure then says so)."""


class RefreshRounds:
    """Auto-refresh rounds of `widget`'s view, on `schedule`."""

    def __init__(
        self,
        widget: Widget,
        source: PageSource,
        schedule: RefreshSchedule,
        table: Callable[[], AnalysesTable],
        hooks: RoundHooks,
    ) -> None:
        """Refresh `source`'s view on `schedule` in `widget`'s worker, into its `table`."""
        self._widget = widget
        self._source = source
        self._table = table
        self._hooks = hooks
        self.timer = RefreshTimer(schedule, widget.set_timer, self._start, hooks.show_state)

    def _start(self) -> bool:
        source = self._source
        if source.loading or not source.started:
            return False  # the view itself is loading: its answer is fresh
        table = self._table()
        visible = [table.items[i] for i in table.visible_rows]
        job = source.plan_refresh(visible)
        self._widget.run_worker(self._run(job), group=GROUP, exclusive=True, exit_on_error=False)
        return True

    async def _run(self, job: RefreshJob) -> None:
        rounds, hooks = self.timer, self._hooks
        try:
            result = await self._source.run_refresh(job)
        except asyncio.CancelledError:
            rounds.cancelled()
            raise
        except Exception as error:
            rounds.ended(ok=False)
            if unreachable(error):
                hooks.went_offline()
            else:
                self._widget.post_message(Failed(error, lambda: None, "", hooks.ever_loaded))
            return
        hooks.confirmed()
        refreshed = self._source.apply_refresh(result)
        note = ""
        if refreshed is not None:
            emptied = result.total == 0 and not result.top and bool(self._table().items)
            if refreshed.gap or emptied:  # read the view again (emptied: it says so)
                hooks.reload()
            for message in apply_round(self._table(), result, refreshed):
                self._widget.post_message(message)
            hooks.update_status()
            if refreshed.cursor_refused:
                note = CURSOR_REFUSED
        rounds.ended(ok=True, note=note)

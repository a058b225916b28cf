"""The analyses pane's auto-refresh rounds: planned from the rows on screen, one at a time
on the timer (`RefreshTimer`), run in a named worker of the pane, and handed back to it.

A part the pane composes: it runs the rounds and keeps the timer's books; what a round
brings (the view refreshed, the server gone, another failure) goes back through
`RoundHooks`, and the pane applies it to its table and tells the other widgets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial
from typing import Protocol

from screen_analysis.api.models import AnalysisItem
from screen_analysis.browse import Refreshed, RefreshJob, RefreshSchedule
from screen_analysis.tui.widgets.table.live import RefreshTimer, SetTimer
from screen_analysis.tui.widgets.table.source import PageSource
from screen_analysis.tui.workers import Workers

GROUP = "auto-refresh"
CURSOR_REFUSED = "refresh: old page cursor refused, r reloads"


class RoundHooks(Protocol):
    """What a round asks of, and tells, the pane it runs for."""

    def visible_rows(self) -> Sequence[AnalysisItem]:
        """The rows on screen (their in-flight ones are asked again)."""

    def confirmed(self) -> None:
        """The server answered: the rows on screen are as of now."""

    def refreshed(self, refreshed: Refreshed) -> None:
        """What the round changes on screen, to apply."""

    def round_failed(self, error: Exception) -> None:
        """The round failed (the server may be gone)."""

    def show_state(self, label: str) -> None:
        """Say the auto-refresh state in the status line."""


class RefreshRounds:
    """Auto-refresh rounds of `source`'s view, on `schedule`."""

    def __init__(
        self,
        source: PageSource,
        schedule: RefreshSchedule,
        hooks: RoundHooks,
        set_timer: SetTimer,
        workers: Workers,
    ) -> None:
        """Refresh `source`'s view on `schedule` (timers from `set_timer`, each round in
        one of `workers`); what rounds bring goes to `hooks`."""
        self._source = source
        self._hooks = hooks
        self._workers = workers
        self.timer = RefreshTimer(schedule, set_timer, self._start, hooks.show_state)

    def _start(self) -> bool:
        source = self._source
        if source.loading or not source.started:
            return False  # the view itself is loading: its answer is fresh
        job = source.plan_refresh(self._hooks.visible_rows())
        self._workers.run(partial(self._round, job), GROUP)
        return True

    async def _round(self, job: RefreshJob) -> None:
        rounds, hooks = self.timer, self._hooks
        try:
            refreshed = await self._source.refresh(job)
        except asyncio.CancelledError:
            rounds.cancelled()
            raise
        except Exception as error:
            rounds.ended(ok=False)
            hooks.round_failed(error)
            return
        hooks.confirmed()
        note = ""
        if refreshed is not None:
            hooks.refreshed(refreshed)
            if refreshed.cursor_refused:
                note = CURSOR_REFUSED
        rounds.ended(ok=True, note=note)

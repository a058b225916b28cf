"""The main screen's auto-refresh: the timer, the schedule, and holding it while the
terminal is unfocused or the app suspended.

A part the screen composes (`MainScreen.refresher`). Each round asks the feed for at most
two pages (its plan); the answer comes back to the screen as `RefreshLoaded` or
`RefreshFailed`, which applies it and calls `ended`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.timer import Timer

from screen_analysis.tui.feed import RefreshJob, RefreshResult, RefreshSchedule
from screen_analysis.tui.screens import main_outcomes as out

if TYPE_CHECKING:
    from screen_analysis.tui.screens.main import MainScreen


class AutoRefresh:
    """Runs the feed's refresh rounds on a timer, one at a time."""

    def __init__(self, screen: MainScreen, schedule: RefreshSchedule) -> None:
        self._screen = screen
        self.schedule = schedule
        self.running = False
        self._timer: Timer | None = None
        self._last = 0.0

    def start(self, app: App[Any]) -> None:
        """Follow the terminal's focus and the app's suspension; arm the timer."""
        screen = self._screen
        screen.watch(app, "app_focus", lambda focused: self.hold("focus", not focused), init=False)
        app.app_suspend_signal.subscribe(screen, lambda _app: self.hold("suspended", True))
        app.app_resume_signal.subscribe(screen, lambda _app: self.hold("suspended", False))
        self._arm()

    def toggle(self) -> None:
        """Pause or resume (the user's `p`)."""
        self.schedule.toggle()
        self._arm()

    def hold(self, reason: str, held: bool) -> None:
        """Hold refreshes for `reason`; once released, refresh at once when one fell due."""
        if not self.schedule.hold(reason, held):
            return
        due = time.monotonic() - self._last >= self.schedule.interval_s
        if self.schedule.enabled and due:
            self.refresh_now()
        self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.schedule.enabled and not self.running:
            self._timer = self._screen.set_timer(self.schedule.interval_s, self._due)
        self._screen.status_line.refresh_state = self.schedule.label()

    def _due(self) -> None:
        self._timer = None
        if not self.schedule.enabled or self.running:
            return
        feed = self._screen.feed
        if feed.loading or not feed.started:
            self._arm()  # the view itself is loading: its answer is fresh
            return
        self.refresh_now()

    def refresh_now(self) -> None:
        """Start one round now (unless one is under way)."""
        if self.running:
            return
        screen = self._screen
        table = screen.table
        self.run(screen.feed.plan_refresh([table.items[i] for i in table.visible_rows]))

    def run(self, job: RefreshJob) -> None:
        """Run one round as planned by `job` in the "auto-refresh" worker group."""
        screen = self._screen
        self._last = time.monotonic()
        self.running = True
        work = out.report(
            screen,
            screen.feed.run_refresh(job),
            out.RefreshLoaded,
            lambda error: out.RefreshFailed(job, error),
        )
        screen.run_worker(work, group="auto-refresh", exit_on_error=False)

    def loaded(self, result: RefreshResult) -> None:
        """Apply a round's answer: arrivals on top (only while the top is shown), rows changed
        in place (they flash), totals and projects asked again only when something moved."""
        screen = self._screen
        table = screen.table
        top = table.items[0] if table.items else None
        refreshed = screen.feed.apply_refresh(result, top=top, at_top=table.scroll_y == 0)
        if refreshed is not None:
            table.prepend_items(refreshed.arrived)
            changed = set(table.update_items(refreshed.rows))
            item = table.highlighted_item
            if item is not None and item.id in changed:
                screen.show_detail(item)
            if changed or refreshed.arrived or refreshed.total_changed:
                screen.totals.load(fresh=True)
                moved = [*refreshed.arrived, *(i for i in refreshed.rows if i.id in changed)]
                screen.projects.refetch(moved)
            screen.totals.show()
            screen.update_status()
        self.ended(ok=True, cursor_refused=bool(refreshed and refreshed.cursor_refused))

    def ended(self, *, ok: bool, cursor_refused: bool = False) -> None:
        """A round's answer was applied: back off after a failure, re-arm."""
        self.running = False
        if ok:
            self.schedule.succeeded()
        else:
            self.schedule.failed()
        if self._screen.is_attached:
            self._arm()
        if cursor_refused:
            self._screen.status_line.refresh_state = "refresh: old page cursor refused, r reloads"

"""When the analyses pane refreshes its view: one timer, one round at a time, held while the
terminal is unfocused or the app suspended, backing off after failures.

The schedule (`browse.RefreshSchedule`) decides the interval; this part owns the timer of the
widget it was given and says the state in the status line. What a round does is the pane's.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message
from textual.timer import Timer

from screen_analysis.api.models import Analysis
from screen_analysis.browse import Refreshed, RefreshSchedule
from screen_analysis.tui.widgets.table.messages import Moved, TotalSeen
from screen_analysis.tui.widgets.table.table import AnalysesTable

SetTimer = Callable[[float, Callable[[], None]], Timer]


class RefreshTimer:
    """Arms the widget's timer for the next round and starts rounds through `start_round`
    (which returns False when the view cannot be refreshed now: the timer is armed again)."""

    def __init__(
        self,
        schedule: RefreshSchedule,
        set_timer: SetTimer,
        start_round: Callable[[], bool],
        show_state: Callable[[str], None],
    ) -> None:
        self.schedule = schedule
        self.running = False
        self._set_timer = set_timer
        self._start_round = start_round
        self._show_state = show_state
        self._timer: Timer | None = None
        self._due_at = 0.0  # on the schedule's clock: when the armed round starts

    @property
    def armed(self) -> bool:
        """Whether a round is waiting for its time."""
        return self._timer is not None

    @property
    def seconds_left(self) -> float | None:
        """Seconds until the armed round starts, on the schedule's clock (None: none is
        armed)."""
        if self._timer is None:
            return None
        return max(0.0, self._due_at - self.schedule.clock())

    def arm(self) -> None:
        """Wait for the next round (none while one runs or refreshes are off)."""
        self.stop()
        if self.schedule.enabled and not self.running:
            self._due_at = self.schedule.clock() + self.schedule.interval_s
            self._timer = self._set_timer(self.schedule.interval_s, self._due)
        self._show_state(self.schedule.label())

    def stop(self, label: str = "") -> None:
        """No round until armed again (`label`: what the status line says meanwhile)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if label:
            self._show_state(label)

    def toggle(self) -> None:
        """Pause or resume (the user's `p`)."""
        self.schedule.toggle()
        self.arm()

    def hold(self, reason: str, held: bool) -> None:
        """Hold (or release) rounds for `reason`; once released, one runs at once when it
        fell due meanwhile."""
        if not self.schedule.hold(reason, held):
            return
        if self.schedule.enabled and self.schedule.due:
            self.run_now()
        self.arm()

    def run_now(self) -> None:
        """Start a round now, unless one is under way."""
        if self.running:
            return
        if self._start_round():
            self.running = True
            self.schedule.started()
            self.stop()
        else:
            self.arm()

    def _due(self) -> None:
        self._timer = None
        if self.schedule.enabled:
            self.run_now()

    def cancelled(self) -> None:
        """A round was cancelled (its widget is going away): nothing is re-armed."""
        self.running = False

    def ended(self, *, ok: bool, note: str = "") -> None:
        """A round's answer was applied (or it failed): back off after a failure, re-arm;
        `note` replaces the state in the status line."""
        self.running = False
        if ok:
            self.schedule.succeeded()
        else:
            self.schedule.failed()
        self.arm()
        if note:
            self._show_state(note)


def apply_round(table: AnalysesTable, refreshed: Refreshed) -> list[Message]:
    """A round's rows on `table` (arrivals on top, changes in place); what the other widgets
    are told: that counts moved (with the projects of the rows that moved), the total
    (None when the server's was no count)."""
    key, total = refreshed.key, refreshed.total
    table.prepend_items(refreshed.arrived)
    changed = set(table.update_items(refreshed.rows))
    told: list[Message] = []
    if changed or refreshed.arrived or refreshed.total_changed:
        moved = [*refreshed.arrived, *(i for i in refreshed.rows if i.id in changed)]
        ids = {i.project_id for i in moved if isinstance(i, Analysis) and i.project_id}
        told.append(Moved(key, frozenset(ids)))
    if total is not None or refreshed.odd_total is not None:
        told.append(TotalSeen(key, total, refreshed.spare))
    return told

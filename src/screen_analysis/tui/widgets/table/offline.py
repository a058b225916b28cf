"""What the analyses pane shows when its rows are not fresh from the server: rows from the
local cache while the server is asked ("from 10:42 · refreshing…"), or offline, the cache's
rows while the server cannot be reached ("offline — data from 10:42 · retrying in 30 s"),
with retries that back off and wait while the terminal is unfocused.

A part the pane composes; the retries run on their own `RefreshTimer`, whose rounds the pane
runs (a reload of the view). The status line's words come from here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from screen_analysis.api.errors import APIConnectionError
from screen_analysis.tui.feed import RefreshSchedule
from screen_analysis.tui.feed.schedule import HELD_WORDS
from screen_analysis.tui.widgets.table.live import RefreshTimer, SetTimer

RETRY_S = 30.0  # the first retry while offline; then twice as long each time
RETRY_CAP_S = 300.0


def unreachable(error: BaseException) -> bool:
    """Whether `error` means the server cannot be reached now (refused, DNS, timeout, TLS):
    the cases where the cache stands in. A refused key never is, nor an answer that began
    and broke off (cut short, reset, too slow): that server is there, and says why."""
    return isinstance(error, APIConnectionError) and not error.answered


def data_time(when: datetime, now: datetime) -> str:
    """ "10:42" for data from today (local time), else "Nov 22 10:42"."""
    local = when.astimezone()
    if now.astimezone().date() == local.date():
        return local.strftime("%H:%M")
    return local.strftime("%b %d %H:%M")


def wait_words(seconds: float) -> str:
    """ "30 s", "2 min"."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{timedelta(seconds=round(seconds)).seconds // 60} min"


class OfflineWatch:
    """The state of the pane's data when it is not fresh from the server, and the retries."""

    def __init__(
        self,
        set_timer: SetTimer,
        retry: Callable[[], bool],
        show: Callable[[], None],
        clock: Callable[[], datetime],
        schedule_clock: Callable[[], float],
    ) -> None:
        """`retry` starts a reload of the view (False: not now); `show` says the state again;
        `clock` tells "now" for the words, `schedule_clock` the retries' time."""
        schedule = RefreshSchedule(RETRY_S, cap_s=RETRY_CAP_S, clock=schedule_clock)
        self._retries = RefreshTimer(schedule, set_timer, retry, lambda _label: show())
        self._clock = clock
        self.data_time: datetime | None = None  # when the rows on screen were fetched
        self.offline = False
        self.note = ""  # what the offline rows are ("37 cached with this status")

    @property
    def stale(self) -> bool:
        """Whether the rows on screen are not (yet) confirmed by the server."""
        return self.data_time is not None

    @property
    def retrying(self) -> bool:
        """Whether a retry round is under way."""
        return self._retries.running

    def showing_cached(self, fetched_at: datetime, note: str = "") -> None:
        """Rows from the cache are on screen (the server is asked, or cannot be)."""
        self.data_time = fetched_at
        self.note = note

    def showing_cached_none(self) -> None:
        """Another view opens: nothing of the cache is on screen (yet)."""
        self.data_time = None
        self.note = ""

    def confirmed(self) -> None:
        """The server answered the view: the rows are fresh; retries stop."""
        was_offline = self.offline
        self.data_time = None
        self.note = ""
        self.offline = False
        if was_offline:
            self._retries.ended(ok=True)
        self._retries.stop()
        self._retries.schedule.succeeded()

    def went_offline(self, fetched_at: datetime | None) -> None:
        """The server cannot be reached: keep the rows, retry later (backing off when this
        was a retry)."""
        if fetched_at is not None and self.data_time is None:
            self.data_time = fetched_at
        if self.offline:
            self._retries.ended(ok=False)
        else:
            self.offline = True
            self._retries.arm()

    def retry_now(self) -> None:
        """Retry at once (the user's `r`)."""
        self._retries.run_now()

    def hold(self, reason: str, held: bool) -> None:
        """Retries wait while the terminal is unfocused or the app suspended."""
        self._retries.hold(reason, held)

    def words(self) -> tuple[str, str] | None:
        """(state, text) for the status line, or None when the rows are fresh."""
        if self.data_time is None:
            return None
        since = data_time(self.data_time, self._clock())
        if not self.offline:
            return "cached", f"from {since} · refreshing…"
        schedule = self._retries.schedule
        if self._retries.running:
            then = "retrying now…"
        elif schedule.held:
            then = "retries wait (" + HELD_WORDS.get(min(schedule.held), min(schedule.held)) + ")"
        else:
            then = f"retrying in {wait_words(schedule.interval_s)}"
        note = f", {self.note}" if self.note else ""
        return "offline", f"offline — data from {since}{note} · {then}"

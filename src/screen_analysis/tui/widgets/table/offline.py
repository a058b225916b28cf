"""What the analyses pane shows when its rows are not fresh from the server: rows from the
local cache while the server is asked ("data from 10:42 CET · refreshing…"), or offline,
the cache's rows while the server cannot be reached ("offline · data from 10:42 CET · retry
in 30 s"), with retries that back off and wait while the terminal is unfocused.

A part the pane composes; the retries run on their own `RefreshTimer`, whose rounds the pane
runs (a reload of the view), while the pane's auto-refresh rounds (`rounds`) are stopped.
The status line's words come from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import NamedTuple

from textual.timer import Timer

from screen_analysis.tui.feed import RefreshSchedule
from screen_analysis.tui.feed.schedule import HELD_WORDS
from screen_analysis.tui.widgets.table.live import RefreshTimer, SetTimer
from screen_analysis.words import clock_time, wait_words

RETRY_S = 30.0  # the first retry while offline; then twice as long each time
RETRY_CAP_S = 300.0


class StaleWords(NamedTuple):
    """What the status line says of rows that are not fresh: `state` ("cached" or
    "offline") and its words, longest first; the line shows the longest that fits."""

    state: str
    forms: tuple[str, ...]


def stale_forms(parts: Sequence[str], bare: Sequence[str] = ()) -> tuple[str, ...]:
    """`parts` (the most important first) joined with " · ", then with the last part left
    out, and so on down to the first alone: one wording at every width, its least
    important parts dropped first. `bare`: the same parts with the time's zone left out;
    each wording is followed by its bare one, so the zone is the first thing to go."""
    kept = [part for part in parts if part]
    plain = [part for part in bare if part]
    forms: list[str] = []
    for count in range(len(kept), 0, -1):
        forms.append(" · ".join(kept[:count]))
        if plain:
            forms.append(" · ".join(plain[:count]))
    return tuple(dict.fromkeys(forms))


def offline_parts(since: str, note: str, then: str) -> tuple[str, str, str, str]:
    """The offline words in the order they give way: "offline" stays, then what the rows
    are (their time, a filter on what is kept: `note`), then when it retries (`then`)."""
    return "offline", f"data from {since}", note, then


class OfflineWatch:
    """The state of the pane's data when it is not fresh from the server, and the retries
    (held while the terminal is unfocused, whether or not the pane is offline yet; while
    they wait for their time the words count down, once a second)."""

    def __init__(
        self,
        rounds: RefreshTimer,
        set_timer: SetTimer,
        set_interval: SetTimer,
        retry: Callable[[], bool],
        show: Callable[[], None],
        clock: Callable[[], datetime],
    ) -> None:
        """Stop the pane's auto-refresh `rounds` while offline; `retry` starts a reload of
        the view (False: not now); `show` says the state again (each second while offline,
        from a `set_interval` timer); `clock` tells "now" for the words (the retries' time
        is the rounds' schedule's clock)."""
        schedule = RefreshSchedule(RETRY_S, cap_s=RETRY_CAP_S, clock=rounds.schedule.clock)
        self._rounds = rounds
        self._retries = RefreshTimer(schedule, set_timer, retry, lambda _label: show())
        self._set_interval = set_interval
        self._show = show
        self._ticker: Timer | None = None
        self._clock = clock
        self.data_time: datetime | None = None  # when the rows on screen were fetched
        self.offline = False
        self.note = ""  # what the offline rows are ("kept rows with this status")

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
        """The server answered the view: the rows are fresh; retries stop, refreshes go on."""
        was_offline = self.offline
        self.data_time = None
        self.note = ""
        self.offline = False
        if was_offline:
            self._retries.ended(ok=True)
            self._rounds.arm()
        self._retries.stop()
        self._retries.schedule.succeeded()
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def went_offline(self, fetched_at: datetime | None) -> None:
        """The server cannot be reached: keep the rows, stop refreshing, retry later (backing
        off when this was a retry)."""
        self._rounds.stop("auto-refresh waits (offline)")
        if fetched_at is not None and self.data_time is None:
            self.data_time = fetched_at
        if self.offline:
            self._retries.ended(ok=False)
        else:
            self.offline = True
            self._retries.arm()
        if self._ticker is None:
            self._ticker = self._set_interval(1.0, self._show)

    def retry_now(self) -> None:
        """Retry at once (the user's `r`)."""
        self._retries.run_now()

    def hold(self, reason: str, held: bool) -> None:
        """Refreshes and retries wait while the terminal is unfocused or the app suspended;
        both note it whichever runs now, so going offline (or back) meanwhile starts none."""
        running, noted = (
            (self._retries, self._rounds) if self.offline else (self._rounds, self._retries)
        )
        noted.schedule.hold(reason, held)
        running.hold(reason, held)

    def words(self) -> StaleWords | None:
        """What the status line says, or None when the rows are fresh."""
        if self.data_time is None:
            return None
        now = self._clock()
        since, bare = clock_time(self.data_time, now), clock_time(self.data_time, now, zone=False)
        if not self.offline:
            cached = [(f"data from {at}", "refreshing…") for at in (since, bare)]
            return StaleWords("cached", stale_forms(*cached))
        schedule = self._retries.schedule
        left = self._retries.seconds_left
        if self._retries.running:
            then = "retrying…"
        elif schedule.held:
            then = "retries wait (" + HELD_WORDS.get(min(schedule.held), min(schedule.held)) + ")"
        else:
            then = "retry in " + wait_words(schedule.interval_s if left is None else left)
        offline = [offline_parts(at, self.note, then) for at in (since, bare)]
        return StaleWords("offline", stale_forms(*offline))

    def mark(self) -> str:
        """The offline words without the countdown, for a part that shows no status line
        ("offline · data from 15:47 CET"); "" when online."""
        if not self.offline or self.data_time is None:
            return ""
        since = clock_time(self.data_time, self._clock())
        return " · ".join(offline_parts(since, "", "")[:2])

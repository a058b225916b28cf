"""The analyses pane's rows that are not fresh from the server: the rows the local cache
kept, painted at once while the server is asked, and the pane offline (the kept rows
stay, or stand in, while the server cannot be reached, and retries follow).

A part the pane composes (`AnalysesPane`): it reads the cache through the pane's pager (as
the key in use may see it), puts kept rows in the pane's table, keeps the offline state and
its words (`OfflineWatch`), and asks the pane (`KeptHost`) for the rest: what to keep the
cursor on, the status said again, other widgets told of the rows, a retry run. It posts
nothing itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, Protocol

from textual.notifications import SeverityLevel

from screen_analysis.api.describe import describe_error
from screen_analysis.api.models import AnalysisItem
from screen_analysis.browse import ViewKey
from screen_analysis.cache import CachedView
from screen_analysis.cache.kept import unreachable
from screen_analysis.cache.rows import skipped_words
from screen_analysis.tui.widgets.table.live import RefreshTimer, SetTimer
from screen_analysis.tui.widgets.table.offline import OfflineWatch, StaleWords
from screen_analysis.tui.widgets.table.source import PageSource
from screen_analysis.tui.widgets.table.table import AnalysesTable
from screen_analysis.tui.workers import Workers

KEPT_NOTE = "kept rows only"  # offline, a filter on the kept rows of the unfiltered view
NOTHING_KEPT = "Nothing of this view is kept in the local cache."


class KeptHost(Protocol):
    """What the part asks of the pane it serves."""

    @property
    def table(self) -> AnalysesTable:
        """The pane's table."""

    @property
    def ever_loaded(self) -> bool:
        """Whether a page was ever shown."""

    def keep_pick(self) -> str | None:
        """The analysis the view was asked to open on, if any."""

    def rows_shown(self, items: Sequence[AnalysisItem]) -> None:
        """Kept rows were put in the table: the other widgets are told."""

    def update_status(self) -> None:
        """Say again how paging stands."""

    def say(self, text: str, severity: SeverityLevel = "information") -> None:
        """One notification."""

    def failed(self, error: Exception) -> None:
        """A failure to say."""

    def retry_round(self) -> bool:
        """Read the view again (False: not now)."""

    def set_timer(self, delay: float, callback: Callable[[], None]) -> Any:
        """A timer of the pane."""

    def set_interval(self, interval: float, callback: Callable[[], None]) -> Any:
        """A repeating timer of the pane."""


class KeptRows:
    """The pane's kept rows and offline state."""

    GROUP = "kept"

    def __init__(
        self,
        source: PageSource,
        host: KeptHost,
        rounds: RefreshTimer,
        clock: Callable[[], datetime],
        workers: Workers,
    ) -> None:
        """Read `source`'s view as the cache kept it into `host`'s table (in one of its
        `workers`); stop the pane's auto-refresh `rounds` while offline; `clock` tells
        "now" for the words."""
        self._source = source
        self._host = host
        self._workers = workers
        set_timer: SetTimer = host.set_timer
        set_interval: SetTimer = host.set_interval
        self._watch = OfflineWatch(
            rounds, set_timer, set_interval, host.retry_round, host.update_status, clock
        )
        self._clock = clock
        self._fresh_at: datetime | None = None  # when the server last confirmed the rows
        self.total: int | None = None  # the total the cache kept with the rows shown

    @property
    def offline(self) -> bool:
        """Whether the server cannot be reached and the rows shown are the cache's."""
        return self._watch.offline

    @property
    def stale(self) -> bool:
        """Whether the rows on screen are not (yet) confirmed by the server."""
        return self._watch.stale

    @property
    def busy(self) -> bool:
        """Whether the kept rows are being read, or a retry round is under way."""
        return self._workers.busy(self.GROUP) or self._watch.retrying

    @property
    def retrying(self) -> bool:
        """Whether a retry round is under way."""
        return self._watch.retrying

    def words(self) -> StaleWords | None:
        """What the status line says of the rows, or None when they are fresh."""
        return self._watch.words()

    def mark(self) -> str:
        """The offline words for the parts beside the pane ("" when online)."""
        return self._watch.mark()

    def hold(self, reason: str, held: bool) -> None:
        """Hold refreshes and retries for `reason`, or release them."""
        self._watch.hold(reason, held)

    def retry_now(self) -> bool:
        """Offline: retry at once (the user's `r`); False when not offline or a retry runs."""
        if not self._watch.offline or self._watch.retrying:
            return False
        self._watch.retry_now()
        return True

    def opened(self, key: ViewKey) -> bool:
        """Another view opens: nothing of the cache is on screen yet. Offline, its kept rows
        are painted and True returned (no request: the retries ask)."""
        self.total = None
        self._watch.showing_cached_none()
        if not self._watch.offline:
            return False
        self._workers.run(partial(self._paint_offline, key), self.GROUP)
        return True

    async def paint_first(self) -> int:
        """The rows the cache kept of the view just opened, painted while the server is
        asked; how many (0: none, or the view or the key changed meanwhile)."""
        view = await self._source.kept_view()
        if view is None or not view.items:
            return 0
        self._show(view)
        self._host.update_status()
        return len(view.items)

    def confirmed_at(self) -> None:
        """The server answered: the rows on screen are as of now."""
        self._fresh_at = self._clock()

    def replaced(self, pick: str | None) -> str | None:
        """The server's first page replaces the rows shown: what the cursor stays on (the
        highlighted row when they were the cache's, else `pick`); they are fresh now."""
        keep_id = pick
        if self._watch.stale:
            keep_id = self._host.table.highlighted_id or pick
        self._watch.confirmed()
        return keep_id

    def _show(self, view: CachedView, note: str = "") -> None:
        """Rows the cache kept (and the view's total then): at once while the server is
        asked, or offline; rows it could not read are said."""
        self._watch.showing_cached(view.fetched_at, note)
        self.total = view.total
        table = self._host.table
        table.set_items(view.items, keep_id=table.highlighted_id or self._host.keep_pick())
        self._host.rows_shown(view.items)
        if view.skipped:
            self._host.say(skipped_words(view.skipped), "warning")

    async def _paint_offline(self, key: ViewKey, error: Exception | None = None) -> None:
        """Offline, or no server (`error`) while no row is shown: the view's kept rows, or
        its project's with its status (said so); retries follow. Nothing kept and nothing
        ever shown: the failure is said (the screen offers the demo)."""
        generation = self._source.generation
        view = await self._source.kept_view(offline=True)
        if generation != self._source.generation:
            return
        if view is None or not view.items:
            if error is not None and not self._host.ever_loaded:
                self._host.failed(error)
                return
            self._host.table.empty_message = NOTHING_KEPT
        else:
            self._show(view, "" if view.total is not None or key.status is None else KEPT_NOTE)
        if error is not None:
            self.went_offline()
        self._host.update_status()

    def failed(self, error: Exception, rows_shown: bool) -> bool:
        """A load failed: when the server cannot be reached, the rows on screen stay (or,
        none shown, the kept ones stand in) and retries follow: True. Else False."""
        if not unreachable(error):
            return False
        if rows_shown or self._watch.offline:
            self.went_offline()
        else:
            key = self._source.view
            self._workers.run(partial(self._paint_offline, key, error), self.GROUP)
        return True

    def forget(self, error: Exception) -> bool:
        """Rows from the local cache go (a refused key never sees them; the server's rows
        stay); True when some were on screen."""
        if not self._watch.stale:
            return False
        self._watch.confirmed()
        self.total = None
        table = self._host.table
        table.set_items([])
        table.empty_message = describe_error(error, prefix="Nothing to show")
        self._host.update_status()
        return True

    def went_offline(self) -> None:
        """The server cannot be reached: the rows stay, refresh rounds stop, retries begin."""
        self._watch.went_offline(self._fresh_at)
        self._host.update_status()

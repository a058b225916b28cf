"""What the analyses pane needs of its page source (the main view's headless `Feed`).

A Protocol, so the pane (`widgets/table/pane.py`) and the load of the rest (`load_all`) can
be driven by any source in tests; the feed satisfies it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from screen_analysis.api.models import AnalysisItem
from screen_analysis.tui.feed.kept import KeptCache
from screen_analysis.tui.feed.paging import Accepted, PageBatch, PageLoad, Paging, Refreshed
from screen_analysis.tui.feed.refresh import RefreshJob, RefreshResult
from screen_analysis.tui.feed.views import ViewKey


class PageSource(Protocol):
    """One view at a time, paged in by generation; every load is asked for, run and then
    accepted (or failed) through the source, which drops answers of an older generation."""

    @property
    def view(self) -> ViewKey:
        """The view shown."""

    @property
    def total(self) -> int | None:
        """The view's total as the server last said it."""

    @property
    def total_unknown(self) -> bool:
        """Whether the server's last total was no count (shown as "?")."""

    @property
    def loaded(self) -> int:
        """Rows of the view loaded so far."""

    @property
    def done(self) -> bool:
        """Whether the last page of the view is loaded."""

    @property
    def started(self) -> bool:
        """Whether a view was opened."""

    @property
    def loading(self) -> bool:
        """Whether a load of the view is under way."""

    @property
    def error(self) -> BaseException | None:
        """The error the last load ended with, if any."""

    @property
    def cursor_refused(self) -> bool:
        """Whether the server refused the cursor of the page asked last."""

    @property
    def kept(self) -> KeptCache:
        """The local cache as the key in use may see it (its views read from a thread)."""

    def open(self, key: ViewKey) -> PageLoad:
        """Switch to `key` and ask for its first page."""

    def reload(self) -> PageLoad:
        """Ask for the view again from the top, as many rows as are loaded."""

    def widen(self, load: PageLoad, fill_to: int) -> PageLoad:
        """The same first load, asked to bring at least `fill_to` rows."""

    def more(self) -> PageLoad | None:
        """The next page to ask for, or None (loading, failed, at the end)."""

    def retry(self) -> PageLoad | None:
        """Ask again for what failed, or None."""

    async def load(self, load: PageLoad) -> PageBatch:
        """Fetch what `load` asks for."""

    def accept(self, batch: PageBatch) -> Accepted | None:
        """Take a batch's rows; None when it is stale."""

    def fail(self, load: PageLoad, error: BaseException) -> bool:
        """Record a failure; False when it is stale."""

    def cancelled(self, load: PageLoad) -> None:
        """A load's worker was cancelled."""

    def paging_state(self) -> Paging:
        """What the status line says of paging, the error's words and what `r` does."""

    def plan_refresh(self, visible: Sequence[AnalysisItem]) -> RefreshJob:
        """A refresh round of the view, given the rows on screen."""

    async def run_refresh(self, job: RefreshJob) -> RefreshResult:
        """Ask for the round's pages."""

    def apply_refresh(self, result: RefreshResult) -> Refreshed | None:
        """What the round changes on screen; None when it is stale."""

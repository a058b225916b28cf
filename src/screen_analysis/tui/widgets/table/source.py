"""What the analyses pane needs of its page source (a view's headless `browse.Pager`).

A Protocol, so the pane (`pane.py`), its auto-refresh rounds and its words can be driven
by any source in tests; the pager satisfies it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from screen_analysis.api.models import AnalysisItem
from screen_analysis.browse import Page, Paging, Refreshed, RefreshJob, ViewKey
from screen_analysis.cache import CachedView


class PageSource(Protocol):
    """One view at a time, paged in by generation: the source keeps its own books (one
    load at a time, answers of an older generation dropped, failures recorded)."""

    @property
    def view(self) -> ViewKey:
        """The view shown."""

    @property
    def generation(self) -> int:
        """The view's generation (a new view or a reload starts another)."""

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
    def can_page(self) -> bool:
        """Whether `next_page` would ask for the page after the last now."""

    @property
    def error(self) -> BaseException | None:
        """The error the last load ended with, if any."""

    @property
    def cursor_refused(self) -> bool:
        """Whether the server refused the cursor of the page asked last."""

    def open(self, key: ViewKey) -> None:
        """Show `key`; its first page comes next."""

    def reload(self) -> None:
        """The view again from the top, as many rows as are loaded."""

    def retry(self) -> bool:
        """Ask again for what failed with the next `next_page`; False when nothing failed."""

    def widen(self, fill_to: int) -> None:
        """The view's first load brings at least `fill_to` rows."""

    async def next_page(self) -> Page | None:
        """The next rows of the view, or None (nothing to ask now, or a stale answer)."""

    def paging_state(self) -> Paging:
        """What the status line says of paging, the error's words and what `r` does."""

    async def kept_view(self, *, offline: bool = False) -> CachedView | None:
        """The view as the local cache kept it, as the key in use may see it."""

    def plan_refresh(self, visible: Sequence[AnalysisItem]) -> RefreshJob:
        """A refresh round of the view, given the rows on screen."""

    async def refresh(self, job: RefreshJob) -> Refreshed | None:
        """Run the round and apply it; None when it is stale."""

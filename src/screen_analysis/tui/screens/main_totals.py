"""The status filter's totals on the main screen: asked for when a view opens and again
only when a refresh saw something move; each view's own total comes with its first page.

A part the screen composes (`MainScreen.totals`); answers come back to the screen as
`TotalsLoaded` / `TotalsFailed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from screen_analysis.tui.feed import ViewKey
from screen_analysis.tui.screens import main_outcomes as out

if TYPE_CHECKING:
    from screen_analysis.tui.screens.main import MainScreen


class FilterTotals:
    """Asks for the totals per status and shows them in the filter bar."""

    def __init__(self, screen: MainScreen) -> None:
        self._screen = screen

    def load(self, *, fresh: bool = False) -> None:
        """Show what is known; ask for the missing totals (`fresh`: all but the view's)."""
        self.show()
        keys = self._screen.feed.totals_wanted(fresh=fresh)
        if keys:
            self._fetch(keys)

    def show(self) -> None:
        """Put the known totals of the view's project in the filter bar."""
        screen = self._screen
        screen.status_filter.counts = screen.feed.totals.by_status(screen.view.project_id)

    def _fetch(self, keys: list[ViewKey]) -> None:
        screen = self._screen
        work = out.report(
            screen, screen.feed.fetch_totals(keys), out.TotalsLoaded, out.TotalsFailed
        )
        screen.run_worker(work, group="counts", exclusive=True, exit_on_error=False)

    def loaded(self, totals: dict[ViewKey, int]) -> None:
        """Keep and show totals that arrived."""
        self._screen.feed.put_totals(totals)
        self.show()

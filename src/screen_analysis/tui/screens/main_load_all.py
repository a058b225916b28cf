"""Loading the rest of the main view (`L`): page after page with progress in the status
line, Esc stops it keeping what arrived, bounded at 100,000 rows; useful before sorting.

A part the screen composes (`MainScreen.load_all`). The pages go through the feed like any
other (one loop guard, one de-duplication); the end comes back as `AllLoaded` or
`LoadAllFailed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.worker import Worker

from screen_analysis.api.describe import describe_error
from screen_analysis.api.models import Analysis
from screen_analysis.tui.feed import Accepted
from screen_analysis.tui.feed.load_all import LoadProgress, load_rest
from screen_analysis.tui.screens import main_outcomes as out

if TYPE_CHECKING:
    from screen_analysis.tui.screens.main import MainScreen


class LoadAll:
    """Runs one load of the rest at a time in the "load-all" worker group."""

    def __init__(self, screen: MainScreen) -> None:
        self._screen = screen
        self._worker: Worker[None] | None = None

    @property
    def running(self) -> bool:
        """Whether a load of the rest is under way."""
        return self._worker is not None and not self._worker.is_finished

    def start(self) -> None:
        """Load every remaining page of the view (unless already at the end or loading)."""
        screen = self._screen
        if self.running:
            screen.notify("Already loading the rest; Esc stops.", markup=False)
            return
        if screen.feed.done:
            screen.notify(f"All {screen.feed.loaded:,} rows are loaded.", markup=False)
            return
        if screen.feed.loading:
            screen.notify("A page is loading; try again in a moment.", markup=False)
            return
        work = out.report(
            screen, load_rest(screen.feed, self._rows), out.AllLoaded, out.LoadAllFailed
        )
        self._worker = screen.run_worker(work, group="load-all", exit_on_error=False)
        screen.notify("Loading the rest of the view… Esc stops.", markup=False)

    def stop(self, *, quiet: bool = False) -> bool:
        """Stop a load under way (the rows that arrived stay); False when none ran."""
        if not self.running or self._worker is None:
            return False
        self._worker.cancel()
        if not quiet:
            self._screen.notify(f"Stopped with {self._screen.feed.loaded:,} rows loaded.")
        self._screen.update_status()
        return True

    def _rows(self, accepted: Accepted, progress: LoadProgress) -> None:
        screen = self._screen
        screen.table.append_items(accepted.items)
        screen.projects.want(i.project_id for i in accepted.items if isinstance(i, Analysis))
        screen.update_status()

    def ended(self, progress: LoadProgress | None, error: Exception | None = None) -> None:
        """Say how the load ended."""
        screen = self._screen
        screen.update_status()
        if error is not None:
            text = "Loading the rest stopped: " + describe_error(error) + " — r retries"
            screen.notify(text, severity="error", markup=False)
        elif progress is not None:
            screen.notify(progress.describe(), markup=False)

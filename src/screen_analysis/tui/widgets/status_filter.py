"""The status filter bar: All · Pending · Processing · Completed · Failed, with totals.

The bar owns its totals: it asks its source (`TotalsSource`, the headless `browse.Totals`)
for them in its own worker, one request per status living or dying on its own, keeps each
last number seen, and shows an old one marked stale ("~1,234") rather than none until a new one
comes; a total the server gave as no count shows as unknown ("?") on its own tab. It starts
with those the local cache kept, once the key in use may see them, and forgets those when
the key is refused.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import ClassVar, Protocol

from rich.cells import cell_len
from textual import events, work
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.api.models import AnalysisStatus, parse_status
from screen_analysis.api.oddities import UNKNOWN_TOTAL
from screen_analysis.browse.totals import CountCache, Counts
from screen_analysis.browse.views import ViewKey
from screen_analysis.numbers import format_count
from screen_analysis.tui.formatting import STALE, now_utc
from screen_analysis.tui.workers import busy

CHOICES: tuple[tuple[AnalysisStatus | None, str], ...] = (
    (None, "All"),
    (AnalysisStatus.PENDING, "Pending"),
    (AnalysisStatus.PROCESSING, "Processing"),
    (AnalysisStatus.COMPLETED, "Completed"),
    (AnalysisStatus.FAILED, "Failed"),
)
SEPARATOR = "·"
STALE_CHECK_S = 5.0


class TotalsSource(Protocol):
    """Where the bar's totals come from."""

    async def fetch_totals(self, keys: Sequence[ViewKey]) -> Counts:
        """The total of each key that answered (None: no count), and the first failure of
        those that did not."""

    async def kept_totals(self, project_id: str | None) -> dict[str | None, tuple[int, datetime]]:
        """The totals the local cache kept for a project's statuses ("" or None: all) and
        when each was fetched, once the key in use may see them (else none)."""


SHORT_WORDS = ("All", "Pend", "Proc", "Done", "Fail")


def choice_texts(
    counts: Mapping[AnalysisStatus | None, int | None],
    *,
    keys: bool = True,
    with_counts: bool = True,
    short: bool = False,
    stale: Collection[AnalysisStatus | None] = (),
) -> list[str]:
    """The text of each choice: its key, its word and its total when one came (marked with
    `STALE` when it may be out of date; `UNKNOWN_TOTAL` when the server's was no count)."""
    texts = []
    for number, ((status, word), short_word) in enumerate(
        zip(CHOICES, SHORT_WORDS, strict=True), start=1
    ):
        text = short_word if short else word
        if keys:
            text = f"{number} {text}"
        if with_counts and status in counts:
            total = counts[status]
            shown = UNKNOWN_TOTAL if total is None else format_count(total)
            text += f" {STALE if status in stale else ''}{shown}"
        texts.append(text)
    return texts


def line_width(texts: list[str]) -> int:
    """Cells taken by the choices (each padded by a space) and the separators."""
    return sum(cell_len(t) + 2 for t in texts) + cell_len(SEPARATOR) * (len(texts) - 1)


def fitting_texts(
    counts: Mapping[AnalysisStatus | None, int | None],
    width: int,
    stale: Collection[AnalysisStatus | None] = (),
) -> list[str]:
    """The richest form of the choices that fits in `width` cells (totals go before words)."""
    forms = (
        {"keys": True, "with_counts": True},
        {"keys": False, "with_counts": True},
        {"keys": True, "with_counts": False},
        {"keys": False, "with_counts": False},
        {"keys": False, "with_counts": True, "short": True},
    )
    for form in forms:
        texts = choice_texts(counts, stale=stale, **form)
        if line_width(texts) <= width:
            return texts
    return choice_texts(counts, keys=False, with_counts=False, short=True)


class StatusFilter(Widget):
    """One line of status choices with their totals; clicks post `Chosen`. The screen says
    which view is shown (`show_view`), a total a page brought (`seen`), and when counts
    moved (`recount`); the bar asks for the rest itself."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "status-filter--active",
        "status-filter--separator",
    }

    DEFAULT_CSS = """
    StatusFilter {
        height: 1;
        text-wrap: nowrap;
        text-overflow: clip;
        background: $panel;
        color: $foreground-muted;
        & > .status-filter--active {
            background: $primary;
            color: $text;
            text-style: bold;
        }
        & > .status-filter--separator { color: $foreground-disabled; }
    }
    """

    current: reactive[AnalysisStatus | None] = reactive(None)
    """The status shown (None: all)."""
    counts: reactive[dict[AnalysisStatus | None, int | None]] = reactive(dict, always_update=True)
    """Totals per status for the current project, where one came (None: unknown)."""
    stale: reactive[frozenset[AnalysisStatus | None]] = reactive(frozenset)
    """The statuses whose total shown may be out of date."""
    offline: reactive[bool] = reactive(False, init=False)
    """Whether the server cannot be reached: every total shown is then marked stale, from
    the local cache or from before the server went away alike."""

    class Chosen(Message):
        """The user clicked a status."""

        def __init__(self, status_filter: StatusFilter, status: AnalysisStatus | None) -> None:
            super().__init__()
            self.status_filter = status_filter
            self.status = status

        @property
        def control(self) -> StatusFilter:
            """The filter bar that posted the message."""
            return self.status_filter

    class Failed(Message):
        """Asking for the totals failed; `again` asks again."""

        def __init__(self, error: Exception, again: Callable[[], None]) -> None:
            super().__init__()
            self.error = error
            self.again = again

    def __init__(
        self,
        source: TotalsSource | None = None,
        *,
        clock: Callable[[], datetime] = now_utc,
        ticks: Callable[[], float] = time.monotonic,
        id: str | None = None,
    ) -> None:
        """Create the bar with nothing known; totals come from `source` (None: only those
        the screen passes to `seen`); `clock` tells the age of the kept ones, `ticks` (in
        seconds) when a total goes stale and falls due."""
        super().__init__(id=id)
        self._source = source
        self._clock = clock
        self._spans: list[tuple[int, int, AnalysisStatus | None]] = []
        self._totals = CountCache(clock=ticks)
        self._kept: set[ViewKey] = set()  # totals the local cache gave, not confirmed since
        self._project: str | None = None

    # Totals

    def show_view(self, view: ViewKey) -> None:
        """The table shows `view`: its status is the current one, its project's totals are
        shown (asked for once the view's first page brings its own)."""
        self.current = view.status
        self._project = view.project_id
        self._show()

    def seen(self, view: ViewKey, total: int | None, *, spare: int | None = None) -> None:
        """A page brought `view`'s total (None: no count, unknown): keep it, and ask for the
        project's other totals that are missing. From an auto-refresh round (`spare`: the
        requests its budget leaves), only those due, at most `spare` of them."""
        self._put(view, total)
        if view.project_id == self._project:
            self._show()
            others = [k for k in view.siblings() if k != view]
            if spare is None:
                wanted = self._totals.missing(others)
            else:
                wanted = self._totals.due(others)[:spare]
            if wanted:
                self._fetch(wanted)

    def seed(
        self, project_id: str | None, totals: Mapping[AnalysisStatus | None, int], age_s: float
    ) -> None:
        """Totals as the local cache kept them, `age_s` seconds old (stale once that is
        past their time to live, and asked again like any missing); a total the server
        already gave stays."""
        for status, total in totals.items():
            key = ViewKey(project_id, status)
            if key not in self._totals:
                self._totals.put(key, total, age_s=age_s)
                self._kept.add(key)
        self._show()

    def forget_kept(self) -> None:
        """The totals the local cache gave go (the key was refused: it never sees them)."""
        for key in self._kept:
            self._totals.forget(key)
        self._kept.clear()
        self._show()

    def _put(self, key: ViewKey, total: int | None) -> None:
        self._totals.put(key, total)  # None: unknown on this tab only, until a count comes
        self._kept.discard(key)

    def recount(self, view: ViewKey) -> None:
        """Counts moved (a refresh saw a change): ask again for every total of the view's
        project but the view's own (its refresh brought that). The old numbers stay."""
        if view.project_id == self._project:
            self._fetch([k for k in view.siblings() if k != view])

    def on_mount(self) -> None:
        """Mark totals stale as they age, even when nothing else happens; show the totals
        of all projects the local cache kept."""
        self.set_interval(STALE_CHECK_S, self._show)
        if self._source is not None:
            self._seed_kept(self._source)

    @work(group="kept", exit_on_error=False)
    async def _seed_kept(self, source: TotalsSource) -> None:
        kept = await source.kept_totals(None)
        now = self._clock()
        for raw, (total, fetched) in kept.items():
            status = parse_status(raw)
            if status is None or isinstance(status, AnalysisStatus):
                self.seed(None, {status: total}, max(0.0, (now - fetched).total_seconds()))

    def recount_keys(self, keys: list[ViewKey]) -> None:
        """Ask again for these totals."""
        self._fetch(keys)

    def watch_offline(self) -> None:
        """Mark the totals (or take the marks away)."""
        self._show()

    def _show(self) -> None:
        self.counts = self._totals.by_status(self._project)
        stale = self.counts.keys() if self.offline else self._totals.stale(self._project)
        self.stale = frozenset(stale)

    @property
    def busy(self) -> bool:
        """Whether totals are being asked for."""
        return busy(self)

    @work(exclusive=True, group="counts", exit_on_error=False)
    async def _fetch(self, keys: list[ViewKey]) -> None:
        if self._source is None:
            return
        try:
            totals = await self._source.fetch_totals(keys)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self.post_message(self.Failed(error, lambda: self.recount_keys(keys)))
            self._show()
            return
        for key, total in totals.found.items():
            self._put(key, total)
        self._show()
        if isinstance(totals.error, Exception):  # the others stand; these are asked again
            failed = [key for key in keys if key not in totals.found]
            self.post_message(self.Failed(totals.error, lambda: self.recount_keys(failed)))

    def render(self) -> Content:
        """The choices, the current one highlighted."""
        texts = fitting_texts(self.counts, self.size.width, self.stale)
        active = self.get_visual_style("status-filter--active")
        separator = Content.styled(SEPARATOR, self.get_visual_style("status-filter--separator"))
        parts: list[Content] = []
        self._spans = []
        x = 0
        for index, ((status, _word), text) in enumerate(zip(CHOICES, texts, strict=True)):
            if index:
                parts.append(separator)
                x += cell_len(SEPARATOR)
            chip = f" {text} "
            parts.append(Content.styled(chip, active) if status == self.current else Content(chip))
            self._spans.append((x, x + cell_len(chip), status))
            x += cell_len(chip)
        return Content("").join(parts)

    def on_click(self, event: events.Click) -> None:
        """A click on a choice posts `Chosen`."""
        for start, end, status in self._spans:
            if start <= event.x < end:
                event.stop()
                self.post_message(self.Chosen(self, status))
                return

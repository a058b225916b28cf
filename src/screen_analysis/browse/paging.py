"""The pieces of a view's paging, headless: one generation of a view and its walk
(`Generation`), one load of it (`PageLoad`), what a load or a refresh changes on screen
(`Page`, `Refreshed`), and what the status line says of paging (`Paging`). The pager
(`pager.py`) makes them.
"""

from __future__ import annotations

from typing import NamedTuple

from screen_analysis.api.describe import describe_error, retry_can_help
from screen_analysis.api.errors import EmptyPagesError, InvalidResponseError
from screen_analysis.api.models import AnalysisItem, AnalysisPage
from screen_analysis.api.pagination import Walk
from screen_analysis.browse.scope import Filter
from screen_analysis.browse.views import ViewKey
from screen_analysis.words import capitalised


class Generation:
    """One generation of a view (a reload starts another): the one walk over its pages,
    the cursor each page was asked with, and its first row."""

    def __init__(self, number: int, key: ViewKey, walk: Walk[AnalysisPage]) -> None:
        """Generation `number` of `key`'s view, paged through `walk`."""
        self.number = number
        self.key = key
        self.walk = walk
        self.cursors: list[str | None] = []  # the `after` each page was asked with
        self.newest: AnalysisItem | None = None  # the first row of the view, as loaded

    @property
    def has_more(self) -> bool:
        """Whether a next page remains (False at the end and once a loop was found)."""
        return self.walk.has_more

    async def next_page(self) -> AnalysisPage:
        """The next page, holding only the rows the walk had not met. A failure changes
        nothing, so the same page can be asked again; a run of empty pages that reaches
        the walk's bound raises `EmptyPagesError` (the page is counted: the walk goes on
        after it)."""
        after = self.walk.asking_with
        fetched = self.walk.pages_fetched
        try:
            return await anext(self.walk)
        finally:
            if self.walk.pages_fetched > fetched:
                self.cursors.append(after)

    def cursor_of(self, analysis_id: str) -> tuple[int, str | None] | None:
        """The page an analysis was loaded on (1 for the first) and the cursor that page
        was asked with."""
        number = self.walk.page_of(analysis_id)
        if number is None or not 0 < number <= len(self.cursors):
            return None
        return number, self.cursors[number - 1]


class PageLoad(NamedTuple):
    """One load of one generation of a view: the next page, or (`replace`) the view from
    the top, following cursors until at least `fill_to` rows arrived."""

    generation: Generation
    replace: bool = False
    fill_to: int = 0


class Page(NamedTuple):
    """What one `Pager.next_page` brought to show: new rows (each once in the view), to
    replace the rows shown (`replace`: a first page or a reload) or to add below them; the
    view's total (None with `odd_total`: the server's was no count); whether the listing
    ended; why paging cannot go on (`loop_error`: a cursor loop, or a next_cursor that
    could not be read); and what the page brought to say that was not said before in this
    view (`notes`: an unknown total, rows of another status or project)."""

    key: ViewKey
    generation: int
    items: list[AnalysisItem]
    replace: bool
    total: int | None
    done: bool
    loop_error: InvalidResponseError | None = None
    odd_total: str | None = None
    notes: tuple[str, ...] = ()


class Paging(NamedTuple):
    """What the status line says of paging: the state (idle, loading, end, error, stopped),
    the words of an error, and what `r` does about it ("retry", "read on"; "" for nothing)."""

    state: str
    words: str = ""
    again: str = ""


class Refreshed(NamedTuple):
    """What a refresh of `key` changes: rows that arrived on top, every row brought back
    (newest first, each once: to update in place), the view's total (None with
    `odd_total`) and whether it moved, whether the server refused the old cursor of the
    page asked again, whether more rows arrived than one page holds (`gap`: the rows
    between the new first page and the loaded ones are unknown, so the view is reloaded),
    whether the view came back empty (`emptied`: a first page without rows and a total
    of 0), and how many requests of the round's budget are left (`spare`, for totals)."""

    key: ViewKey
    arrived: list[AnalysisItem]
    rows: list[AnalysisItem]
    total: int | None
    total_changed: bool
    cursor_refused: bool
    gap: bool = False
    odd_total: str | None = None
    emptied: bool = False
    spare: int = 0


async def fetch_rows(
    run: Generation,
    *,
    need: int,
    where: Filter | None,
    scanned: int,
    budget: int | None,
) -> tuple[list[AnalysisItem], list[AnalysisItem], AnalysisPage]:
    """One load of `run`: pages until `need` rows came (rows `where` matches, when a scope
    filters here), the end, or `budget` rows read in all (`scanned` so far); the rows kept,
    every row read, and the last page. A run of empty pages raises `EmptyPagesError`
    unless rows came before it."""
    run.walk.read_on()
    read: list[AnalysisItem] = []
    items: list[AnalysisItem] = []
    page: AnalysisPage | None = None
    while True:
        try:
            page = await run.next_page()
        except EmptyPagesError:
            if not read or page is None:
                raise
            break
        read.extend(page.items)
        scanned += len(page.items)
        items.extend(page.items if where is None else filter(where.matches, page.items))
        if not run.has_more or len(items) >= need:
            break
        if budget is not None and scanned >= budget:
            break
    return items, read, page


def failed_paging(error: BaseException, *, first: bool | None, cursor_refused: bool) -> Paging:
    """What the status line says of a failure: the error's words ("Couldn't load more: HTTP
    503: …") and what `r` does then. `first`: whether the load that failed was a view's
    first (None: no load failed, the server repeated a cursor or sent one that cannot be
    read); `cursor_refused`: the server refused its own cursor."""
    if isinstance(error, EmptyPagesError):
        return Paging("stopped", capitalised(describe_error(error)), "read on")
    if first is None:
        return Paging(
            "error", describe_error(error, prefix="Paging stopped"), "reload from the top"
        )
    if cursor_refused:
        restart = "restart the listing from the top"
        return Paging("error", describe_error(error, prefix="Page cursor refused"), restart)
    prefix = "Couldn't load" if first else "Couldn't load more"
    again = "retry" if retry_can_help(error) else "ask again"
    return Paging("error", describe_error(error, prefix=prefix), again)

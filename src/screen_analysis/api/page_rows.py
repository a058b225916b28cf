"""The rows of a listing's pages: which of them are new (`SeenIds`, the one de-duplication
of the project) and how a page of models or of raw JSON keeps only those (`PageRows`:
`MODEL_ROWS`, `RAW_ROWS`). The walk (`pagination.Walk`) cuts every page with them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Generic, NamedTuple, TypeVar

from screen_analysis.api.models import AnalysisItem, AnalysisPage, RawPage

P = TypeVar("P")


class SeenIds:
    """The ids seen so far in one listing, each with the number of the page it came on.

    The one de-duplication of the project: a row that moves across a page boundary while
    someone pages is shown once. Items without an id (invalid items) always pass. With a
    `window`, only the ids of the last `window` pages are kept, so memory stays flat over a
    listing of any length (a row that moves further than that is not caught).
    """

    def __init__(self, window: int | None = None) -> None:
        self._page_of: dict[str, int] = {}
        self._window = window
        self._recent: deque[tuple[int, list[str]]] = deque()  # with a window: ids by page
        self.skipped = 0

    def take(self, item_id: object, page: int = 0) -> bool:
        """Whether a row with `item_id` is new (then recorded as seen on `page`); a row
        without a usable id (not a non-empty string) always is."""
        if not isinstance(item_id, str) or not item_id:
            return True
        if item_id in self._page_of:
            self.skipped += 1
            return False
        self._page_of[item_id] = page
        if self._window is not None:
            if not self._recent or self._recent[-1][0] != page:
                self._recent.append((page, []))
                self._forget_old_pages()
            self._recent[-1][1].append(item_id)
        return True

    def _forget_old_pages(self) -> None:
        while self._window is not None and len(self._recent) > self._window:
            page, ids = self._recent.popleft()
            for item_id in ids:
                if self._page_of.get(item_id) == page:
                    del self._page_of[item_id]

    def fresh(self, items: Iterable[AnalysisItem], page: int = 0) -> list[AnalysisItem]:
        """The items not seen before, now recorded as seen on `page`."""
        return [item for item in items if self.take(item.id, page)]

    def fresh_raw(self, objects: Iterable[Any], page: int = 0) -> list[Any]:
        """As `fresh`, for items as parsed from JSON (`RawPage.data`): an object's id is its
        `id` field when that is a non-empty string, as for models."""
        return [obj for obj in objects if self.take(_raw_id(obj), page)]

    def page_of(self, analysis_id: str) -> int | None:
        """The page an id was first seen on, or None."""
        return self._page_of.get(analysis_id)

    def __contains__(self, analysis_id: object) -> bool:
        return analysis_id in self._page_of

    def __len__(self) -> int:
        return len(self._page_of)


def _raw_id(obj: Any) -> object:
    return obj.get("id") if isinstance(obj, dict) else None


class PageRows(NamedTuple, Generic[P]):
    """How the walker reads the rows of one kind of page (models or raw JSON)."""

    fresh: Callable[[P, SeenIds, int], P]  # the page with only rows not seen before
    count: Callable[[P], int]  # how many rows it holds
    head: Callable[[P, int], P]  # the page with its first n rows only


def _models_where(page: AnalysisPage, keep: list[int]) -> AnalysisPage:
    raw = page.raw_items
    parallel = len(raw) == len(page.items)
    return page._replace(
        items=[page.items[i] for i in keep],
        raw_items=[raw[i] for i in keep] if parallel else raw,
    )


def _fresh_models(page: AnalysisPage, seen: SeenIds, number: int) -> AnalysisPage:
    keep = [i for i, item in enumerate(page.items) if seen.take(item.id, number)]
    return page if len(keep) == len(page.items) else _models_where(page, keep)


def _fresh_raw(page: RawPage, seen: SeenIds, number: int) -> RawPage:
    kept = seen.fresh_raw(page.data, number)
    return page if len(kept) == len(page.data) else _raw_where(page, kept)


def _raw_where(page: RawPage, data: list[Any]) -> RawPage:
    return page._replace(data=data)


MODEL_ROWS: PageRows[AnalysisPage] = PageRows(
    _fresh_models, lambda page: len(page.items), lambda p, n: _models_where(p, list(range(n)))
)
RAW_ROWS: PageRows[RawPage] = PageRows(
    _fresh_raw, lambda page: len(page.data), lambda p, n: _raw_where(p, p.data[:n])
)

"""An in-process page source for pagination tests that need no network."""

from __future__ import annotations

from collections.abc import Sequence

from screen_analysis.api.models import AnalysisPage
from screen_analysis.api.parsing import parse_item


def analysis(analysis_id: str) -> dict[str, object]:
    """A minimal valid analysis object."""
    return {"id": analysis_id, "project_id": "proj_1", "status": "pending"}


def page(ids: Sequence[str], next_cursor: str | None, total: int | None = None) -> AnalysisPage:
    """A page holding analyses with these ids."""
    raw = [analysis(i) for i in ids]
    return AnalysisPage(
        items=[parse_item(r) for r in raw],
        next_cursor=next_cursor,
        total=len(ids) if total is None else total,
        raw_items=raw,
    )


class OffsetSource:
    """Serves `ids` in pages of `size`; the cursor is the offset as text."""

    def __init__(self, ids: Sequence[str], size: int) -> None:
        self.ids = list(ids)
        self.size = size
        self.calls: list[str | None] = []

    async def __call__(self, cursor: str | None) -> AnalysisPage:
        self.calls.append(cursor)
        start = int(cursor) if cursor else 0
        end = start + self.size
        following = str(end) if end < len(self.ids) else None
        return page(self.ids[start:end], following, total=len(self.ids))


class ScriptedSource:
    """Serves prepared pages in order, whatever the cursor; records the cursors sent."""

    def __init__(self, pages: Sequence[AnalysisPage]) -> None:
        self.pages = list(pages)
        self.calls: list[str | None] = []

    async def __call__(self, cursor: str | None) -> AnalysisPage:
        self.calls.append(cursor)
        return self.pages[len(self.calls) - 1]

"""The main view's data, headless (no Textual): views, paging, totals, auto-refresh."""

from screen_analysis.tui.feed.feed import Feed
from screen_analysis.tui.feed.kept import KeptCache, KeyState, KeyTrust, unreachable
from screen_analysis.tui.feed.paging import (
    Accepted,
    Listing,
    PageBatch,
    PageLoad,
    Paging,
    Refreshed,
)
from screen_analysis.tui.feed.refresh import RefreshJob, RefreshResult, is_in_flight, newer_than
from screen_analysis.tui.feed.schedule import RefreshSchedule
from screen_analysis.tui.feed.source import PageSource
from screen_analysis.tui.feed.totals import Totals
from screen_analysis.tui.feed.views import PAGE_SIZE, STATUSES, CountCache, ViewKey, empty_words

__all__ = [
    "PAGE_SIZE",
    "STATUSES",
    "Accepted",
    "CountCache",
    "Feed",
    "KeptCache",
    "KeyState",
    "KeyTrust",
    "Listing",
    "PageBatch",
    "PageLoad",
    "PageSource",
    "Paging",
    "RefreshJob",
    "RefreshResult",
    "RefreshSchedule",
    "Refreshed",
    "Totals",
    "ViewKey",
    "empty_words",
    "is_in_flight",
    "newer_than",
    "unreachable",
]

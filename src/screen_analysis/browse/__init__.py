"""The main view's data, headless (no Textual): views, paging, totals, auto-refresh."""

from screen_analysis.browse.pager import Feed
from screen_analysis.browse.paging import (
    Accepted,
    Listing,
    PageBatch,
    PageLoad,
    Paging,
    Refreshed,
)
from screen_analysis.browse.refresh import RefreshJob, RefreshResult, is_in_flight, newer_than
from screen_analysis.browse.schedule import RefreshSchedule
from screen_analysis.browse.totals import Totals
from screen_analysis.browse.views import PAGE_SIZE, STATUSES, CountCache, ViewKey, empty_words
from screen_analysis.cache.kept import KeptCache, KeyState, KeyTrust, unreachable

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

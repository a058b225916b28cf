"""What the app, the command line and the report share about a view, headless (no Textual):
the view (`ViewKey`), a pager per view (`Pager`), the totals per status (`Totals`), the
projects (`Projects`), the auto-refresh's budget and schedule, and the sources of one
connection that build them (`Sources`)."""

from screen_analysis.browse.pager import RELOAD_MAX_ROWS, Pager
from screen_analysis.browse.paging import Page, Paging, Refreshed
from screen_analysis.browse.projects import Projects
from screen_analysis.browse.refresh import RefreshJob, is_in_flight, newer_than
from screen_analysis.browse.schedule import RefreshSchedule
from screen_analysis.browse.sources import Sources
from screen_analysis.browse.totals import CountCache, Counts, Totals
from screen_analysis.browse.views import PAGE_SIZE, STATUSES, ViewKey, empty_words

__all__ = [
    "PAGE_SIZE",
    "RELOAD_MAX_ROWS",
    "STATUSES",
    "CountCache",
    "Counts",
    "Page",
    "Pager",
    "Paging",
    "Projects",
    "RefreshJob",
    "RefreshSchedule",
    "Refreshed",
    "Sources",
    "Totals",
    "ViewKey",
    "empty_words",
    "is_in_flight",
    "newer_than",
]

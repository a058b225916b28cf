"""The projects a view names, headless: where they come from (`Projects`), what is known of
each (`ProjectBook`, `KnownProject`), which are asked for when (`AskQueue`) and which the
local cache gave (`FromCache`)."""

from screen_analysis.browse.projects.asking import AskQueue
from screen_analysis.browse.projects.book import KnownProject, ProjectBook
from screen_analysis.browse.projects.from_cache import FromCache
from screen_analysis.browse.projects.source import Projects

__all__ = ["AskQueue", "FromCache", "KnownProject", "ProjectBook", "Projects"]

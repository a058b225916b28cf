"""The projects a view names, headless: where they come from (`Projects`), what is known of
each (`ProjectBook`, `KnownProject`) and which are asked for when (`AskQueue`)."""

from screen_analysis.browse.projects.asking import AskQueue
from screen_analysis.browse.projects.book import KnownProject, ProjectBook
from screen_analysis.browse.projects.source import Projects

__all__ = ["AskQueue", "KnownProject", "ProjectBook", "Projects"]

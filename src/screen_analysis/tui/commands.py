"""The command palette's actions (Ctrl+P): the main screen's keys, and the projects listed."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content

from screen_analysis.safe_text import clean
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.status_filter import CHOICES

ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("Refresh / retry", "refresh", "Reload the view, or retry what failed (r)"),
    ("Pause / resume auto-refresh", "toggle_auto_refresh", "Pause or resume the auto-refresh (p)"),
    ("Find in loaded rows", "find", "Find by label (/)"),
    ("Add a project by id", "add_project", "Add a project to the sidebar (a)"),
    ("Copy analysis id", "copy_id", "Copy the highlighted analysis's id (y)"),
    ("Copy image URL", "copy_url", "Copy the highlighted analysis's image URL (Y)"),
    ("Open image in browser", "open_image", "Open the image URL (o)"),
    *(
        (f"Filter: {word}", f"status({index})", f"Show {word.lower()} analyses ({index + 1})")
        for index, (_status, word) in enumerate(CHOICES)
    ),
)


def highlight(matcher: Matcher, text: str) -> Content:
    """`text` as literal content with the matched letters styled (never parsed as markup)."""
    content = Content(text)
    _score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets:
        content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class MainCommands(Provider):
    """Actions of the main screen and "Show project: …" for each project listed."""

    def _choices(self) -> list[tuple[str, Callable[[], object], str]]:
        screen = self.screen
        if not isinstance(screen, MainScreen):
            return []
        choices: list[tuple[str, Callable[[], object], str]] = [
            (title, partial(screen.run_action, action), help_text)
            for title, action, help_text in ACTIONS
        ]
        choices.append(("Show all projects", partial(screen.choose_project, None), "All projects"))
        for project_id in screen.sidebar.project_ids:
            known = screen.book.get(project_id)
            name = clean(known.project.name) if known and known.project else clean(project_id)
            choices.append(
                ("Show project: " + name, partial(screen.choose_project, project_id), "Project")
            )
        return choices

    async def discover(self) -> Hits:
        """Every action, before anything is typed."""
        for title, callback, help_text in self._choices():
            yield DiscoveryHit(Content(title), callback, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        """Actions and projects matching `query`."""
        matcher = self.matcher(query)
        for title, callback, help_text in self._choices():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, highlight(matcher, title), callback, text=title, help=help_text)

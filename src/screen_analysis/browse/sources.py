"""What the main view's widgets page, count and list through, for one connection: a pager
per view, the totals, the projects, all asking with the one client holder and keeping what
they bring in the one local cache, read as the key in use may see it (headless)."""

from __future__ import annotations

from screen_analysis.api.current import CurrentClient
from screen_analysis.browse.pager import Pager
from screen_analysis.browse.projects.source import Projects
from screen_analysis.browse.totals import Totals
from screen_analysis.browse.views import PAGE_SIZE, ViewKey
from screen_analysis.cache import LocalCache
from screen_analysis.cache.kept import KeptCache, KeyTrust


class Sources:
    """The headless sources of one connection's main view."""

    def __init__(
        self,
        current: CurrentClient,
        *,
        cache: LocalCache | None = None,
        trust: KeyTrust | None = None,
        page_size: int = PAGE_SIZE,
    ) -> None:
        """Ask with the client `current` holds, `page_size` rows a page; keep what comes in
        `cache` (None, or a cache that cannot be used: nothing is kept) and show what it
        kept as its policy allows (`trust`: whether the key in use was accepted before)."""
        self._current = current
        self._cache = cache if cache is not None and cache.usable else None
        self._kept = KeptCache(self._cache, trust)
        if self._cache is not None:
            # Its kept rows come first: the other parts ask once a pager asks its first page.
            current.hold()
        self._page_size = page_size
        self.totals = Totals(current, self._kept, self._cache)
        self.projects = Projects(current, self._kept, self._cache)

    def read_ahead(self, key: ViewKey) -> None:
        """Begin reading the kept rows of the view about to open, while its screen is
        built: its pager's first look at the cache takes them (call from the event loop).
        Without a cache there are none to draw first: its first page is asked of the server
        now instead, and its pager's first page takes the answer."""
        if self._cache is None:
            self._current.ask_first(key.project_id, key.status, self._page_size)
        else:
            self._kept.read_ahead(key.project_id, key.status)

    async def read_ahead_done(self, within: float) -> None:
        """Wait for the kept rows `read_ahead` began reading, `within` seconds at most."""
        await self._kept.read_ahead_done(within)

    def pager(self) -> Pager:
        """A pager for one view (a table, a tab)."""
        return Pager(self._current, self._kept, cache=self._cache, page_size=self._page_size)

    @property
    def caching(self) -> bool:
        """Whether what is seen is kept in a local cache."""
        return self._cache is not None

    @property
    def offline_cache(self) -> LocalCache | None:
        """The cache for a part that reads it on its own when the server cannot be reached
        (the overview): none once the server refused the key in use."""
        return self._kept.unrefused

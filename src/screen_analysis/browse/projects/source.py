"""The projects the sidebar lists, asked of the server a few at a time and kept in the local
cache, and those the cache kept as the key in use may see them (headless)."""

from __future__ import annotations

import asyncio

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.models import Project
from screen_analysis.cache import LocalCache
from screen_analysis.cache.kept import KeptCache

PROJECT_FETCHES_AT_ONCE = 4


class Projects:
    """Where the sidebar's projects come from."""

    def __init__(
        self, current: CurrentClient, kept: KeptCache, cache: LocalCache | None = None
    ) -> None:
        """Ask with the client `current` holds; tell `kept` what the answers said of the
        key; keep each project in `cache` (None: nothing is kept)."""
        self._current = current
        self._kept = kept
        self._cache = cache
        self._slots = asyncio.Semaphore(PROJECT_FETCHES_AT_ONCE)

    async def fetch_project(self, project_id: str) -> Project:
        """One project (a few at a time; run in a worker)."""
        async with self._slots, self._kept.told():
            client = await self._current.asking()
            project = await client.get_project(project_id)
        if self._cache is not None:
            self._cache.store_project(project)
        return project

    async def kept_projects(self) -> list[Project]:
        """The projects the cache kept, once the key in use may see them (else none)."""
        kept = await self._kept.when_open(self._kept.projects, None)
        return [project for project, _at in kept or ()]

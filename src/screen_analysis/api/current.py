"""The one holder of the client in use.

Parts that ask the server (the main view's pager, totals and projects, the overview, the
image pipeline) keep this holder rather than a client, so a renewed key or a new server
reaches every one of them at once; the app is the only part that replaces the client.

The app hands over how to build the client (`open`) rather than a client: the client (its
modules, its connection pool and TLS context) is built when a part first asks the server,
so a start that paints the rows the local cache kept does so first (docs/performance.md).
A start with no kept rows to paint asks for its view's first page at once instead
(`ask_first`), so the server works on it while the screen is built and drawn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from screen_analysis.api.models import AnalysisPage
from screen_analysis.api.page_rows import MODEL_ROWS
from screen_analysis.api.pagination import PageIterator, Walk, seen_if_failed
from screen_analysis.api.plain_address import read_plain

if TYPE_CHECKING:
    from screen_analysis.api.client import ScreenAnalysisClient
    from screen_analysis.api.image_fetch import ImageBytes


# The longest a part asking at start waits for the view's kept rows to be drawn (`hold`).
START_HOLD_S = 1.0

ListingKey = tuple[str | None, str | None, int]  # a listing's project, status and page size


class NoClientError(RuntimeError):
    """Asked for the client before one was set (nothing is connected yet)."""


class CurrentClient:
    """Holds the client in use; `replace` swaps it and hands back the old one to close."""

    def __init__(self, client: ScreenAnalysisClient | None = None) -> None:
        """Start with `client` (None: not connected yet)."""
        self._client = client
        self._build: Callable[[], ScreenAnalysisClient] | None = None
        self._base_url = ""
        self._held: asyncio.Event | None = None
        self._early: tuple[ListingKey, asyncio.Task[AnalysisPage]] | None = None

    @property
    def client(self) -> ScreenAnalysisClient:
        """The client in use (built now if it was opened and not asked for yet);
        `NoClientError` when none is set."""
        if self._client is None and self._build is not None:
            self._client, self._build = self._build(), None
        if self._client is None:
            raise NoClientError("not connected to a server")
        return self._client

    @property
    def connected(self) -> bool:
        """Whether a client is set (or opened, to be built when first asked for)."""
        return self._client is not None or self._build is not None

    @property
    def base_url(self) -> str:
        """The API's base URL of the client in use ("" when none is set)."""
        return self._client.base_url if self._client is not None else self._base_url

    def iter_pages(
        self, project_id: str | None = None, status: str | None = None, limit: int = 20
    ) -> Walk[AnalysisPage]:
        """The one walk over a listing (as `ScreenAnalysisClient.iter_pages`), each page
        asked of the client in use when it is asked: a key renewed or a client replaced
        between two pages applies to the next one, and the walk goes on where it was."""

        async def fetch(after: str | None) -> AnalysisPage:
            if after is None:
                early = self._take_early((project_id, status, limit))
                if early is not None:
                    return await early
            return await self._list(project_id, status, limit, after)

        return Walk(PageIterator(fetch), MODEL_ROWS)

    async def _list(
        self, project_id: str | None, status: str | None, limit: int, after: str | None
    ) -> AnalysisPage:
        client = await self.asking()
        return await client.list_analyses(project_id, status, limit, after)

    # A first page asked early: the server works on it while the screen is built

    def ask_first(self, project_id: str | None, status: str | None, limit: int) -> None:
        """Ask for a listing's first page now (call from the event loop), before any walk
        does: the next walk over the same listing and page size takes this answer for its
        first page, once. For a start with no kept rows to draw first: the client is built
        and the request sent before the screen, which is built and drawn while the server
        answers. Dropped unread when a first page of another listing of that page size is
        asked first, or the client is replaced."""
        self._drop_early()
        asked = asyncio.get_running_loop().create_task(self._list(project_id, status, limit, None))
        asked.add_done_callback(seen_if_failed)
        self._early = ((project_id, status, limit), asked)

    def _take_early(self, key: ListingKey) -> asyncio.Task[AnalysisPage] | None:
        """The early answer for the first page of `key`, if it is one; an early answer for
        another listing of the same page size is dropped (a view was opened in its place)."""
        early = self._early
        if early is None or early[0][2] != key[2]:  # another page size: a total, not a view
            return None
        self._early = None
        if early[0] == key:
            return early[1]
        early[1].cancel()
        return None

    def _drop_early(self) -> None:
        early, self._early = self._early, None
        if early is not None:
            early[1].cancel()

    def replace(self, client: ScreenAnalysisClient | None) -> ScreenAnalysisClient | None:
        """Use `client` from now on; the previous one (to be closed by the caller)."""
        old, self._client = self._client, client
        self._build, self._base_url = None, ""
        self._drop_early()  # asked of the old client: not an answer of the new one
        return old

    async def open(self, build: Callable[[], ScreenAnalysisClient], base_url: str) -> None:
        """Use the client `build` makes for `base_url` from now on, built when a part first
        asks for it; the one used before is closed now, as `swap` does."""
        await self.swap(None)
        self._build, self._base_url = build, base_url

    async def swap(self, client: ScreenAnalysisClient | None) -> None:
        """Use `client` from now on (None: none) and close the one used before: the one
        way the app changes clients (a new connection, a renewed key, leaving)."""
        old = self.replace(client)
        if old is not None and old is not client:
            await old.aclose()

    async def fetch_image(self, url: str, *, etag: str | None = None) -> ImageBytes:
        """Fetch an image with the client in use (the image pipeline's fetch)."""
        client = await self.asking()
        return await client.fetch_image(url, etag=etag)

    # The start's hold: the kept rows are drawn before a part builds the client

    def hold(self) -> None:
        """Parts that ask through `ready` wait until `release` (at most START_HOLD_S): the
        first view's kept rows reach the screen before any other part builds the client,
        whose imports would hold the event loop while those rows wait to be drawn."""
        if self._held is None:
            self._held = asyncio.Event()

    def release(self) -> None:
        """Asking goes on (the view's first page is asked); nothing when not held."""
        held, self._held = self._held, None
        if held is not None:
            held.set()

    async def ready(self) -> None:
        """Wait while held, at most START_HOLD_S (then the hold is let go for every part)."""
        held = self._held
        if held is None:
            return
        try:
            async with asyncio.timeout(START_HOLD_S):
                await held.wait()
        except TimeoutError:
            self.release()

    async def asking(self) -> ScreenAnalysisClient:
        """The client in use for a request sent now: once the start's hold is let go."""
        await self.ready()
        return self.client

    def api_path(self, url: str) -> str | None:
        """`url`'s path and query when it is on the server of the client in use; None when
        it is elsewhere or no client is set."""
        if self._client is None and self._build is not None:
            # Opened, not built yet: a plain address answers without httpx (a detail drawn
            # in the first frame needs no client); any other is the client's to read.
            address, base = read_plain(url), read_plain(self._base_url)
            if address is not None and base is not None:
                return address.raw_path if address.origin == base.origin else None
        return self.client.api_path(url) if self.connected else None

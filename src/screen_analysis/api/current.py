"""The one holder of the client in use.

Parts that ask the server (the main view's feed, the sidebar, the totals, the overview, the
image pipeline) keep this holder rather than a client, so a renewed key or a new server
reaches every one of them at once; the app is the only part that replaces the client.
"""

from __future__ import annotations

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.image_fetch import ImageBytes


class NoClientError(RuntimeError):
    """Asked for the client before one was set (nothing is connected yet)."""


class CurrentClient:
    """Holds the client in use; `replace` swaps it and hands back the old one to close."""

    def __init__(self, client: ScreenAnalysisClient | None = None) -> None:
        """Start with `client` (None: not connected yet)."""
        self._client = client

    @property
    def client(self) -> ScreenAnalysisClient:
        """The client in use; `NoClientError` when none is set."""
        if self._client is None:
            raise NoClientError("not connected to a server")
        return self._client

    @property
    def connected(self) -> bool:
        """Whether a client is set."""
        return self._client is not None

    def replace(self, client: ScreenAnalysisClient | None) -> ScreenAnalysisClient | None:
        """Use `client` from now on; the previous one (to be closed by the caller)."""
        old, self._client = self._client, client
        return old

    async def fetch_image(self, url: str, *, etag: str | None = None) -> ImageBytes:
        """Fetch an image with the client in use (the image pipeline's fetch)."""
        return await self.client.fetch_image(url, etag=etag)

    def is_api_origin(self, url: str) -> bool:
        """Whether `url` is on the server of the client in use (False when none is)."""
        return self._client is not None and self._client.is_api_origin(url)

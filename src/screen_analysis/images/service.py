"""The image pipeline behind the preview: memory cache, disk cache, fetch, decode.

Headless: it is given the fetch function (the API client's `fetch_image`) and the caches.
Decoding and disk I/O run in threads, so the event loop only waits.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from screen_analysis.images.disk import CachedImage, DiskCache
from screen_analysis.images.memory import PreparedImages

if TYPE_CHECKING:
    from PIL import Image

    from screen_analysis.api.image_fetch import ImageBytes
    from screen_analysis.images.decode import Box

logger = logging.getLogger("screen_analysis.images")


class FetchImage(Protocol):
    """What the pipeline fetches with: `ScreenAnalysisClient.fetch_image`."""

    def __call__(self, url: str, *, etag: str | None = None) -> Awaitable[ImageBytes]:
        """Fetch `url`; a 304 for `etag` answers `not_modified`."""
        ...


class ImageStats:
    """What the pipeline did: how each image was had."""

    def __init__(self) -> None:
        self.memory_hits = 0
        self.disk_hits = 0
        self.fetches = 0
        self.not_modified = 0


class ImagePipeline:
    """Prepared images for a URL at a pixel box; `version` names what the image shows (the
    analysis's status and score), so a changed analysis is asked for again."""

    def __init__(
        self,
        fetch: FetchImage | None,
        *,
        memory: PreparedImages | None = None,
        disk: DiskCache | None = None,
    ) -> None:
        self.fetch = fetch
        self.memory = memory if memory is not None else PreparedImages()
        self.disk = disk
        self.stats = ImageStats()
        self._writes: set[asyncio.Task[None]] = set()

    def cached(self, url: str, version: str, box: Box) -> Image.Image | None:
        """The prepared image when it is in memory (no waiting)."""
        return self.memory.get((url, version, box))

    async def load(self, url: str, version: str, box: Box) -> Image.Image:
        """The image at `url`, scaled to fit `box`. Raises ImageFetchError or
        ImageDecodeError (both have `reason`)."""
        key = (url, version, box)
        image = self.memory.get(key)
        if image is not None:
            self.stats.memory_hits += 1
            return image
        entry = await self._disk_get(url, version)
        if entry is not None and entry.fresh:
            self.stats.disk_hits += 1
            image = await asyncio.to_thread(_prepare, entry.data, box)
        else:
            image = await self._fetch(url, version, box, entry)
        self.memory.put(key, image)
        return image

    async def _fetch(
        self, url: str, version: str, box: Box, entry: CachedImage | None
    ) -> Image.Image:
        if self.fetch is None:
            raise RuntimeError("no connection to fetch images with")
        got = await self.fetch(url, etag=entry.etag if entry is not None else None)
        if got.not_modified and entry is not None:
            self.stats.not_modified += 1
            image = await asyncio.to_thread(_prepare, entry.data, box)
            if self.disk is not None:
                self._write_later(
                    self.disk.refresh, url, etag=got.etag, version=version, max_age_s=got.max_age_s
                )
            return image
        self.stats.fetches += 1
        image = await asyncio.to_thread(_prepare, got.data, box)
        # Kept only once decoded, so a damaged image is never served from disk; written
        # after the picture is handed over (the write syncs to disk, which can be slow).
        if self.disk is not None:
            self._write_later(
                self.disk.put,
                url,
                got.data,
                etag=got.etag,
                version=version,
                max_age_s=got.max_age_s,
            )
        return image

    async def _disk_get(self, url: str, version: str) -> CachedImage | None:
        if self.disk is None:
            return None
        try:
            return await asyncio.to_thread(self.disk.get, url, version)
        except OSError as exc:
            logger.warning("image cache not readable: %s", exc)
            return None

    def _write_later(self, method: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        task = asyncio.create_task(self._disk_write(method, *args, **kwargs))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def drain(self) -> None:
        """Wait for the disk writes under way."""
        while self._writes:
            await asyncio.gather(*self._writes)

    @staticmethod
    async def _disk_write(method: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        try:
            await asyncio.to_thread(method, *args, **kwargs)
        except OSError as exc:  # a cache that cannot be written is only slower
            logger.warning("image cache not writable: %s", exc)


def _prepare(data: bytes, box: Box) -> Image.Image:
    """`decode.prepare`, Pillow imported on the first image (not at start-up); in a thread."""
    from screen_analysis.images.decode import prepare

    return prepare(data, box)

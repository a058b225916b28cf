"""GET /v1/images/{id}.png: each analysis's screen, drawn on demand and kept drawn.

Behind the same gate as the API (key, latency, injected faults), with a strong ETag, a
Cache-Control lifetime and 304 for a matching If-None-Match. Drawing runs in the thread
pool, and a bounded cache keeps a held key in the app from queueing work here.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from screen_analysis.demo.faults import Faults, error_body
from screen_analysis.demo.images import ScreenStory, draw_screen, huge_png, story_etag
from screen_analysis.demo.store import DemoStore

IMAGE_PATH = "/v1/images/{analysis_id}.png"
CACHE_CONTROL = "private, max-age=300"
CACHED_IMAGES = 512
NOT_AN_IMAGE = b"<!doctype html><title>Sign in</title><p>Please sign in to view this image."


def image_url(request: Request, analysis_id: str) -> str:
    """The address of an analysis's image on the origin the request came to."""
    return f"{request.base_url}v1/images/{analysis_id}.png"


class DrawnImages:
    """A bounded, thread-safe LRU of drawn PNGs by ETag."""

    def __init__(self, capacity: int = CACHED_IMAGES) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.draws = 0

    def get(self, story: ScreenStory, etag: str) -> bytes:
        """The PNG for `story`, drawn once."""
        with self._lock:
            if etag in self._items:
                self._items.move_to_end(etag)
                return self._items[etag]
        data = draw_screen(story)
        with self._lock:
            self.draws += 1
            self._items[etag] = data
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
        return data


def _story(analysis: dict[str, object]) -> ScreenStory:
    breakdown = analysis.get("breakdown")
    return ScreenStory(
        analysis_id=str(analysis["id"]),
        label=str(analysis.get("label") or ""),
        breakdown=dict(breakdown) if isinstance(breakdown, dict) else {},
        status=str(analysis.get("status") or ""),
        error=str(analysis["error_message"]) if analysis.get("error_message") else None,
        project_id=str(analysis.get("project_id") or ""),
    )


def _matches(if_none_match: str, etag: str) -> bool:
    candidates = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in candidates or etag in candidates


def _not_found(analysis_id: str) -> Response:
    body = error_body(404, f"No image for analysis {analysis_id!r}", "id")
    return JSONResponse(body, status_code=404)


def image_endpoint(
    store: DemoStore, faults: Faults, drawn: DrawnImages
) -> Callable[[Request], Awaitable[Response]]:
    """The route's handler, bound to the server's data and faults."""

    async def get_image(request: Request) -> Response:
        analysis_id = request.path_params["analysis_id"]
        fault = faults.image_fault
        if fault == "slow":
            await asyncio.sleep(faults.image_slow_ms / 1000)
        analysis = await run_in_threadpool(store.get_analysis, analysis_id)
        if analysis is None or fault == "404":
            return _not_found(analysis_id)
        story = _story(analysis)
        etag = story_etag(story)
        headers = {"etag": etag, "cache-control": CACHE_CONTROL}
        if not fault and _matches(request.headers.get("if-none-match", ""), etag):
            return Response(status_code=304, headers=headers)
        if fault == "not-image":
            return Response(NOT_AN_IMAGE, media_type="image/png", headers=headers)
        if fault == "huge":
            return Response(huge_png(), media_type="image/png", headers=headers)
        data = await run_in_threadpool(drawn.get, story, etag)
        if fault == "corrupt":
            data = data[:64] + bytes(reversed(data[64:]))
        return Response(data, media_type="image/png", headers=headers)

    return get_image

"""The analysed screen of one analysis, scaled to fit its region, aspect kept.

Given an analysis (or None) with `show`. Only the analysis the cursor settles on is
fetched: the load waits `SETTLE_S` in an exclusive worker, so moving on cancels it (a held
key through 200 rows fetches once, at the row where it stops), and a fetch for an analysis
no longer shown is cancelled the same way. A failure is one line in place of the image,
remembered so it is not asked for again in a loop; with images off, the line says why.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from screen_analysis.api.errors import ImageFetchError
from screen_analysis.api.models import Analysis
from screen_analysis.safe_text import clean
from screen_analysis.tui.graphics import Graphics, renderer_class

if TYPE_CHECKING:
    from PIL import Image

    from screen_analysis.api.current import CurrentClient
    from screen_analysis.images.disk import DiskCache
    from screen_analysis.images.service import ImagePipeline
    from screen_analysis.tui.graphics import ImageWidget

SETTLE_S = 0.15
LATE_S = 0.02  # a wake-up later than this means the loop was busy
ImageKey = tuple[str, str, tuple[int, int]]


def _nowhere(url: str) -> str | None:
    return None


class ImagePreviews:
    """What image widgets need: how to draw, the pipeline (None while images are off: Pillow
    is not imported), and which URLs are the API's (set again when the client changes)."""

    def __init__(
        self,
        graphics: Graphics,
        pipeline: ImagePipeline | None,
        api_path: Callable[[str], str | None] = _nowhere,
    ) -> None:
        self.graphics = graphics
        self.pipeline = pipeline
        self.api_path = api_path

    @classmethod
    def made(
        cls, graphics: Graphics, disk: DiskCache | None, current: CurrentClient
    ) -> ImagePreviews:
        """Images fetched with the client `current` holds (kept on `disk`); Pillow and the
        pipeline are imported only when images are drawn."""
        if not graphics.enabled:
            return cls(graphics, None, current.api_path)
        from screen_analysis.images.service import ImagePipeline

        pipeline = ImagePipeline(current.fetch_image, disk=disk)
        return cls(graphics, pipeline, current.api_path)

    def display_url(self, url: str) -> str:
        """`url` as shown: the path alone when it is on the API's own server."""
        path = self.api_path(url) if url else None
        return url if path is None else path + "  (API server)"


def image_version(item: Analysis) -> str:
    """What the picture shows changes with the status and the score."""
    return f"{item.status}:{item.score}"


class ScreenImage(Widget):
    """An analysis's image; one short line when there is none to show."""

    DEFAULT_CSS = """
    ScreenImage {
        width: 1fr;
        height: 1fr;
        align: center top;
        & > .screen-image--note { color: $foreground-muted; width: 1fr; height: auto; }
    }
    """

    def __init__(
        self,
        previews: ImagePreviews | None = None,
        *,
        settle_s: float = SETTLE_S,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """Show images through `previews` (None: no images)."""
        super().__init__(id=id, classes=classes)
        self._previews = previews
        self.settle_s = settle_s
        self._item: Analysis | None = None
        self._wanted: ImageKey | None = None
        self._shown: ImageKey | None = None
        self._failures: dict[ImageKey, str] = {}
        self._picture: ImageWidget | None = None

    @property
    def previews(self) -> ImagePreviews | None:
        """The pipeline and mode in use (None: images are off)."""
        return self._previews

    @property
    def painted_url(self) -> str | None:
        """The address of the picture shown now (None: a note, or nothing)."""
        return self._shown[0] if self._shown is not None else None

    def compose(self) -> ComposeResult:
        """The note line; the picture is mounted once there is one."""
        yield Static("", classes="screen-image--note", markup=False)

    def _note(self, text: str) -> None:
        note = self.query_one(".screen-image--note", Static)
        note.update(Content(text))
        note.display = bool(text)

    def show(self, item: Analysis | None) -> None:
        """Show `item`'s image (None: nothing)."""
        self._item = item
        self._request()

    def on_resize(self) -> None:
        """A new size wants the image prepared for it."""
        self._request()

    def _key(self) -> ImageKey | None:
        previews, item = self.previews, self._item
        if previews is None or item is None or not item.image_url:
            return None
        columns, rows = self.content_size
        if columns < 2 or rows < 1:
            return None
        return item.image_url, image_version(item), previews.graphics.pixel_box(columns, rows)

    def _request(self) -> None:
        previews = self.previews
        if previews is None or previews.pipeline is None or not previews.graphics.enabled:
            # Images off: the one line that says why and what draws them, where they would be.
            why = previews.graphics.reason if previews is not None else ""
            self.display = bool(why) and self._item is not None
            self.styles.height = "auto"  # the line, not the picture's rows
            self._note(why)
            return
        self.display = self._item is not None
        if self._item is None or not self._item.image_url:
            self._wanted = None
            self.workers.cancel_group(self, "screen-image")
            self._clear("" if self._item is None else "no image address")
            return
        key = self._key()
        if key is None or key == self._wanted:
            return
        self._wanted = key
        if key in self._failures:
            self._clear("image unavailable: " + self._failures[key])
            return
        cached = previews.pipeline.cached(*key)
        if cached is not None:
            self._paint(key, cached)
            return
        self._clear("loading image…")
        self._load(key)

    @work(exclusive=True, group="screen-image", exit_on_error=False)
    async def _load(self, key: ImageKey) -> None:
        """Wait for the cursor to settle, then load; cancelled when another is asked for."""
        previews = self.previews
        assert previews is not None and previews.pipeline is not None
        await self._settle()
        try:
            image = await previews.pipeline.load(*key)
        except (ImageFetchError, ValueError) as exc:  # ValueError: ImageDecodeError
            reason = clean(getattr(exc, "reason", str(exc)))
        except RuntimeError as exc:  # no connection yet
            reason = clean(str(exc))
        else:
            if key == self._wanted:
                self._paint(key, image)
            return
        self._failures[key] = reason
        if key == self._wanted:
            self._clear("image unavailable: " + reason)

    @property
    def _app(self) -> App[Any]:
        return self.app

    async def _settle(self) -> None:
        """Sleep `settle_s`; then, while the app still has input queued (a held key the loop
        has not caught up with) or the loop woke late, wait a little more (0.2 s at most),
        so those keys get to cancel this load first."""
        wait = self.settle_s
        for _ in range(11):
            started = time.monotonic()
            await asyncio.sleep(wait)
            late = time.monotonic() - started - wait >= LATE_S
            if not late and not self._app.message_queue_size:
                return
            wait = LATE_S

    def _clear(self, note: str) -> None:
        self._shown = None
        if self._picture is not None:
            self._picture.display = False
        self._note(note)

    def _paint(self, key: ImageKey, image: Image.Image) -> None:
        previews = self.previews
        assert previews is not None
        columns, rows = previews.graphics.cells_for(image.size)
        if self._picture is None:
            renderer = renderer_class(previews.graphics)
            self._picture = renderer(image)
            self.mount(self._picture)
        else:
            self._picture.image = image
        self._picture.styles.width = columns
        self._picture.styles.height = rows
        self._picture.display = True
        self._shown = key
        self._note("")

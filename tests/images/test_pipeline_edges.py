"""The image pipeline and the memory LRU at their edges: a changed image fetched anew though
a stale one is kept, every count past one, the memory it was given, a cache that cannot be
read or written said in the log, and the LRU's bytes after a replacement and an eviction."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from PIL import Image
from tests.api.image_servers import png_bytes

from screen_analysis.api.image_fetch import ImageBytes
from screen_analysis.images.decode import ImageDecodeError, prepare
from screen_analysis.images.disk import CachedImage, DiskCache
from screen_analysis.images.memory import PreparedImages
from screen_analysis.images.service import ImagePipeline


class Server:
    """Answers the current bytes with an ETag of their own; 304 when asked with it."""

    def __init__(self, data: bytes) -> None:
        self.data, self.calls = data, 0

    @property
    def etag(self) -> str:
        return f'"{len(self.data)}"'

    async def __call__(self, url: str, *, etag: str | None = None) -> ImageBytes:
        self.calls += 1
        if etag == self.etag:
            return ImageBytes(url, b"", "", etag, 0, not_modified=True)
        return ImageBytes(url, self.data, "image/png", self.etag, 0)


async def test_a_changed_image_is_fetched_anew_and_a_304_counts_each_time(tmp_path: Path) -> None:
    server = Server(png_bytes((80, 40)))
    pipeline = ImagePipeline(server, disk=DiskCache(tmp_path / "c"))
    await pipeline.load("u", "v1", (40, 40))
    await pipeline.drain()
    server.data = png_bytes((40, 80))  # the picture changed; the kept one is stale (max-age 0)
    assert (await pipeline.load("u", "v2", (40, 40))).size == (20, 40)
    await pipeline.drain()
    for box in ((30, 30), (20, 20)):
        await pipeline.load("u", "v2", box)
        await pipeline.drain()
    assert pipeline.stats.not_modified == 2 and pipeline.stats.fetches == 2


async def test_disk_hits_count_past_one_and_the_given_memory_is_used(tmp_path: Path) -> None:
    disk = DiskCache(tmp_path / "c")
    disk.put("u", png_bytes((80, 40)), etag=None, version="v", max_age_s=600)
    memory = PreparedImages()
    pipeline = ImagePipeline(None, memory=memory, disk=disk)
    for box in ((40, 40), (20, 20)):
        await pipeline.load("u", "v", box)
    assert pipeline.stats.disk_hits == 2 and len(memory) == 2


class BrokenDisk(DiskCache):
    def get(self, url: str, version: str = "") -> CachedImage | None:
        raise OSError("disk gone")

    def put(self, url: str, data: bytes, **options: object) -> None:  # type: ignore[override]
        raise OSError("disk full")


async def test_a_cache_that_cannot_be_read_or_written_is_said_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pipeline = ImagePipeline(Server(png_bytes()), disk=BrokenDisk(tmp_path))
    with caplog.at_level(logging.WARNING):
        await pipeline.load("u", "v", (10, 10))
        await pipeline.drain()
    assert [r.getMessage() for r in caplog.records] == [
        "image cache not readable: disk gone",
        "image cache not writable: disk full",
    ]


def _image(width: int, height: int = 1) -> Image.Image:
    return Image.new("RGB", (width, height))


def test_the_lru_counts_a_replaced_image_once_and_keeps_the_newest_over_budget() -> None:
    memory = PreparedImages(budget_bytes=300)
    memory.put("a", _image(40))
    memory.put("a", _image(50))  # replaced: 150 bytes, not 270
    assert memory.size_bytes == 150 and len(memory) == 1
    memory.put("b", _image(30))
    memory.put("c", _image(25))  # 150 + 90 + 75 > 300: "a", the oldest, goes
    assert memory.get("a") is None and memory.size_bytes == 165 and len(memory) == 2
    memory.put("huge", _image(200))  # alone over the budget: kept, the others go
    assert len(memory) == 1 and memory.get("huge") is not None and memory.size_bytes == 600


def test_the_disk_cache_takes_any_url_and_defaults_to_five_minutes(tmp_path: Path) -> None:
    now = [0.0]
    cache = DiskCache(tmp_path, clock=lambda: now[0])
    odd = "https://x/\ud800.png"  # a lone surrogate, as a server may send
    cache.put(odd, b"bytes", etag=None)
    now[0] = 299
    assert cache.get(odd).fresh  # type: ignore[union-attr]
    now[0] = 300
    assert not cache.get(odd).fresh  # type: ignore[union-attr]


def test_a_record_with_an_etag_that_is_not_text_has_none(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    cache.put("u", b"bytes", etag='"e"')
    record = cache._paths("u")[1]
    record.write_text(record.read_text(encoding="utf-8").replace('"\\"e\\""', "5"), "utf-8")
    entry = cache.get("u")
    assert entry is not None and entry.etag is None


def test_small_writes_are_counted_so_the_cap_holds(tmp_path: Path) -> None:
    root = tmp_path / "c"
    cache = DiskCache(root, max_bytes=2_000)
    for index in range(40):
        cache.put(f"u{index}", bytes(10), etag=None)
    assert sum(p.stat().st_size for p in root.iterdir()) <= 2_000


def test_a_gif_is_decoded_whole_at_one_byte_a_pixel() -> None:
    """17 megapixels of a palette image: 17 MB whole, within what may be decoded whole (a
    count of four bytes a pixel would refuse it)."""
    buffer = io.BytesIO()
    Image.new("P", (4250, 4000)).save(buffer, "GIF")
    assert prepare(buffer.getvalue(), (100, 100)).size == (100, 94)
    error = ImageDecodeError("not an image")
    assert error.reason == "not an image" and str(error) == "not an image"


async def test_without_a_connection_a_miss_says_so() -> None:
    with pytest.raises(RuntimeError, match=r"^no connection to fetch images with$"):
        await ImagePipeline(None).load("u", "v", (10, 10))


async def test_a_304_renews_the_kept_copy_for_the_next_run(tmp_path: Path) -> None:
    asked: list[str] = []

    async def server(url: str, *, etag: str | None = None) -> ImageBytes:
        asked.append(url)
        if etag == '"e"':
            return ImageBytes(url, b"", "", '"e"', 600, not_modified=True)
        return ImageBytes(url, png_bytes((80, 40)), "image/png", '"e"', 0)  # stale at once

    pipeline = ImagePipeline(server, disk=DiskCache(tmp_path / "c"))
    await pipeline.load("https://x/a.png", "v1", (40, 40))
    await pipeline.drain()
    image = await pipeline.load("https://x/a.png", "v2", (40, 40))  # 304: renewed for v2
    assert pipeline.cached("https://x/a.png", "v2", (40, 40)) is image
    assert pipeline.cached("https://x/a.png", "v2", (20, 20)) is None
    await pipeline.load("https://x/a.png", "v2", (40, 40))
    await pipeline.load("https://x/a.png", "v2", (40, 40))
    assert pipeline.stats.memory_hits == 2
    await pipeline.drain()
    entry = DiskCache(tmp_path / "c").get("https://x/a.png", "v2")
    assert entry is not None and entry.fresh and entry.etag == '"e"'
    assert asked == ["https://x/a.png"] * 2

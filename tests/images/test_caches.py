"""The memory LRU, the disk cache (atomic, capped, defensive) and the pipeline over both."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from tests.api.image_servers import png_bytes

from screen_analysis.api.image_fetch import ImageBytes, ImageFetchError
from screen_analysis.images.decode import ImageDecodeError, fit, prepare
from screen_analysis.images.disk import DiskCache
from screen_analysis.images.memory import PreparedImages
from screen_analysis.images.service import ImagePipeline


class FakeFetch:
    """Counts fetches; answers 304 when the validator matches."""

    def __init__(self, data: bytes, etag: str = '"v1"') -> None:
        self.data, self.etag, self.calls = data, etag, 0

    async def __call__(self, url: str, *, etag: str | None = None) -> ImageBytes:
        self.calls += 1
        if etag == self.etag:
            return ImageBytes(url, b"", "", etag, 60, not_modified=True)
        return ImageBytes(url, self.data, "image/png", self.etag, 60)


def test_memory_cache_evicts_least_recently_used() -> None:
    cache = PreparedImages(budget_bytes=3 * 10 * 10 * 3)
    for name in "abc":
        cache.put(name, Image.new("RGB", (10, 10)))
    assert cache.get("a") is not None  # now the most recent
    cache.put("d", Image.new("RGB", (10, 10)))
    assert cache.get("b") is None and cache.get("a") is not None
    assert cache.size_bytes <= cache.budget_bytes


def test_fit_keeps_the_aspect() -> None:
    assert fit((640, 400), (100, 100)) == (100, 62)
    assert fit((234, 480), (100, 100)) == (49, 100)
    assert prepare(png_bytes((400, 200)), (50, 50)).size == (50, 25)


def test_decode_refuses_bombs_and_garbage() -> None:
    from screen_analysis.demo.images import huge_png

    with pytest.raises(ImageDecodeError, match="too large"):
        prepare(huge_png(20_000, 20_000), (10, 10))
    with pytest.raises(ImageDecodeError, match="not an image"):
        prepare(b"<html></html>", (10, 10))
    with pytest.raises(ImageDecodeError, match="damaged"):
        prepare(png_bytes()[:60], (10, 10))


def test_disk_cache_round_trip_and_freshness(tmp_path: Path) -> None:
    now = [1000.0]
    cache = DiskCache(tmp_path / "c", clock=lambda: now[0])
    cache.put("https://x/a.png", b"bytes", etag='"e"', version="completed:80", max_age_s=60)
    entry = cache.get("https://x/a.png", "completed:80")
    assert entry is not None and entry.data == b"bytes" and entry.etag == '"e"' and entry.fresh
    assert not cache.get("https://x/a.png", "pending:None").fresh  # type: ignore[union-attr]
    now[0] += 61
    assert not cache.get("https://x/a.png", "completed:80").fresh  # type: ignore[union-attr]
    assert cache.get("https://x/other.png") is None


@pytest.mark.parametrize("damage", ["record", "bytes", "both"])
def test_damaged_entry_is_a_miss_and_is_removed(tmp_path: Path, damage: str) -> None:
    cache = DiskCache(tmp_path / "c")
    cache.put("u", b"0123456789", etag=None)
    record, data = next((tmp_path / "c").glob("*.json")), next((tmp_path / "c").glob("*.img"))
    if damage in ("record", "both"):
        record.write_text("{not json", encoding="utf-8")
    if damage in ("bytes", "both"):
        data.write_bytes(b"01234")
    assert cache.get("u") is None
    assert list((tmp_path / "c").iterdir()) == []


def test_disk_cache_stays_under_its_cap(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path / "c", max_bytes=5_000)
    for index in range(20):
        cache.put(f"u{index}", bytes(1000), etag=None)
    total = sum(p.stat().st_size for p in (tmp_path / "c").iterdir())
    assert total <= 5_000
    assert cache.get("u19") is not None  # the newest stay


def test_unwritable_cache_dir_is_only_slower(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = DiskCache(blocker / "images")
    assert cache.get("u") is None
    with pytest.raises(OSError):
        cache.put("u", b"x", etag=None)


async def test_pipeline_reuses_memory_then_disk_across_runs(tmp_path: Path) -> None:
    fetch = FakeFetch(png_bytes((80, 40)))
    first = ImagePipeline(fetch, disk=DiskCache(tmp_path / "c"))
    image = await first.load("https://x/a.png", "v", (40, 40))
    assert image.size == (40, 20) and fetch.calls == 1
    await first.load("https://x/a.png", "v", (40, 40))
    assert first.stats.memory_hits == 1 and fetch.calls == 1
    await first.drain()
    second = ImagePipeline(fetch, disk=DiskCache(tmp_path / "c"))  # the next run
    await second.load("https://x/a.png", "v", (20, 20))
    assert second.stats.disk_hits == 1 and fetch.calls == 1


async def test_pipeline_revalidates_a_stale_entry(tmp_path: Path) -> None:
    fetch = FakeFetch(png_bytes())
    pipeline = ImagePipeline(fetch, disk=DiskCache(tmp_path / "c"))
    await pipeline.load("https://x/a.png", "pending:None", (10, 10))
    await pipeline.drain()
    await pipeline.load("https://x/a.png", "completed:90", (10, 10))  # the analysis changed
    assert fetch.calls == 2 and pipeline.stats.not_modified == 1


async def test_pipeline_never_keeps_what_does_not_decode(tmp_path: Path) -> None:
    fetch = FakeFetch(png_bytes()[:60])
    pipeline = ImagePipeline(fetch, disk=DiskCache(tmp_path / "c"))
    with pytest.raises(ImageDecodeError):
        await pipeline.load("https://x/a.png", "v", (10, 10))
    assert not (tmp_path / "c").exists() or list((tmp_path / "c").glob("*")) == []


async def test_pipeline_passes_fetch_errors_through(tmp_path: Path) -> None:
    async def failing(url: str, *, etag: str | None = None) -> ImageBytes:
        raise ImageFetchError("HTTP 404")

    with pytest.raises(ImageFetchError, match="HTTP 404"):
        await ImagePipeline(failing).load("https://x/a.png", "v", (10, 10))

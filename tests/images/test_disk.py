"""The disk cache at its edges: where it lives, a 304 renewing an entry, the least recently
used going first down to nine tenths of the cap, and half-written entries cleared quietly."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.hostile_files import read_only_folder

from screen_analysis.images.disk import DiskCache


def test_the_cache_lives_in_the_users_cache_dir() -> None:
    expected = Path(os.environ["XDG_CACHE_HOME"]) / "screen-analysis" / "images"
    assert DiskCache().root == expected


def test_a_304_renews_the_entry_and_keeps_its_validator(tmp_path: Path) -> None:
    now = [1000.0]
    cache = DiskCache(tmp_path, clock=lambda: now[0])
    cache.put("u", b"bytes", etag='"v1"', version="completed:70", max_age_s=60)
    now[0] += 120
    assert not cache.get("u", "completed:80").fresh  # type: ignore[union-attr]
    cache.refresh("u", etag=None, version="completed:80", max_age_s=60)
    entry = cache.get("u", "completed:80")
    assert entry is not None and entry.fresh and entry.etag == '"v1"' and entry.data == b"bytes"
    cache.refresh("missing", etag='"x"', version="v", max_age_s=60)  # nothing to renew
    assert cache.get("missing") is None


def _entries(cache: DiskCache, count: int) -> dict[str, Path]:
    records = {}
    for index in range(count):
        url = f"u{index}"
        cache.put(url, bytes(1000), etag=None)
        record = cache._paths(url)[1]
        os.utime(record, (1_000_000 + index, 1_000_000 + index))  # older first
        records[url] = record
    return records


def _size(root: Path) -> int:
    return sum(path.stat().st_size for path in root.iterdir())


def test_pruning_stops_at_nine_tenths_of_the_cap_met_exactly(tmp_path: Path) -> None:
    root = tmp_path / "images"
    cache = DiskCache(root, max_bytes=10**9)
    _entries(cache, 3)
    cache.max_bytes = _size(root) / 0.9  # the entries fill nine tenths exactly
    cache.prune()
    assert len(list(root.glob("*.json"))) == 3


def test_the_least_recently_used_go_first(tmp_path: Path) -> None:
    root = tmp_path / "images"
    cache = DiskCache(root, max_bytes=10**9)
    records = _entries(cache, 3)
    assert cache.get("u0") is not None  # read: now the most recently used
    one = _size(root) // 3
    cache.max_bytes = 2 * one  # two entries would pass 90 % of it: one stays
    cache.prune()
    assert [url for url, record in records.items() if record.exists()] == ["u0"]


def test_an_entry_whose_bytes_are_gone_is_a_quiet_miss(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=10**9)
    records = _entries(cache, 2)
    records["u1"].with_suffix(".img").unlink()
    cache.max_bytes = 1  # prune everything it can count
    cache.prune()
    assert not records["u0"].exists()
    cache.max_bytes = 10**9
    cache.put("u2", b"x", etag=None)
    cache._paths("u2")[0].unlink()
    assert cache.get("u2") is None and not cache._paths("u2")[1].exists()


def test_a_cache_filled_to_its_cap_exactly_keeps_every_entry(tmp_path: Path) -> None:
    def fill(root: Path, cap: int) -> DiskCache:
        cache = DiskCache(root, max_bytes=cap, clock=lambda: 1000.0)
        cache.put("a", b"A" * 300, etag=None)
        cache.put("b", b"B" * 300, etag=None)
        return cache

    sizes = [p.stat().st_size for p in fill(tmp_path / "measure", 10**6).root.iterdir()]
    at_cap = fill(tmp_path / "exact", sum(sizes))
    assert at_cap.get("a") is not None and at_cap.get("b") is not None
    over = fill(tmp_path / "over", sum(sizes) - 1)
    assert sum(p.stat().st_size for p in over.root.iterdir()) <= (sum(sizes) - 1) * 0.9


def test_a_cache_on_a_read_only_file_system_still_serves_what_it_holds(tmp_path: Path) -> None:
    """A kept image is marked as used by its record's time; where that cannot be written
    (a cache shared read-only), the image is still given."""
    cache = DiskCache(tmp_path / "cache", clock=lambda: 1000.0)
    cache.put("u", b"bytes", etag='"v1"')
    with read_only_folder(cache.root):
        entry = cache.get("u")
    assert entry is not None and entry.data == b"bytes" and entry.etag == '"v1"'

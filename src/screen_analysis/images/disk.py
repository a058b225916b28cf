"""The on-disk image cache: in the user cache dir, size-capped, reused across runs.

Each entry is two files named by the SHA-256 of the URL: the bytes (`.img`) and a small JSON
record (`.json`) with the URL, the validator (ETag), the version it was fetched for, when,
its lifetime and a digest of the bytes. Both are written atomically; the record goes last,
so it never points at bytes that are not there. Reading is defensive: a record that does
not parse, names another URL or does not match its bytes is a miss, and is removed.
All methods do file I/O: callers run them off the event loop.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import platformdirs

from screen_analysis.user_files import write_atomic

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_AGE_S = 300.0


def default_cache_dir() -> Path:
    """`images/` in the user cache dir (e.g. ~/.cache/screen-analysis/images)."""
    root = platformdirs.user_cache_dir("screen-analysis", appauthor=False)
    return Path(root) / "images"


class CachedImage(NamedTuple):
    """An entry read back: the bytes, their validator, and whether they may be used as is."""

    data: bytes
    etag: str | None
    fresh: bool


class DiskCache:
    """Image bytes by URL, at most `max_bytes` on disk (least recently used go first)."""

    def __init__(
        self,
        root: Path | None = None,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.root = root if root is not None else default_cache_dir()
        self.max_bytes = max_bytes
        self._clock = clock
        self._size: int | None = None  # bytes on disk as last counted, plus writes since

    def _paths(self, url: str) -> tuple[Path, Path]:
        name = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()
        return self.root / f"{name}.img", self.root / f"{name}.json"

    def get(self, url: str, version: str = "") -> CachedImage | None:
        """The entry for `url`, or None (absent or damaged). `fresh` when it was fetched for
        the same `version` and its lifetime has not run out."""
        data_path, record_path = self._paths(url)
        try:
            record = json.loads(record_path.read_text(encoding="utf-8"))
            data = data_path.read_bytes()
            valid = (
                isinstance(record, dict)
                and record.get("url") == url
                and record.get("sha256") == hashlib.sha256(data).hexdigest()
            )
        except (OSError, ValueError, UnicodeDecodeError):
            valid, record, data = False, None, b""
        if not valid:
            if record_path.exists() or data_path.exists():
                self._remove(url)
            return None
        assert isinstance(record, dict)
        etag = record.get("etag") if isinstance(record.get("etag"), str) else None
        stored, max_age = record.get("stored"), record.get("max_age")
        age_ok = (
            isinstance(stored, int | float)
            and isinstance(max_age, int | float)
            and 0 <= self._clock() - stored < max_age
        )
        with contextlib.suppress(OSError):
            record_path.touch()  # recently used: pruned last
        return CachedImage(data, etag, fresh=age_ok and record.get("version") == version)

    def put(
        self,
        url: str,
        data: bytes,
        *,
        etag: str | None,
        version: str = "",
        max_age_s: float | None = None,
    ) -> None:
        """Store `data` for `url`, then prune to the size cap. Errors are the caller's to
        ignore: a cache that cannot be written is only slower."""
        data_path, record_path = self._paths(url)
        record = {
            "url": url,
            "etag": etag,
            "version": version,
            "stored": self._clock(),
            "max_age": DEFAULT_MAX_AGE_S if max_age_s is None else max_age_s,
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        text = json.dumps(record)
        # A cache lost to a power cut is only fetched again: no fsync.
        write_atomic(data_path, data, sync=False)
        write_atomic(record_path, text, sync=False)
        if self._size is not None:
            self._size += len(data) + len(text)
        # Counting every file on each write would cost more than the write: count only at
        # the first write and when the running total says the cap may be passed.
        if self._size is None or self._size > self.max_bytes:
            self.prune()

    def refresh(self, url: str, *, etag: str | None, version: str, max_age_s: float | None) -> None:
        """A 304 confirmed the stored bytes: renew the record's time and version."""
        entry = self.get(url)
        if entry is not None:
            self.put(url, entry.data, etag=etag or entry.etag, version=version, max_age_s=max_age_s)

    def _remove(self, url: str) -> None:
        for path in self._paths(url):
            with contextlib.suppress(OSError):
                path.unlink()

    def prune(self) -> None:
        """Remove least recently used entries until the cache fits in `max_bytes`."""
        try:
            records = list(self.root.glob("*.json"))
        except OSError:
            return
        entries: list[tuple[float, int, Path]] = []
        for record in records:
            data = record.with_suffix(".img")
            with contextlib.suppress(OSError):
                size = data.stat().st_size + record.stat().st_size
                entries.append((record.stat().st_mtime, size, record))
        total = sum(size for _mtime, size, _path in entries)
        # Down to 90 % of the cap, so the next writes do not each trigger a count.
        for _mtime, size, record in sorted(entries):
            if total <= self.max_bytes * 0.9:
                break
            for path in (record, record.with_suffix(".img")):
                with contextlib.suppress(OSError):
                    path.unlink()
            total -= size
        self._size = total

"""The keys a scope's server accepted, as the main view asks (`tui.feed.KeyTrust`): the
cache of a server is painted before it answers only for a key it accepted before. Kept as
digests (the scope and the key through SHA-256), never the key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from screen_analysis.cache.reads import CacheScope
from screen_analysis.cache.store import LocalCache
from screen_analysis.secret import SecretStr


def key_digest(scope: CacheScope, key: SecretStr) -> str:
    """What the cache keeps of `key` for `scope`: not the key, and not the same for another
    server or profile."""
    text = "\0".join(("screen-analysis cache key 1", *scope, key.get_secret_value()))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class KeptKeys:
    """Whether the server accepted the key in use before, and remembering what it says of
    it; the key is read at each call (a renewed key is the new one)."""

    def __init__(self, cache: LocalCache, key: Callable[[], SecretStr | None]) -> None:
        """Keep in `cache` what its server says of the key `key()` gives."""
        self._cache = cache
        self._key = key

    def _digest(self) -> str | None:
        key = self._key()
        return None if key is None else key_digest(self._cache.scope, key)

    def known(self) -> bool:
        """Whether the server accepted the key in use before (read from a thread)."""
        digest = self._digest()
        return digest is not None and self._cache.key_known(digest)

    def accepted(self) -> None:
        """The server accepted the key in use."""
        if (digest := self._digest()) is not None:
            self._cache.key_accepted(digest)

    def refused(self) -> None:
        """The server refused the key in use."""
        if (digest := self._digest()) is not None:
            self._cache.key_refused(digest)

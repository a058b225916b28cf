"""Whether the main view may show what the local cache kept of its server: a refused key
never sees that server's cache, and a key the server never accepted does not see it before
the server has answered.

The cache is painted before the first answer (stale-while-revalidate) only when `KeyTrust`
says this server accepted the key in use before (a fingerprint kept with the cache, never
the key). Otherwise the main view waits for the first answer: accepted, and the cache may
stand in from then on; the server cannot be reached (refused connection, DNS, timeout,
TLS), and the cache stands in offline (no key was refused); the key is refused, and the
cache stays shut for the run (a new key the server accepts opens it again).

Headless (no Textual): the feed holds one `KeptCache` and reports each outcome to it; the
widgets ask it before they show anything the cache kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Protocol, TypeVar

from screen_analysis.api.errors import APIConnectionError, AuthenticationError
from screen_analysis.api.models import Project
from screen_analysis.cache import CachedView, LocalCache
from screen_analysis.cache.rows import skipped_words
from screen_analysis.tui.feed.views import ViewKey

T = TypeVar("T")


class KeyTrust(Protocol):
    """What the cache remembers of the keys its server accepted (fingerprints, never keys)."""

    def known(self) -> bool:
        """Whether this server accepted the key in use before (read it from a thread)."""

    def accepted(self) -> None:
        """The server accepted the key in use: remember it (never blocks)."""

    def refused(self) -> None:
        """The server refused the key in use: forget it (never blocks)."""


def unreachable(error: BaseException) -> bool:
    """Whether `error` means the server cannot be reached now (refused, DNS, timeout, TLS):
    the cases where the cache stands in. A refused key never is, nor an answer that began
    and broke off (cut short, reset, too slow): that server is there, and says why."""
    return isinstance(error, APIConnectionError) and not error.answered


class KeyState(enum.Enum):
    """What the server said of the key in use so far in this run."""

    UNKNOWN = "unknown"  # nothing yet
    ACCEPTED = "accepted"  # a request of this key was answered
    UNREACHABLE = "unreachable"  # no answer at all: no key was refused
    REFUSED = "refused"  # 401/403: the cache stays shut


class KeptCache:
    """The local cache as the main view may show it: shut until the key in use may see it
    (see the module), and read from a thread."""

    def __init__(self, cache: LocalCache | None, trust: KeyTrust | None = None) -> None:
        """Read `cache` (None: nothing is kept); ask `trust` whether the key was accepted
        before (None: nothing is known of earlier runs, so the cache waits for the first
        answer)."""
        self.cache = cache
        self._trust = trust
        self._known: bool | None = None  # `trust.known()`, asked once
        self.state = KeyState.UNKNOWN
        self.epoch = 0  # moves on at each refusal: a read begun before it is not shown
        self._decided = asyncio.Event()

    @property
    def unrefused(self) -> LocalCache | None:
        """The cache for a part that reads it on its own when the server cannot be reached
        (the overview): none once the server refused the key in use."""
        return None if self.state is KeyState.REFUSED else self.cache

    @property
    def open(self) -> bool:
        """Whether what the cache kept may be shown now (may ask `trust`: call it from a
        thread while `state` is unknown)."""
        if self.cache is None or self.state is KeyState.REFUSED:
            return False
        if self.state is not KeyState.UNKNOWN:
            return True
        if self._known is None:
            self._known = self._trust is not None and self._trust.known()
        return self._known

    async def opened(self) -> bool:
        """Wait until the cache may be shown (True), or will not be now (False: no cache,
        or the first answer was not the key's acceptance nor no server at all)."""
        if self.cache is None:
            return False
        if await asyncio.to_thread(lambda: self.open):
            return True
        await self._decided.wait()
        return self.open

    async def when_open(self, read: Callable[[], T], shut: T) -> T:
        """What `read` (one of the reads below, run in a thread) finds, once the cache may
        be shown; `shut` when it may not, or when the key was refused while it read."""
        epoch = self.epoch
        if await self.opened():
            found = await asyncio.to_thread(read)
            if self.still_open(epoch):
                return found
        return shut

    @contextlib.asynccontextmanager
    async def told(self) -> AsyncIterator[None]:
        """Around a request of the key in use: its outcome says what the key is."""
        try:
            yield
        except Exception as error:
            self.failed(error)
            raise
        self.answered()

    def answered(self) -> None:
        """A request of the key in use was answered: it is accepted."""
        if self.state is not KeyState.ACCEPTED:
            self.state = KeyState.ACCEPTED
            self._decided.set()
            if self._trust is not None and not self._known:
                self._known = True
                self._trust.accepted()

    def failed(self, error: BaseException) -> None:
        """A request failed: a refused key shuts the cache; no server at all opens it (an
        unchecked key is not a refused one); any other failure leaves it as it was."""
        if isinstance(error, AuthenticationError):
            self.refuse()
        elif unreachable(error) and self.state is KeyState.UNKNOWN:
            self.state = KeyState.UNREACHABLE
        self._decided.set()

    def refuse(self) -> None:
        """The key in use was refused: nothing of the cache is shown from now on, and
        what a read begun before brings is dropped."""
        if self.state is not KeyState.REFUSED:
            self.epoch += 1
            self.state = KeyState.REFUSED
            self._known = False
            self._decided.set()
            if self._trust is not None:
                self._trust.refused()

    def still_open(self, epoch: int) -> bool:
        """Whether a read begun at `epoch` may be shown (no refusal since, and open)."""
        return epoch == self.epoch and self.state is not KeyState.REFUSED

    @staticmethod
    def skipped_note(view: CachedView) -> str | None:
        """What to tell of the rows of `view` the cache could not read (left out); None
        when every row was read."""
        return skipped_words(view.skipped) if view.skipped else None

    # Reads (from a thread; nothing while shut)

    def view(self, key: ViewKey) -> CachedView | None:
        """The view as it was last seen, or None (shut, never kept)."""
        if self.cache is None or not self.open:
            return None
        return self.cache.view(key.project_id, key.status)

    def matching(self, key: ViewKey) -> CachedView | None:
        """Offline: the view if it was kept, else the kept rows of its project's unfiltered
        view that have its status."""
        if self.cache is None or not self.open:
            return None
        return self.cache.view(key.project_id, key.status) or self.cache.matching(
            key.project_id, key.status
        )

    def projects(self) -> list[tuple[Project, datetime]]:
        """The projects kept, each with when it was fetched ([] while shut)."""
        if self.cache is None or not self.open:
            return []
        return self.cache.projects()

    def totals(self, project_id: str | None) -> dict[str | None, tuple[int, datetime]]:
        """The totals kept for a project's status filters ({} while shut)."""
        if self.cache is None or not self.open:
            return {}
        return self.cache.totals(project_id)

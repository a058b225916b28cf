"""The local cache's policy: which key may see what the cache kept of its server. A refused
key never sees that server's cache, and a key the server never accepted does not see it
before the server has answered.

The cache is painted before the first answer (stale-while-revalidate) only when `KeyTrust`
says this server accepted the key in use before (a fingerprint kept with the cache, never
the key). Otherwise the main view waits for the first answer: accepted, and the cache may
stand in from then on; the server cannot be reached (refused connection, DNS, timeout,
TLS), and the cache stands in offline (no key was refused); the key is refused, and the
cache stays shut for the run (a new key the server accepts opens it again).

Headless (no Textual): the main view's sources (`browse.Sources`) hold one `KeptCache` and
report each outcome to it, and read what they show through it. The command line's
`--offline` sends no request, which the policy reads as no server at all
(`KeptCache.offline`): what is kept may be read, as in the app when the server cannot be
reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import NamedTuple, Protocol, TypeVar

from screen_analysis.api.errors import APIConnectionError, AuthenticationError
from screen_analysis.api.models import Project
from screen_analysis.api.pagination import seen_if_failed
from screen_analysis.cache import CachedView, LocalCache
from screen_analysis.cache.rows import skipped_words

T = TypeVar("T")


class _ReadAhead(NamedTuple):
    """A view's kept rows being read before the screen that shows them asks."""

    view: tuple[str | None, str | None]
    epoch: int
    read: asyncio.Future[CachedView | None]


def _settle(asking: asyncio.Future[bool], known: bool) -> None:
    if not asking.done():
        asking.set_result(known)


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
        self._ahead: _ReadAhead | None = None  # the first view's rows, read early
        self._read_early = False  # once per cache: what comes later is read when asked
        self._asking: asyncio.Future[bool] | None = None  # `trust.known()` under way

    @classmethod
    def offline(cls, cache: LocalCache) -> KeptCache:
        """The cache as a reader that sends no request sees it (the command line's
        `--offline`): as when the server cannot be reached, with no key refused."""
        kept = cls(cache)
        kept.state = KeyState.UNREACHABLE
        kept._decided.set()
        return kept

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
        await self._ask_trust()
        if self.open:
            return True
        await self._decided.wait()
        return self.open

    async def _ask_trust(self) -> None:
        """While nothing is known of the key in use, ask `trust` about it: once, in a
        thread, however many parts ask at once (each then reads `open` without blocking)."""
        if self._known is not None or self.state is not KeyState.UNKNOWN:
            return
        if self._trust is None:
            self._known = False
            return
        if self._asking is None:
            self._asking = asyncio.ensure_future(asyncio.to_thread(self._trust.known))
        known = await asyncio.shield(self._asking)
        if self._known is None:  # an answer meanwhile (accepted, refused) says more
            self._known = known

    async def when_open(self, read: Callable[[], T], shut: T) -> T:
        """What `read` (one of the reads below, run in a thread) finds, once the cache may
        be shown; `shut` when it may not, or when the key was refused while it read."""
        epoch = self.epoch
        if await self.opened():
            found = await asyncio.to_thread(read)
            if self.still_open(epoch):
                return found
        return shut

    async def read_now(self, read: Callable[[], T], shut: T) -> T:
        """What `read` (one of the reads below, run in a thread) finds now, without waiting
        for the first answer: `shut` when the key was refused while it read."""
        epoch = self.epoch
        found = await asyncio.to_thread(read)
        return found if self.still_open(epoch) else shut

    def read_ahead(self, project_id: str | None, status: str | None) -> None:
        """Begin reading a view's kept rows in a thread now (the view a screen opens on,
        while the screen is built): the first `view_now` of that view takes what it found.
        Once per run, and only with a cache; call it from the event loop."""
        if self.cache is None or self._read_early:
            return
        self._read_early = True
        cache, trust = self.cache, self._trust
        if trust is None or self._known is not None or self.state is not KeyState.UNKNOWN:
            read = asyncio.ensure_future(asyncio.to_thread(self.view, project_id, status))
        else:  # what `trust` says is asked in the same thread, and told to `_ask_trust`
            loop = asyncio.get_running_loop()
            asking = self._asking = loop.create_future()

            def known_then_view() -> CachedView | None:
                known = False
                try:
                    known = trust.known()
                finally:  # the parts waiting for it are told, whatever came of it
                    loop.call_soon_threadsafe(_settle, asking, known)
                return cache.view(project_id, status) if known else None

            read = asyncio.ensure_future(asyncio.to_thread(known_then_view))
        read.add_done_callback(seen_if_failed)  # dropped unread: its failure is not "unseen"
        self._ahead = _ReadAhead((project_id, status), self.epoch, read)

    async def read_ahead_done(self, within: float) -> None:
        """Wait for the read `read_ahead` began, `within` seconds at most (never raises)."""
        if self._ahead is not None:
            await asyncio.wait({self._ahead.read}, timeout=within)

    async def view_now(self, project_id: str | None, status: str | None) -> CachedView | None:
        """The view's kept rows now, without waiting for the first answer (None: shut,
        never kept, or the key was refused while they were read); read ahead, if it was."""
        ahead, self._ahead, self._read_early = self._ahead, None, True
        if ahead is not None and ahead.view == (project_id, status):
            found = await ahead.read
            await self._ask_trust()  # what the read found of the key, taken
            return found if self.still_open(ahead.epoch) and self.open else None
        await self._ask_trust()
        return await self.read_now(lambda: self.view(project_id, status), None)

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

    def view(self, project_id: str | None, status: str | None) -> CachedView | None:
        """The view of a project (None: all) and status (None: all) as it was last seen,
        or None (shut, never kept)."""
        if self.cache is None or not self.open:
            return None
        return self.cache.view(project_id, status)

    def matching(self, project_id: str | None, status: str | None) -> CachedView | None:
        """Offline: the view if it was kept, else the kept rows of its project's unfiltered
        view that have its status."""
        if self.cache is None or not self.open:
            return None
        return self.cache.view(project_id, status) or self.cache.matching(project_id, status)

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

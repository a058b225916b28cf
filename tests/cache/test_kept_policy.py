"""The cache's policy (`cache.kept.KeptCache`): which key may see what the cache kept, for
the app and for the command line's `--offline` alike, against a real cache file holding a
page of the reference server."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.cache.conftest import pages

from screen_analysis.api.errors import APIConnectionError, APIError, AuthenticationError
from screen_analysis.api.models import AnalysisItem, Project
from screen_analysis.api.parsing import parse_item
from screen_analysis.cache import CachedView, CacheScope, LocalCache
from screen_analysis.cache.kept import KeptCache, KeyState, unreachable
from screen_analysis.cache.keys import KeptKeys, key_digest
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


def kept_page(tmp_path: Path, server: DemoServer) -> LocalCache:
    cache = LocalCache(CacheScope("http://127.0.0.1:1", ""), path=tmp_path / "c.sqlite3")
    (items, total, done), *_ = pages(server, 1)
    cache.store_page(None, None, items, total=total, done=done, first=True)
    cache.flush()
    return cache


def test_a_key_not_known_sees_nothing_before_an_answer_and_a_refused_one_never(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    cache = kept_page(tmp_path, keyed_server)
    try:
        kept = KeptCache(cache)
        assert not kept.open and kept.view(None, None) is None
        kept.answered()
        view = kept.view(None, None)
        assert view is not None and view.items
        kept.failed(AuthenticationError("no", status_code=401, request="GET /v1/analyses"))
        assert kept.state is KeyState.REFUSED and kept.view(None, None) is None
        assert kept.unrefused is None
    finally:
        cache.close()


def test_the_command_lines_offline_reads_what_the_app_shows_offline(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    """`--offline` sends no request: the policy reads that as no server at all, where the
    app shows what is kept (no key was refused)."""
    cache = kept_page(tmp_path, keyed_server)
    try:
        kept = KeptCache.offline(cache)
        assert kept.open and kept.unrefused is cache
        view = kept.view(None, None)
        assert view is not None and len(view.items) > 0
        assert kept.matching(None, "completed") is not None
    finally:
        cache.close()


# The policy step by step, against a real cache holding views of its own (no server needed):
# a key the server accepted in an earlier run, the first answer awaited, a refusal while a
# read is under way, and what is read through the policy.

SCOPE = CacheScope("https://kept.example.test", "work")
KEY = SecretStr("sk-test-kept-not-real")


def analysis(ident: str, status: str, project: str = "p1") -> AnalysisItem:
    return parse_item({"id": ident, "project_id": project, "status": status})


@pytest.fixture
def filled(tmp_path: Path) -> Iterator[LocalCache]:
    """Views of project p1 (unfiltered, and its failed ones) and of all projects; totals."""
    cache = LocalCache(SCOPE, path=tmp_path / "c.sqlite3")
    whole = [analysis("a1", "failed"), analysis("a2", "completed")]
    cache.store_page("p1", None, whole, total=2, done=True, first=True)
    cache.store_page("p1", "failed", [analysis("f1", "failed")], total=1, done=True, first=True)
    cache.store_page(None, None, [analysis("b1", "failed", "p2")], total=1, done=True, first=True)
    cache.store_totals("p1", {None: 2})
    cache.store_totals(None, {None: 3})
    cache.store_project(Project.model_validate({"id": "p1", "name": "One"}))
    cache.flush()
    yield cache
    cache.close()


def ids(view: CachedView | None) -> list[str | None] | None:
    return None if view is None else [i.id for i in view.items]


REFUSED = AuthenticationError("no", status_code=401, request="GET /v1/analyses")
NO_SERVER = APIConnectionError("refused", request="GET /v1/analyses")
BROKEN_OFF = APIConnectionError("reset", request="GET /v1/analyses", answered=True)
SERVER_ERROR = APIError("boom", status_code=500, request="GET /v1/analyses")


async def test_a_key_its_server_accepted_before_sees_the_cache_before_any_answer(
    filled: LocalCache,
) -> None:
    keys = KeptKeys(filled, lambda: KEY)
    keys.accepted()  # an earlier run
    filled.flush()
    kept = KeptCache(filled, keys)
    assert kept.open and kept.state is KeyState.UNKNOWN
    assert await asyncio.wait_for(kept.opened(), 10)
    read = await asyncio.wait_for(kept.when_open(lambda: kept.view("p1", None), None), 10)
    assert ids(read) == ["a1", "a2"]


async def test_an_unknown_key_is_remembered_once_its_server_answers(filled: LocalCache) -> None:
    keys = KeptKeys(filled, lambda: KEY)
    kept = KeptCache(filled, keys)
    assert not kept.open and kept.view("p1", None) is None
    kept.answered()
    assert kept.state is KeyState.ACCEPTED and kept.open
    assert await asyncio.wait_for(kept.opened(), 10)
    filled.flush()
    assert keys.known(), "the next run paints the cache before the answer"
    assert KeptCache(filled, keys).open


async def test_no_cache_is_never_open() -> None:
    kept = KeptCache(None)
    kept.answered()
    assert not kept.open and not await asyncio.wait_for(kept.opened(), 10)
    assert await kept.when_open(lambda: "read", "shut") == "shut"
    assert kept.view(None, None) is None and kept.matching(None, None) is None
    assert kept.projects() == [] and kept.totals(None) == {}


@pytest.mark.parametrize(
    ("error", "state", "shown"),
    [
        (NO_SERVER, KeyState.UNREACHABLE, True),  # offline: what is kept stands in
        (BROKEN_OFF, KeyState.UNKNOWN, False),  # the server is there: it says why
        (SERVER_ERROR, KeyState.UNKNOWN, False),
        (REFUSED, KeyState.REFUSED, False),
    ],
    ids=["no-server", "answer-broken-off", "server-error", "refused"],
)
async def test_the_first_answer_decides(
    filled: LocalCache, error: Exception, state: KeyState, shown: bool
) -> None:
    kept = KeptCache(filled, KeptKeys(filled, lambda: KEY))
    waiting = asyncio.ensure_future(kept.when_open(lambda: kept.view("p1", None), None))
    kept.failed(error)
    assert kept.state is state
    assert ids(await asyncio.wait_for(waiting, 10)) == (["a1", "a2"] if shown else None)
    assert unreachable(error) is (state is KeyState.UNREACHABLE)


def test_a_failure_after_an_answer_leaves_the_key_accepted(filled: LocalCache) -> None:
    kept = KeptCache(filled)
    kept.answered()
    kept.failed(NO_SERVER)
    kept.failed(SERVER_ERROR)
    assert kept.state is KeyState.ACCEPTED and kept.open


async def test_a_request_told_to_the_policy_says_what_the_key_is(filled: LocalCache) -> None:
    kept = KeptCache(filled)
    with pytest.raises(AuthenticationError):
        async with kept.told():
            raise REFUSED
    assert kept.state is KeyState.REFUSED
    again = KeptCache(filled)
    async with again.told():
        pass
    assert again.state is KeyState.ACCEPTED


async def test_a_refusal_while_a_read_is_under_way_drops_what_it_brings(
    filled: LocalCache,
) -> None:
    kept = KeptCache(filled)
    kept.answered()
    assert await kept.read_now(lambda: "found", "shut") == "found"
    started, go = threading.Event(), threading.Event()

    def slow_read() -> str:
        started.set()
        assert go.wait(10)
        return "found"

    reading = asyncio.ensure_future(kept.read_now(slow_read, "shut"))
    assert await asyncio.to_thread(started.wait, 10)
    kept.refuse()
    go.set()
    assert await asyncio.wait_for(reading, 10) == "shut"
    assert await kept.read_now(lambda: "found", "shut") == "shut", "refused: shut from now on"
    assert await kept.when_open(lambda: "found", "shut") == "shut"


async def test_a_read_begun_before_a_refusal_is_dropped_even_once_a_new_key_is_accepted(
    filled: LocalCache,
) -> None:
    kept = KeptCache(filled)
    kept.refuse()
    kept.answered()  # a new key, accepted
    started, go = threading.Event(), threading.Event()

    def slow_read() -> str:
        started.set()
        assert go.wait(10)
        return "found"

    reading = asyncio.ensure_future(kept.when_open(slow_read, "shut"))
    assert await asyncio.to_thread(started.wait, 10)
    kept.refuse()
    kept.answered()
    go.set()
    assert await asyncio.wait_for(reading, 10) == "shut"
    assert await kept.when_open(lambda: "found", "shut") == "found"


def test_a_refused_key_is_forgotten_and_a_new_one_accepted_is_remembered(
    filled: LocalCache,
) -> None:
    in_use = [KEY]
    keys = KeptKeys(filled, lambda: in_use[0])
    keys.accepted()
    filled.flush()
    kept = KeptCache(filled, keys)
    assert kept.open
    kept.refuse()
    kept.refuse()  # once is what counts
    assert kept.state is KeyState.REFUSED and not kept.open and kept.unrefused is None
    filled.flush()
    assert not keys.known()
    in_use[0] = SecretStr("sk-test-kept-renewed-not-real")
    kept.answered()
    filled.flush()
    assert keys.known() and kept.open and kept.unrefused is filled


def test_reads_through_the_policy_are_the_view_asked_for(filled: LocalCache) -> None:
    kept = KeptCache.offline(filled)
    assert kept.state is KeyState.UNREACHABLE
    assert ids(kept.view("p1", "failed")) == ["f1"]
    assert ids(kept.view("p1", None)) == ["a1", "a2"]
    assert ids(kept.matching("p1", "failed")) == ["f1"], "the view itself when it was kept"
    assert ids(kept.matching("p1", "completed")) == ["a2"], "else the project's rows of it"
    assert ids(kept.matching(None, "failed")) == ["b1"]
    assert kept.totals("p1") == {None: (2, filled.totals("p1")[None][1])}
    assert [p.id for p, _at in kept.projects()] == ["p1"]


def test_nothing_is_read_through_a_shut_policy(filled: LocalCache) -> None:
    kept = KeptCache(filled)
    kept.refuse()
    assert kept.view("p1", None) is None and kept.matching("p1", "completed") is None
    assert kept.projects() == [] and kept.totals("p1") == {}


def test_the_note_for_rows_left_out(filled: LocalCache) -> None:
    view = filled.view("p1", None)
    assert view is not None and KeptCache.skipped_note(view) is None
    assert KeptCache.skipped_note(view._replace(skipped=2)) == (
        "2 rows of the local cache could not be read and were left out."
    )


def test_a_keys_digest_is_the_one_earlier_versions_kept() -> None:
    """A key accepted before an upgrade is still known after it: the digest is pinned."""
    digest = key_digest(SCOPE, SecretStr("sk-test-golden-not-real"))
    assert digest == "63744a441e2bfc5a5d3399dcd97c9f4842e46e7afbd4caf38bf11dd5742cb73c"


def test_a_key_that_is_not_valid_text_has_a_digest_too() -> None:
    """A key from an environment variable holding bytes that are not UTF-8 (Python reads
    them as lone surrogates)."""
    odd = SecretStr("sk-test-\udcff-not-real")
    assert key_digest(SCOPE, odd) == (
        "74a6a099e278edf50832522d58d9913c05ad75f0150d12e66e3fd12d219e0e7d"
    )
    assert key_digest(SCOPE, odd) != key_digest(SCOPE, SecretStr("sk-test-\udcfe-not-real"))


# The opening view's rows read ahead (while the screen is built), and the trust asked once.


class CountingTrust:
    """The kept keys, counting what is asked of them; `known` waits for `go` when given."""

    def __init__(
        self, keys: KeptKeys, go: threading.Event | None = None, *, remember: bool = True
    ) -> None:
        self.keys = keys
        self.go = go
        self.remember = remember  # False: what the server says is not written to the cache
        self.asked = 0

    def known(self) -> bool:
        self.asked += 1
        if self.go is not None:
            assert self.go.wait(10)
        return self.keys.known()

    def accepted(self) -> None:
        if self.remember:
            self.keys.accepted()

    def refused(self) -> None:
        if self.remember:
            self.keys.refused()


def trusted(
    cache: LocalCache, go: threading.Event | None = None, *, remember: bool = True
) -> CountingTrust:
    """A trust that knows the key in use (its server accepted it in an earlier run)."""
    keys = KeptKeys(cache, lambda: KEY)
    keys.accepted()
    cache.flush()
    return CountingTrust(keys, go, remember=remember)


def counting_views(cache: LocalCache, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The views `cache` is asked for, noted."""
    asked: list[object] = []
    view = cache.view

    def noting(project_id: str | None, status: object) -> CachedView | None:
        asked.append((project_id, status))
        return view(project_id, status)

    monkeypatch.setattr(cache, "view", noting)
    return asked


async def test_parts_asking_at_once_ask_the_trust_once(filled: LocalCache) -> None:
    go = threading.Event()
    trust = trusted(filled, go)
    kept = KeptCache(filled, trust)
    asking = [asyncio.ensure_future(kept.opened()) for _ in range(3)]
    await asyncio.sleep(0)
    go.set()
    assert await asyncio.wait_for(asyncio.gather(*asking), 10) == [True, True, True]
    assert trust.asked == 1
    assert await kept.opened() and trust.asked == 1, "known from then on"


async def test_the_view_read_ahead_is_what_the_first_look_at_it_takes(
    filled: LocalCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust = trusted(filled)
    kept = KeptCache(filled, trust)
    asked = counting_views(filled, monkeypatch)
    kept.read_ahead("p1", None)
    kept.read_ahead("p1", "failed")  # once: the opening view's
    await asyncio.wait_for(kept.read_ahead_done(10), 10)
    assert asked == [("p1", None)] and trust.asked == 1
    assert await asyncio.wait_for(kept.opened(), 10) and trust.asked == 1, "its answer is kept"
    assert ids(await kept.view_now("p1", None)) == ["a1", "a2"]
    assert asked == [("p1", None)], "taken, not read again"
    assert ids(await kept.view_now("p1", None)) == ["a1", "a2"]
    assert len(asked) == 2, "once: a later look reads"
    kept.read_ahead("p1", "failed")
    await asyncio.wait_for(kept.read_ahead_done(10), 10)
    assert len(asked) == 2, "nothing is read ahead after the first look"


async def test_a_view_read_ahead_is_not_taken_for_another(
    filled: LocalCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = KeptCache(filled, trusted(filled))
    asked = counting_views(filled, monkeypatch)
    kept.read_ahead("p1", "failed")
    assert ids(await asyncio.wait_for(kept.view_now("p1", None), 10)) == ["a1", "a2"]
    assert ("p1", None) in asked
    assert ids(await asyncio.wait_for(kept.view_now("p1", "failed"), 10)) == ["f1"]
    assert asked.count(("p1", "failed")) == 2, "the early read was dropped: read again"


@pytest.mark.parametrize("then", ["refused", "a new key accepted"])
async def test_a_refusal_while_the_view_is_read_ahead_drops_what_it_brings(
    filled: LocalCache, then: str
) -> None:
    go = threading.Event()
    trust = trusted(filled, go, remember=False)  # the key stays known in the file
    kept = KeptCache(filled, trust)
    kept.read_ahead("p1", None)
    looking = asyncio.ensure_future(kept.view_now("p1", None))
    await asyncio.sleep(0)
    kept.refuse()
    if then != "refused":
        kept.answered()
    go.set()
    assert await asyncio.wait_for(looking, 10) is None
    assert kept.open is (then != "refused") and trust.asked == 1


async def test_a_key_not_known_reads_nothing_ahead(
    filled: LocalCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = counting_views(filled, monkeypatch)
    for trust in (CountingTrust(KeptKeys(filled, lambda: KEY)), None):
        kept = KeptCache(filled, trust)
        kept.read_ahead("p1", None)
        await asyncio.wait_for(kept.read_ahead_done(10), 10)
        assert await asyncio.wait_for(kept.view_now("p1", None), 10) is None
        assert not kept.open and kept.state is KeyState.UNKNOWN
    assert asked == [], "not known: the cache is not read"


async def test_an_answer_while_the_trust_is_asked_says_more(filled: LocalCache) -> None:
    go = threading.Event()
    kept = KeptCache(filled, CountingTrust(KeptKeys(filled, lambda: KEY), go))
    kept.read_ahead("p1", None)
    looking = asyncio.ensure_future(kept.view_now("p1", None))
    await asyncio.sleep(0)
    kept.answered()  # the server took the key while the trust was asked (it knew nothing)
    go.set()
    await asyncio.wait_for(looking, 10)
    assert kept.open, "the answer stands"


async def test_no_cache_reads_nothing_ahead() -> None:
    kept = KeptCache(None)
    kept.read_ahead("p1", None)
    await asyncio.wait_for(kept.read_ahead_done(10), 10)
    assert await kept.view_now("p1", None) is None


async def test_a_read_ahead_is_waited_for_at_most_as_long_as_asked(filled: LocalCache) -> None:
    go = threading.Event()
    kept = KeptCache(filled, trusted(filled, go))
    kept.read_ahead("p1", None)
    await asyncio.wait_for(kept.read_ahead_done(0.01), 10)
    go.set()
    assert ids(await asyncio.wait_for(kept.view_now("p1", None), 10)) == ["a1", "a2"]


async def test_the_trust_asked_ahead_is_what_the_other_parts_wait_for(filled: LocalCache) -> None:
    go = threading.Event()
    trust = trusted(filled, go)
    kept = KeptCache(filled, trust)
    kept.read_ahead("p1", None)
    opening = asyncio.ensure_future(kept.opened())
    await asyncio.sleep(0)
    go.set()
    assert await asyncio.wait_for(opening, 10)
    assert ids(await asyncio.wait_for(kept.view_now("p1", None), 10)) == ["a1", "a2"]
    assert trust.asked == 1


@pytest.mark.parametrize("told", ["accepted", "no server"])
async def test_once_the_server_said_something_the_trust_is_not_asked(
    filled: LocalCache, told: str
) -> None:
    trust = trusted(filled)
    kept = KeptCache(filled, trust)
    if told == "accepted":
        kept.answered()
    else:
        kept.failed(NO_SERVER)
    asked = trust.asked
    assert await asyncio.wait_for(kept.opened(), 10)
    kept.read_ahead("p1", "failed")
    assert ids(await asyncio.wait_for(kept.view_now("p1", "failed"), 10)) == ["f1"]
    assert trust.asked == asked == 0


async def test_without_a_trust_the_cache_waits_for_the_first_answer(filled: LocalCache) -> None:
    kept = KeptCache(filled)
    opening = asyncio.ensure_future(kept.opened())
    await asyncio.sleep(0)
    assert not opening.done() and not kept.open
    kept.answered()
    assert await asyncio.wait_for(opening, 10)


class FailingTrust(CountingTrust):
    def known(self) -> bool:
        self.asked += 1
        raise RuntimeError("the trust broke")


async def test_a_trust_that_breaks_is_not_known_and_its_failure_is_not_lost(
    filled: LocalCache,
) -> None:
    kept = KeptCache(filled, FailingTrust(KeptKeys(filled, lambda: KEY)))
    kept.read_ahead("p1", None)
    opening = asyncio.ensure_future(kept.opened())
    with pytest.raises(RuntimeError, match="the trust broke"):
        await asyncio.wait_for(kept.view_now("p1", None), 10)
    await asyncio.sleep(0)
    assert not opening.done(), "not known: waiting for the first answer, not stuck on the trust"
    kept.answered()
    assert await asyncio.wait_for(opening, 10)


async def test_a_read_ahead_dropped_unread_leaves_no_unseen_failure(filled: LocalCache) -> None:
    loop = asyncio.get_running_loop()
    seen: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: seen.append(context))
    try:
        kept = KeptCache(filled, FailingTrust(KeptKeys(filled, lambda: KEY)))
        kept.read_ahead("p1", None)
        await asyncio.wait_for(kept.read_ahead_done(10), 10)
        kept.failed(NO_SERVER)
        assert ids(await asyncio.wait_for(kept.view_now("p1", "failed"), 10)) == ["f1"]
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert seen == []

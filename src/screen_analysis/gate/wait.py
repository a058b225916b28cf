"""Waiting for scoring: poll until the analyses of a scope that were pending or processing
when the wait began have finished, or the time is up.

A round reads the scope project's pending and then its processing listings through the
client's one cursor walker — two requests while each fits a page, the app's budget of two
pages a round — in that order, so an analysis that moves from pending to processing
between the two requests is still seen. Analyses that arrive after the wait began are not
waited for (on a busy project the wait would never end); the gate still counts them as
they are when it reads the scope.

Rounds are `interval` apart; a round that fails for a reason worth another try (a 429, a
5xx, the network) is retried after twice the interval (up to a minute), and never before
the server's Retry-After. The deadline holds inside a round too: a round still reading when
the time is up (cursors that never end, a request that hangs, the client's retries of it)
is cut off there and the wait has timed out. The clock is injected: tests drive time,
nothing waits on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import RateLimitError
from screen_analysis.api.models import Analysis, AnalysisItem, AnalysisStatus
from screen_analysis.api.retry import backoff
from screen_analysis.browse.clock import RETRYABLE, Clock
from screen_analysis.gate.scope import Scope, newest_key
from screen_analysis.insight.collect import fill
from screen_analysis.numbers import format_count

BACKOFF_CAP_S = 60.0


class WaitState(NamedTuple):
    """Where a wait stands after a round."""

    waiting: int  # analyses still awaited
    pending: int
    processing: int
    elapsed: float
    timeout: float
    rounds: int
    failed_round: str = ""  # the reason the last round failed, when it did
    cut_short: str = ""  # where the round the deadline cut off stood, when one was
    finished_rounds: int = 0  # rounds that read both listings to the end


class WaitOutcome(NamedTuple):
    """How the wait ended: `done`, or timed out with the last state."""

    done: bool
    state: WaitState


class _InFlight:
    """A page sink keeping the in-scope analyses of the pending and processing listings,
    and where its reading stands (for a round the deadline cuts off)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.found: dict[str, tuple[float, AnalysisStatus | None]] = {}
        self.listing = AnalysisStatus.PENDING
        self.pages = 0  # of the listing being read

    def reading(self) -> str:
        """ "page 3 of the pending listing": the page being read."""
        return f"page {format_count(self.pages + 1)} of the {self.listing.value} listing"

    def add_page(self, items: Iterable[AnalysisItem], total: int | None = None) -> None:
        self.pages += 1
        for item in items:
            if isinstance(item, Analysis) and self.scope.matches(item):
                # ranked as the gate ranks the N newest: an undated one the oldest
                self.found[item.id] = (newest_key(item), item.known_status)


async def in_flight(client: ScreenAnalysisClient, scope: Scope, sink: _InFlight) -> _InFlight:
    """The scope's pending and processing analyses now (pending read first), into `sink`."""
    for status in (AnalysisStatus.PENDING, AnalysisStatus.PROCESSING):
        sink.listing, sink.pages = status, 0
        await fill(client, sink, project_id=scope.project_id, status=status.value)
    return sink


async def wait_for_scoring(
    client: ScreenAnalysisClient,
    scope: Scope,
    *,
    clock: Clock,
    timeout: float,
    interval: float,
    on_round: Callable[[WaitState], None] | None = None,
) -> WaitOutcome:
    """Poll until what was in flight in `scope` at the first round has finished.

    Errors other than a 429, a 5xx or the network (a refused key, an unknown project)
    end the wait at once; a retryable one that is still failing when the time is up is
    raised rather than called a timeout. A round still under way at the deadline is cut
    off there: the wait has timed out (`cut_short` says where the round stood).
    """
    started = clock.monotonic()
    deadline = started + timeout
    awaited: set[str] | None = None
    failures, rounds, finished = 0, 0, 0
    state = WaitState(0, 0, 0, 0.0, timeout, 0)
    while True:
        rounds += 1
        sink = _InFlight(scope)
        try:
            found = await _round(client, scope, sink, clock, deadline)
        except _CutShort:
            elapsed = clock.monotonic() - started
            state = state._replace(
                elapsed=elapsed, rounds=rounds, failed_round="", cut_short=sink.reading()
            )
            if on_round is not None:
                on_round(state)
            return WaitOutcome(False, state)
        except RETRYABLE as exc:
            failures += 1
            if clock.monotonic() >= deadline:
                raise
            pause = backoff(interval, failures, max(BACKOFF_CAP_S, interval))
            if isinstance(exc, RateLimitError) and exc.retry_after is not None:
                pause = max(pause, exc.retry_after)
            state = state._replace(
                elapsed=clock.monotonic() - started, rounds=rounds, failed_round=describe_error(exc)
            )
        else:
            failures, finished = 0, finished + 1
            if awaited is None:
                awaited = set(_newest(found, scope.last))
            awaited &= found.found.keys()
            statuses = [found.found[i][1] for i in awaited]
            state = WaitState(
                len(awaited),
                statuses.count(AnalysisStatus.PENDING),
                statuses.count(AnalysisStatus.PROCESSING),
                clock.monotonic() - started,
                timeout,
                rounds,
                finished_rounds=finished,
            )
            if not awaited:
                if on_round is not None:
                    on_round(state)
                return WaitOutcome(True, state)
            pause = interval
        if on_round is not None:
            on_round(state)
        left = deadline - clock.monotonic()
        if left <= 0:
            return WaitOutcome(False, state)
        await clock.sleep(min(pause, left))  # the last round falls on the deadline itself


class _CutShort(Exception):
    """The deadline came while a round was still reading."""


async def _round(
    client: ScreenAnalysisClient, scope: Scope, sink: _InFlight, clock: Clock, deadline: float
) -> _InFlight:
    """One round, cut off at `deadline` (then `_CutShort`): a walk of cursors that never
    end, a request that hangs and the client's retries of it all end there."""
    try:
        async with clock.deadline(deadline):
            return await in_flight(client, scope, sink)
    except TimeoutError:
        if clock.monotonic() < deadline:
            raise  # not the deadline's: the caller's to see
        raise _CutShort from None


def _newest(found: _InFlight, last: int | None) -> list[str]:
    """The ids to wait for: every one in flight, or with `last` N only the N newest of
    them (no older one can be among the scope's N newest)."""
    ids = sorted(found.found, key=lambda i: found.found[i][0], reverse=True)
    return ids if last is None else ids[:last]

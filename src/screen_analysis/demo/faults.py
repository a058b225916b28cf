"""Fault injection and the request log, both tunable while the server runs."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from screen_analysis.demo.config import DemoConfig

JsonBody = bytes | str | Mapping[str, Any] | list[Any] | None


IMAGE_FAULTS = ("", "404", "slow", "corrupt", "not-image", "huge")


class RequestRecord(NamedTuple):
    """One request as the server saw it; `query` keeps the last value of each parameter."""

    method: str
    path: str
    query: dict[str, str]
    status: int


@dataclass(frozen=True)
class InjectedResponse:
    """An exact response to return instead of the real one."""

    status: int
    headers: dict[str, str]
    body: bytes
    matching: str | None = None  # only for a request whose path and query hold this text


class Hold:
    """Requests whose path and query hold `matching` wait here, unanswered, until
    `release` (or the end of a `with` block): a test decides when the server answers,
    where a latency would only make it likely."""

    def __init__(self, matching: str) -> None:
        self.matching = matching
        self.waiting = 0  # requests held now
        self.held = 0  # requests held in all
        self._released = threading.Event()

    @property
    def released(self) -> bool:
        """Whether the held requests have been let go."""
        return self._released.is_set()

    def release(self) -> None:
        """Let every request held, and every one to come, through."""
        self._released.set()

    async def wait(self) -> None:
        """Hold one request (on the server's event loop, which goes on meanwhile)."""
        self.waiting += 1
        self.held += 1
        try:
            while not self._released.is_set():
                await asyncio.sleep(0.005)
        finally:
            self.waiting -= 1

    def __enter__(self) -> Hold:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@dataclass(frozen=True)
class Verdict:
    """What the fault settings decided for one request."""

    delay_s: float
    status: int | None = None  # None: serve the request normally


@dataclass
class Faults:
    """Live-tunable faults: latency with jitter, random errors, 429s, queued responses, and
    one fault for every image (`IMAGE_FAULTS`).

    Random draws come from a generator seeded by the demo seed, so a test that sends the
    same requests in the same order meets the same faults.
    """

    latency_ms: float = 0.0
    latency_jitter_ms: float = 0.0
    error_rate: float = 0.0
    rate_limit_rate: float = 0.0
    retry_after_s: int = 1
    seed: int = 0
    # Images only: "" (none), "404", "slow", "corrupt", "not-image" or "huge" (a bomb).
    image_fault: str = ""
    image_slow_ms: float = 3000.0
    _queue: deque[InjectedResponse] = field(default_factory=deque, repr=False)
    _holds: list[Hold] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @classmethod
    def from_config(cls, config: DemoConfig) -> Faults:
        """Faults starting from the settings of `config`."""
        return cls(
            latency_ms=config.latency_ms,
            latency_jitter_ms=config.latency_jitter_ms,
            error_rate=config.error_rate,
            rate_limit_rate=config.rate_limit_rate,
            retry_after_s=config.retry_after_s,
            seed=config.seed,
            image_fault=config.image_fault,
        )

    def inject(
        self,
        status: int,
        headers: Mapping[str, str] | None = None,
        body: JsonBody = None,
        count: int = 1,
        matching: str | None = None,
    ) -> None:
        """Answer the next `count` API requests with exactly this response; with `matching`,
        the next ones whose path and query hold that text (`"after="`: a next page, never a
        listing's first page, a refresh of it or a total), the others answered as usual.

        `body` may be bytes or text (sent as is), JSON data, or None for the standard
        error body of `status`.
        """
        encoded, content_type = _encode_body(status, body)
        merged = {
            "content-type": content_type,
            **{k.lower(): v for k, v in (headers or {}).items()},
        }
        with self._lock:
            self._queue.extend([InjectedResponse(status, merged, encoded, matching)] * count)

    def clear(self) -> None:
        """Drop queued responses and turn every fault off."""
        with self._lock:
            self._queue.clear()
            self.latency_ms = self.latency_jitter_ms = 0.0
            self.error_rate = self.rate_limit_rate = 0.0
            self.image_fault = ""

    @property
    def pending_injections(self) -> int:
        """How many queued responses are still to be served."""
        with self._lock:
            return len(self._queue)

    def hold(self, matching: str) -> Hold:
        """Hold the API requests whose path and query contain `matching` (`"/v1/images/"`,
        `"after="`, `"/v1/"` for all) until the hold is released; use it in a `with` block."""
        made = Hold(matching)
        with self._lock:
            self._holds.append(made)
        return made

    def holds_for(self, target: str) -> list[Hold]:
        """The holds not yet released that a request to `target` must wait for."""
        with self._lock:
            self._holds = [h for h in self._holds if not h.released]
            return [h for h in self._holds if h.matching in target]

    def release_all(self) -> None:
        """Let every held request through (the server is stopping)."""
        with self._lock:
            holds, self._holds = self._holds, []
        for held in holds:
            held.release()

    def take_injected(self, target: str = "") -> InjectedResponse | None:
        """The next queued response for a request to `target` (its path and query), if any."""
        with self._lock:
            for queued in self._queue:
                if queued.matching is None or queued.matching in target:
                    self._queue.remove(queued)
                    return queued
            return None

    def decide(self) -> Verdict:
        """Delay and, perhaps, an error status for the next authenticated request."""
        with self._lock:
            jitter = (
                self._rng.uniform(0.0, self.latency_jitter_ms) if self.latency_jitter_ms else 0.0
            )
            delay_s = max(0.0, self.latency_ms + jitter) / 1000
            roll = self._rng.random()
            if roll < self.rate_limit_rate:
                return Verdict(delay_s, 429)
            if roll < self.rate_limit_rate + self.error_rate:
                return Verdict(delay_s, self._rng.choice((500, 503)))
            return Verdict(delay_s)


ERROR_TYPES = {
    400: "invalid_request",
    401: "authentication_error",
    404: "not_found",
    405: "invalid_request",
    429: "rate_limited",
}
_DEFAULT_MESSAGES = {
    429: "Too many requests",
    500: "Internal server error (injected)",
    503: "Service unavailable (injected)",
}


def error_body(status: int, message: str, param: str | None = None) -> dict[str, Any]:
    """The one error format: {"error": {"type", "message", "param"}}."""
    kind = ERROR_TYPES.get(status, "server_error" if status >= 500 else "invalid_request")
    return {"error": {"type": kind, "message": message, "param": param}}


def _encode_body(status: int, body: JsonBody) -> tuple[bytes, str]:
    if body is None:
        message = _DEFAULT_MESSAGES.get(status, f"Injected response {status}")
        body = error_body(status, message)
    if isinstance(body, bytes):
        return body, "application/octet-stream"
    if isinstance(body, str):
        return body.encode(), "text/plain; charset=utf-8"
    return json.dumps(body).encode(), "application/json"

"""ASGI middleware in front of /v1: request log, latency, injected faults and Bearer auth."""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import MutableSequence
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from screen_analysis.demo.faults import Faults, RequestRecord, error_body

_MESSAGES = {
    500: "Internal server error (injected)",
    503: "Service unavailable (injected)",
}


REQUEST_LOG_LIMIT = 10_000


class InFlight:
    """How many requests the server is handling now (tests wait for it to reach 0: every
    request asked, even one its client gave up on, has been answered)."""

    def __init__(self) -> None:
        self.count = 0


class ApiGate:
    """Logs every request; for /v1 requests applies faults, then checks the key."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        api_key: str,
        faults: Faults,
        request_log: MutableSequence[RequestRecord],
        in_flight: InFlight | None = None,
    ) -> None:
        self.app = app
        self.api_key = api_key
        self.faults = faults
        self.request_log = request_log
        self.in_flight = in_flight if in_flight is not None else InFlight()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one ASGI connection scope."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = dict(parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True))
        logged = False

        def record(status: int) -> None:
            nonlocal logged
            logged = True
            log = self.request_log
            log.append(RequestRecord(scope["method"], scope["path"], query, status))
            if len(log) > REQUEST_LOG_LIMIT:
                # A long live demo must not grow without end: drop the oldest half at once.
                del log[: REQUEST_LOG_LIMIT // 2]

        async def logged_send(message: Message) -> None:
            # Logged before the client can see the response, so a test never races the log.
            if message["type"] == "http.response.start":
                record(message["status"])
            await send(message)

        self.in_flight.count += 1
        try:
            await self._dispatch(scope, receive, logged_send)
        finally:
            self.in_flight.count -= 1
            if not logged:  # the app failed before answering; the outer layer sends a 500
                record(500)

    async def _dispatch(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not scope["path"].startswith("/v1/") and scope["path"] != "/v1":
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        target = f"{scope['path']}?{query}" if query else scope["path"]
        for held in self.faults.holds_for(target):
            await held.wait()
        injected = self.faults.take_injected(target)
        verdict = self.faults.decide()
        if verdict.delay_s:
            await asyncio.sleep(verdict.delay_s)
        if injected is not None:
            await _respond(send, injected.status, injected.body, injected.headers)
            return
        problem = self._check_key(scope)
        if problem is not None:
            headers = {"www-authenticate": 'Bearer realm="screen-analysis"'}
            await _respond_json(send, 401, error_body(401, problem), headers)
            return
        if verdict.status == 429:
            headers = {"retry-after": str(self.faults.retry_after_s)}
            await _respond_json(send, 429, error_body(429, "Too many requests"), headers)
            return
        if verdict.status is not None:
            body = error_body(verdict.status, _MESSAGES[verdict.status])
            await _respond_json(send, verdict.status, body, {})
            return
        await self.app(scope, receive, send)

    def _check_key(self, scope: Scope) -> str | None:
        values = [v for k, v in scope["headers"] if k == b"authorization"]
        if not values:
            return "Missing API key: send the header Authorization: Bearer <key>"
        scheme, _, token = values[0].decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return "Malformed Authorization header: expected Bearer <key>"
        if not hmac.compare_digest(token.strip().encode(), self.api_key.encode()):
            return "Invalid API key"
        return None


async def _respond_json(send: Send, status: int, body: Any, headers: dict[str, str]) -> None:
    encoded = json.dumps(body, separators=(",", ":")).encode()
    await _respond(send, status, encoded, {"content-type": "application/json", **headers})


async def _respond(send: Send, status: int, body: bytes, headers: dict[str, str]) -> None:
    raw_headers = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    if b"content-length" not in dict(raw_headers):  # an injected one may lie on purpose
        raw_headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": body})

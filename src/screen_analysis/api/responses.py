"""Turning what httpx returns or raises into a body or one of the project's errors: the
size cap on bodies, errors by status, timeouts by phase, transport failures in words."""

from __future__ import annotations

import httpx

from screen_analysis.api.errors import (
    APITimeoutError,
    InvalidResponseError,
    ScreenAnalysisError,
    error_for_status,
)
from screen_analysis.api.retry import parse_retry_after
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.numbers import format_count
from screen_analysis.safe_text import one_line

_TIMEOUT_PHASES = {
    httpx.ConnectTimeout: "connect",
    httpx.ReadTimeout: "read",
    httpx.WriteTimeout: "write",
    httpx.PoolTimeout: "pool",
}


async def read_capped(response: httpx.Response, limit: int, request: str) -> bytes:
    """The body, refused (unread, or as soon as it grows) when larger than `limit` bytes."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise InvalidResponseError(
            f"response of {format_count(int(declared))} bytes exceeds the"
            f" {format_count(limit)}-byte limit; not read",
            request=request,
            status_code=response.status_code,
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise InvalidResponseError(
                f"response exceeds the {format_count(limit)}-byte limit; reading stopped",
                request=request,
                status_code=response.status_code,
            )
        chunks.append(chunk)
    return b"".join(chunks)


def status_error(response: httpx.Response, body: bytes, request: str) -> ScreenAnalysisError:
    """The error a non-success response stands for."""
    if response.status_code < 400:
        return InvalidResponseError(
            f"unexpected status {response.status_code}",
            request=request,
            status_code=response.status_code,
        )
    return error_for_status(
        response.status_code,
        body,
        request=request,
        content_type=response.headers.get("content-type"),
        retry_after=parse_retry_after(response.headers),
    )


def timeout_error(
    exc: httpx.TimeoutException, request: str, timeouts: Timeouts, *, answered: bool
) -> APITimeoutError:
    """The timeout error, naming the phase that ran out and its limit."""
    phase = next((name for cls, name in _TIMEOUT_PHASES.items() if isinstance(exc, cls)), None)
    if phase is None:
        return APITimeoutError("no response in time", request=request, answered=answered)
    limit = getattr(timeouts, phase)
    message = f"{phase} timeout after {limit:g} s"
    return APITimeoutError(message, request=request, answered=answered)


def transport_message(exc: httpx.TransportError) -> str:
    """A transport failure in words (cleaned, short)."""
    text = one_line(str(exc), limit=160) or type(exc).__name__
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"response cut short ({text})"
    if isinstance(exc, httpx.ProxyError):
        return f"proxy refused the request ({text})"
    if isinstance(exc, httpx.ReadError):
        return f"connection lost while reading the response ({text})"
    return text

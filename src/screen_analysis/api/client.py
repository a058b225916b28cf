"""The asynchronous client of the Screen Analysis Service, on one shared httpx.AsyncClient."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from types import TracebackType
from typing import Self, TypeVar
from urllib.parse import quote

import httpx

from screen_analysis import __version__
from screen_analysis.api import arguments
from screen_analysis.api.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    InvalidArgumentError,
    InvalidResponseError,
    RateLimitError,
    RedirectError,
    ScreenAnalysisError,
    error_for_status,
)
from screen_analysis.api.messages import clean_message
from screen_analysis.api.models import AnalysisPage, Project
from screen_analysis.api.pagination import AnalysisIterator, PageIterator
from screen_analysis.api.parsing import parse_page, parse_project
from screen_analysis.api.redirects import MAX_REDIRECTS, REDIRECT_STATUSES, redirect_target
from screen_analysis.api.retry import RetryPolicy, is_retryable_status, parse_retry_after
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.safe_text import shorten
from screen_analysis.secret import SecretStr

logger = logging.getLogger("screen_analysis.api")
T = TypeVar("T")
# A page of 100 analyses is well under a megabyte; anything past this is not an answer.
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
_HEADER_UNSAFE = re.compile(r"[^\x20-\x7e]")

_TIMEOUT_PHASES = {
    httpx.ConnectTimeout: "connect",
    httpx.ReadTimeout: "read",
    httpx.WriteTimeout: "write",
    httpx.PoolTimeout: "pool",
}


class ScreenAnalysisClient:
    """Typed access to the analyses listing and to projects.

    One `httpx.AsyncClient` serves every request; use the client as an async context manager
    or call `aclose()`. Requests are retried (`max_retries` times) on connection errors,
    timeouts, 408/409/429 and 5xx. Proxy and CA settings come from the environment as in
    httpx (HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE) unless a `transport` is given.
    """

    def __init__(
        self,
        base_url: str | httpx.URL,
        api_key: SecretStr,
        *,
        timeout: Timeouts | float = Timeouts(),  # noqa: B008 - frozen, shared safely
        max_retries: int = 2,
        transport: httpx.AsyncBaseTransport | None = None,
        user_agent: str | None = None,
        retry: RetryPolicy | None = None,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
    ) -> None:
        self._base_url = arguments.check_base_url(base_url)
        self._api_key = arguments.check_api_key(api_key)
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise InvalidArgumentError(
                "max_retries must be a non-negative integer", param="max_retries"
            )
        self.max_retries = max_retries
        self.timeouts = timeout if isinstance(timeout, Timeouts) else Timeouts(*[timeout] * 4)
        self.retry = retry or RetryPolicy()
        self.max_response_bytes = max_response_bytes
        self._hold_until = 0.0  # monotonic: a 429's Retry-After holds every request until then
        agent = f"screen-analysis/{__version__}"
        suffix = _HEADER_UNSAFE.sub("", clean_message(user_agent or "")).strip()
        self.user_agent = f"{agent} {suffix}" if suffix else agent
        self._http = httpx.AsyncClient(
            transport=transport,
            timeout=self.timeouts.to_httpx(),
            follow_redirects=False,  # followed by hand, and only to the same origin
            trust_env=True,
            headers={"User-Agent": self.user_agent, "Accept": "application/json"},
        )

    @property
    def base_url(self) -> str:
        """The API's base URL, without trailing slash."""
        return str(self._base_url).rstrip("/")

    def __repr__(self) -> str:
        return f"ScreenAnalysisClient(base_url={self.base_url!r}, max_retries={self.max_retries})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections; the client cannot be used afterwards."""
        await self._http.aclose()

    @property
    def is_closed(self) -> bool:
        """Whether `aclose()` has been called."""
        return self._http.is_closed

    async def list_analyses(
        self,
        project_id: str | None = None,
        status: str | None = None,
        limit: int = 20,
        after: str | None = None,
    ) -> AnalysisPage:
        """One page of analyses matching the filters, starting after the cursor `after`."""
        params = self._list_params(project_id, status, limit)
        cursor = arguments.check_cursor(after)
        if cursor is not None:
            params["after"] = cursor
        return await self._request(self._url("/v1/analyses", params), parse_page)

    def iter_pages(
        self,
        project_id: str | None = None,
        status: str | None = None,
        limit: int = 20,
        after: str | None = None,
        *,
        prefetch: bool = False,
    ) -> PageIterator:
        """Every page from `after` (or the start) until `next_cursor` is null; loops refused."""
        params = self._list_params(project_id, status, limit)
        arguments.check_cursor(after)

        async def fetch(cursor: str | None) -> AnalysisPage:
            return await self.list_analyses(project_id, status, limit, cursor)

        def describe(cursor: str | None) -> str:
            full = {**params, "after": cursor} if cursor is not None else params
            return _describe(self._url("/v1/analyses", full))

        return PageIterator(fetch, after=after, describe=describe, prefetch=prefetch)

    def iter_analyses(
        self,
        project_id: str | None = None,
        status: str | None = None,
        page_size: int = 100,
        max_items: int | None = None,
    ) -> AnalysisIterator:
        """Every analysis matching the filters, in server order, each id at most once."""
        arguments.check_limit(page_size, name="page_size")
        maximum = arguments.check_max_items(max_items)
        pages = self.iter_pages(project_id, status, limit=page_size)
        return AnalysisIterator(pages, max_items=maximum)

    async def get_project(self, project_id: str) -> Project:
        """The project with this id."""
        checked = arguments.check_id(project_id, name="project_id")
        url = self._url(f"/v1/projects/{quote(checked, safe='')}", {})
        return await self._request(url, parse_project)

    @staticmethod
    def _list_params(project_id: object, status: object, limit: object) -> dict[str, str]:
        params: dict[str, str] = {}
        checked_project = arguments.check_optional_id(project_id, name="project_id")
        checked_status = arguments.check_status(status)
        checked_limit = arguments.check_limit(limit)
        if checked_project is not None:
            params["project_id"] = checked_project
        if checked_status is not None:
            params["status"] = checked_status
        params["limit"] = str(checked_limit)
        return params

    def _url(self, path: str, params: dict[str, str]) -> httpx.URL:
        prefix = self._base_url.path.rstrip("/")
        return self._base_url.copy_with(path=prefix + path, params=params)

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key.get_secret_value()}"}

    async def _get(self, url: httpx.URL) -> tuple[bytes, str | None, str]:
        """GET with retries: the body, its content type and the request's description."""
        request = _describe(url)
        attempt = 0
        slowed_down = False  # after its own 429 a request waits by its retry delays only
        while True:
            attempt += 1
            if not slowed_down:
                await self._wait_for_hold()
            started = time.monotonic()
            try:
                response, body = await self._send(url, request)
            except ScreenAnalysisError as exc:
                error: ScreenAnalysisError = exc
                headers: httpx.Headers | None = None
                retryable = isinstance(exc, APIConnectionError)
            else:
                logger.debug(
                    "%s -> %s in %.0f ms",
                    request,
                    response.status_code,
                    (time.monotonic() - started) * 1000,
                )
                if response.is_success:
                    if response.status_code == 204 or not body.strip():
                        raise InvalidResponseError(  # not retried: the server meant it
                            f"empty body (status {response.status_code})",
                            request=request,
                            status_code=response.status_code,
                        )
                    return body, response.headers.get("content-type"), request
                error = _status_error(response, body, request)
                headers = response.headers
                retryable = isinstance(error, APIError) and is_retryable_status(
                    response.status_code, headers
                )
            error = self._redacted(error)
            if isinstance(error, RateLimitError):
                slowed_down = True  # from now on this request follows its own retry delays
                self._hold(headers)
            if not retryable or attempt > self.max_retries:
                error.attempts = attempt
                raise error
            delay = self.retry.delay(attempt - 1, headers)
            logger.info("%s: %s; retrying in %.2f s", request, error.detail, delay)
            await self.retry.sleep(delay)

    def _hold(self, headers: httpx.Headers | None) -> None:
        """After a 429: hold every request of this client for the server's Retry-After."""
        hint = parse_retry_after(headers) if headers is not None else None
        if hint is not None and 0 < hint <= self.retry.max_retry_after:
            self._hold_until = max(self._hold_until, time.monotonic() + hint)

    async def _wait_for_hold(self) -> None:
        wait = self._hold_until - time.monotonic()
        if wait > 0:
            logger.info("holding requests for %.2f s (the server asked to slow down)", wait)
            await self.retry.sleep(wait)

    async def _request(self, url: httpx.URL, parse: Callable[..., T]) -> T:
        """GET `url` (with retries) and parse the body; errors never carry the key."""
        body, content_type, request = await self._get(url)
        try:
            return parse(body, request=request, content_type=content_type)
        except ScreenAnalysisError as exc:
            self._redacted(exc)
            raise

    def _redacted(self, error: ScreenAnalysisError) -> ScreenAnalysisError:
        """`error` with the key cut out of its message, should a server echo it back."""
        key = self._api_key.get_secret_value()
        if key in error.message:
            error.message = error.message.replace(key, "[redacted]")
            error.args = (error.message,)
        return error

    async def _send(self, url: httpx.URL, request: str) -> tuple[httpx.Response, bytes]:
        """One attempt, following redirects within the same origin only."""
        for _hop in range(MAX_REDIRECTS + 1):
            outgoing = self._http.build_request("GET", url, headers=self._headers())
            try:
                async with asyncio.timeout(self.timeouts.total):
                    response = await self._http.send(outgoing, stream=True)
                    try:
                        body = await _read_capped(response, self.max_response_bytes, request)
                    finally:
                        await response.aclose()
            except httpx.TimeoutException as exc:
                raise _timeout_error(exc, request, self.timeouts) from exc
            except TimeoutError as exc:  # the attempt as a whole ran past `total`
                message = f"no complete response within {self.timeouts.total:g} s"
                raise APITimeoutError(message, request=request) from exc
            except httpx.TransportError as exc:
                raise APIConnectionError(_transport_message(exc), request=request) from exc
            except httpx.DecodingError as exc:
                raise InvalidResponseError(
                    f"body could not be decoded: {exc}", request=request
                ) from exc
            if response.status_code not in REDIRECT_STATUSES:
                return response, body
            url = redirect_target(response, url, request)
        raise RedirectError(
            f"more than {MAX_REDIRECTS} redirects",
            request=request,
            status_code=response.status_code,
        )


async def _read_capped(response: httpx.Response, limit: int, request: str) -> bytes:
    """The body, refused (unread, or as soon as it grows) when larger than `limit` bytes."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise InvalidResponseError(
            f"response of {int(declared):,} bytes exceeds the {limit:,}-byte limit; not read",
            request=request,
            status_code=response.status_code,
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise InvalidResponseError(
                f"response exceeds the {limit:,}-byte limit; reading stopped",
                request=request,
                status_code=response.status_code,
            )
        chunks.append(chunk)
    return b"".join(chunks)


def _describe(url: httpx.URL) -> str:
    """ "GET /path?query": what errors and logs name; never headers. A path segment or
    query value longer than QUOTE_LIMIT (a 10,000-character cursor) is cut with an ellipsis."""
    path, _, query = url.raw_path.decode("ascii", errors="replace").partition("?")
    text = "/".join(shorten(segment) for segment in path.split("/"))
    if query:
        parts = (part.partition("=") for part in query.split("&"))
        text += "?" + "&".join(name + sep + shorten(value) for name, sep, value in parts)
    return "GET " + text


def _status_error(response: httpx.Response, body: bytes, request: str) -> ScreenAnalysisError:
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


def _timeout_error(
    exc: httpx.TimeoutException, request: str, timeouts: Timeouts
) -> APITimeoutError:
    phase = next((name for cls, name in _TIMEOUT_PHASES.items() if isinstance(exc, cls)), None)
    if phase is None:
        return APITimeoutError("no response in time", request=request)
    limit = getattr(timeouts, phase)
    return APITimeoutError(f"{phase} timeout after {limit:g} s", request=request)


def _transport_message(exc: httpx.TransportError) -> str:
    text = clean_message(str(exc), limit=160) or type(exc).__name__
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"response cut short ({text})"
    if isinstance(exc, httpx.ProxyError):
        return f"proxy refused the request ({text})"
    if isinstance(exc, httpx.ReadError):
        return f"connection lost while reading the response ({text})"
    return text

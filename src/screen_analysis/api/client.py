"""The asynchronous client of the Screen Analysis Service, on one shared httpx.AsyncClient."""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import quote

import httpx

from screen_analysis import __version__
from screen_analysis.api import addresses, arguments, image_fetch
from screen_analysis.api.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    InvalidArgumentError,
    InvalidResponseError,
    RateLimitError,
    RedirectError,
    ScreenAnalysisError,
)
from screen_analysis.api.models import AnalysisPage, Project, RawPage
from screen_analysis.api.page_rows import MODEL_ROWS, RAW_ROWS
from screen_analysis.api.pagination import PageIterator, PageT, Walk
from screen_analysis.api.parsing import parse_page, parse_project, parse_raw_page
from screen_analysis.api.redirects import MAX_REDIRECTS, REDIRECT_STATUSES, redirect_target
from screen_analysis.api.responses import (
    read_capped,
    status_error,
    timeout_error,
    transport_message,
)
from screen_analysis.api.retry import RetryPolicy, is_retryable_status, parse_retry_after
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.safe_text import one_line, shorten
from screen_analysis.secret import SecretStr, redact

logger = logging.getLogger("screen_analysis.api")
T = TypeVar("T")
# A page of 100 analyses is well under a megabyte; anything past this is not an answer.
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
_HEADER_UNSAFE = re.compile(r"[^\x20-\x7e]")


class ScreenAnalysisClient:
    """Typed access to the analyses listing and to projects.

    One `httpx.AsyncClient` serves every request; use the client as an async context manager
    or call `aclose()`. Requests are retried (`max_retries` times) on connection errors,
    timeouts, 408/409/429 and 5xx. Proxy and CA settings come from the environment as in
    httpx (HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE) unless a `transport` is given, or `proxy`
    (an http://, https:// or socks5:// URL; socks needs `httpx[socks]`) or `verify` (an
    `ssl.SSLContext` with the CAs to trust) say otherwise.
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
        proxy: str | None = None,
        verify: ssl.SSLContext | None = None,
    ) -> None:
        self._base_url = addresses.check_base_url(base_url)
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
        suffix = _HEADER_UNSAFE.sub("", one_line(user_agent or "")).strip()
        self.user_agent = f"{agent} {suffix}" if suffix else agent
        try:
            network: dict[str, Any] = {"proxy": proxy} if proxy else {}
            if verify is not None:
                network["verify"] = verify
            self._http = httpx.AsyncClient(
                transport=transport,
                timeout=self.timeouts.to_httpx(),
                follow_redirects=False,  # followed by hand, and only to the same origin
                trust_env=True,  # HTTPS_PROXY and NO_PROXY apply when no proxy is given
                headers={"User-Agent": self.user_agent, "Accept": "application/json"},
                **network,
            )
        except ImportError:  # socksio, which httpx needs for socks5://, is an extra
            raise InvalidArgumentError(
                "proxy: a socks proxy needs the socks extra (pip install 'screen-analysis[socks]')",
                param="proxy",
            ) from None
        except ValueError as exc:  # a proxy URL httpx cannot use
            raise InvalidArgumentError(f"proxy: {exc}", param="proxy") from None

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
        max_items: int | None = None,
        dedup_window: int | None = None,
    ) -> Walk[AnalysisPage]:
        """Every page from `after` (or the start) until `next_cursor` is null, on the one
        walk (`pagination.Walk`): loops refused, each analysis at most once, `max_items` at
        most. Close it (`async with`, or `aclose()`) when stopping early."""
        pages = self._cursor_walk(project_id, status, limit, after, prefetch, parse_page)
        maximum = arguments.check_max_items(max_items)
        return Walk(pages, MODEL_ROWS, max_items=maximum, dedup_window=dedup_window)

    def iter_raw_pages(
        self,
        project_id: str | None = None,
        status: str | None = None,
        limit: int = 20,
        after: str | None = None,
        *,
        prefetch: bool = False,
        max_items: int | None = None,
    ) -> Walk[RawPage]:
        """As `iter_pages`, but each page's items stay the JSON objects received (no models).

        For output that passes items through: the page's fields are checked, the items not.
        """
        pages = self._cursor_walk(project_id, status, limit, after, prefetch, parse_raw_page)
        return Walk(pages, RAW_ROWS, max_items=arguments.check_max_items(max_items))

    def _cursor_walk(
        self,
        project_id: str | None,
        status: str | None,
        limit: int,
        after: str | None,
        prefetch: bool,
        parse: Callable[..., PageT],
    ) -> PageIterator[PageT]:
        """The cursor walker behind `iter_pages` and `iter_raw_pages`."""
        params = self._list_params(project_id, status, limit)
        arguments.check_cursor(after)

        built: dict[str | None, httpx.URL] = {}  # the last few: each is named, then fetched

        def url(cursor: str | None) -> httpx.URL:
            if cursor not in built:
                if len(built) >= 4:
                    del built[next(iter(built))]
                full = {**params, "after": cursor} if cursor is not None else params
                built[cursor] = self._url("/v1/analyses", full)
            return built[cursor]

        async def fetch(cursor: str | None) -> PageT:
            return await self._request(url(cursor), parse)

        return PageIterator(
            fetch, after=after, describe=lambda c: _describe(url(c)), prefetch=prefetch
        )

    async def get_project(self, project_id: str) -> Project:
        """The project with this id."""
        checked = arguments.check_id(project_id, name="project_id")
        url = self._url(f"/v1/projects/{quote(checked, safe='')}", {})
        return await self._request(url, parse_project)

    async def fetch_image(self, url: str, **options: Any) -> image_fetch.ImageBytes:
        """An analysis's image, on this client's connections: the key only to the API's own
        origin, redirects included. Options and errors: `api.image_fetch.fetch_image`."""
        authorization = self._headers()
        return await image_fetch.fetch_image(
            self._http, url, api_base=self._base_url, authorization=authorization, **options
        )

    def api_path(self, url: str) -> str | None:
        """`url`'s path and query when it is on the API's own scheme, host and port, else
        None."""
        return addresses.api_path(url, self._base_url)

    @staticmethod
    def _list_params(project_id: object, status: object, limit: object) -> dict[str, str]:
        checked = arguments.check_list(project_id, status, limit)
        params: dict[str, str] = {}
        if checked.project_id is not None:
            params["project_id"] = checked.project_id
        if checked.status is not None:
            params["status"] = checked.status.value
        params["limit"] = str(checked.limit)
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
                error = status_error(response, body, request)
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
        message = redact(error.message, [self._api_key])
        if message != error.message:
            error.message = message
            error.args = (message,)
        return error

    async def _send(self, url: httpx.URL, request: str) -> tuple[httpx.Response, bytes]:
        """One attempt, following redirects within the same origin only."""
        for _hop in range(MAX_REDIRECTS + 1):
            outgoing = self._http.build_request("GET", url, headers=self._headers())
            answered = False  # the status line came: a failure after it is this answer's
            try:
                async with asyncio.timeout(self.timeouts.total):
                    response = await self._http.send(outgoing, stream=True)
                    answered = True
                    try:
                        body = await read_capped(response, self.max_response_bytes, request)
                    finally:
                        await response.aclose()
            except httpx.TimeoutException as exc:
                raise timeout_error(exc, request, self.timeouts, answered=answered) from exc
            except TimeoutError as exc:  # the attempt as a whole ran past `total`
                message = f"no complete response within {self.timeouts.total:g} s"
                raise APITimeoutError(message, request=request, answered=answered) from exc
            except httpx.TransportError as exc:
                message = transport_message(exc)
                raise APIConnectionError(message, request=request, answered=answered) from exc
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


def _describe(url: httpx.URL) -> str:
    """ "GET /path?query": what errors and logs name; never headers. A path segment or
    query value longer than QUOTE_LIMIT (a 10,000-character cursor) is cut with an ellipsis."""
    path, _, query = url.raw_path.decode("ascii", errors="replace").partition("?")
    text = "/".join(shorten(segment) for segment in path.split("/"))
    if query:
        parts = (part.partition("=") for part in query.split("&"))
        text += "?" + "&".join(name + sep + shorten(value) for name, sep, value in parts)
    return "GET " + text

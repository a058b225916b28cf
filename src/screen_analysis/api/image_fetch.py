"""Fetching an analysis's image for display, with a policy of its own.

- The key goes only to the API's own origin (scheme, host and port). An image elsewhere is
  asked for without it, and so is every hop of a redirect that leaves the origin: such
  redirects are followed (image stores commonly redirect to a CDN), but without the key.
- https, or plain http to this machine (or to the API's own origin, which the user chose);
  a redirect from https down to plain http elsewhere is refused.
- The body is capped while it streams (a declared Content-Length over the cap is refused
  unread); the type is sniffed from the first bytes, never taken from Content-Type.
- One attempt, bounded as a whole by a deadline; no retries (the caller shows one line).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
from typing import NamedTuple

import httpx

from screen_analysis.api.addresses import origin_of
from screen_analysis.api.errors import ImageFetchError
from screen_analysis.api.plain_address import Origin
from screen_analysis.api.redirects import MAX_REDIRECTS, REDIRECT_STATUSES
from screen_analysis.numbers import format_count

MAX_IMAGE_BYTES = 8 * 1024 * 1024
IMAGE_TIMEOUT_S = 20.0
ACCEPT = "image/png, image/jpeg, image/webp, image/gif;q=0.8"
_MAX_AGE = re.compile(r"max-age\s*=\s*(\d{1,9})")
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


class ImageBytes(NamedTuple):
    """An image as fetched: its bytes and sniffed type, or `not_modified` for a 304."""

    url: str
    data: bytes
    media_type: str
    etag: str | None = None
    max_age_s: float | None = None
    not_modified: bool = False


def sniff_image_type(data: bytes) -> str | None:
    """The image type from the first bytes (PNG, JPEG, GIF, WebP), or None."""
    for signature, media_type in _SIGNATURES:
        if data.startswith(signature):
            return media_type
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def is_loopback_host(host: str) -> bool:
    """localhost, 127.0.0.0/8 or ::1."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_image_url(url: httpx.URL, api_origin: Origin) -> None:
    """Refuse what is never fetched: other schemes, credentials, plain http elsewhere."""
    if url.scheme not in ("http", "https") or not url.host:
        raise ImageFetchError("not an http(s) address")
    if url.userinfo:
        raise ImageFetchError("refused: the address carries credentials")
    if url.scheme == "http" and not (is_loopback_host(url.host) or origin_of(url) == api_origin):
        raise ImageFetchError("refused: plain http to another host")


def _max_age(headers: httpx.Headers) -> float | None:
    value = headers.get("cache-control", "").lower()
    if "no-store" in value or "no-cache" in value:
        return 0.0
    found = _MAX_AGE.search(value)
    return float(found.group(1)) if found else None


async def _read_capped(response: httpx.Response, limit: int) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ImageFetchError(f"too large ({format_count(int(declared) // 1024)} KiB)")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():  # decoded: a gzip bomb meets the cap too
        size += len(chunk)
        if size > limit:
            raise ImageFetchError(f"too large (over {format_count(limit // 1024)} KiB)")
        chunks.append(chunk)
    return b"".join(chunks)


def _redirect(response: httpx.Response, current: httpx.URL) -> httpx.URL:
    location = response.headers.get("location")
    if not location:
        raise ImageFetchError(f"HTTP {response.status_code} without a Location")
    # A Location httpx cannot read never comes here: its send refuses it first, as a
    # protocol error ("connection cut short").
    target = current.join(location)
    if current.scheme == "https" and target.scheme == "http" and not is_loopback_host(target.host):
        raise ImageFetchError("refused: redirect from https to plain http")
    return target


async def fetch_image(
    http: httpx.AsyncClient,
    url: str,
    *,
    api_base: httpx.URL,
    authorization: dict[str, str],
    etag: str | None = None,
    max_bytes: int = MAX_IMAGE_BYTES,
    timeout_s: float = IMAGE_TIMEOUT_S,
) -> ImageBytes:
    """GET `url` as an image under the policy above; ImageFetchError for anything else.

    `authorization` (the key's header) is sent only to `api_base`'s origin. With `etag`, a
    304 answers `not_modified` (the caller has the bytes).
    """
    api_origin = origin_of(api_base)
    try:
        current = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        raise ImageFetchError("invalid address") from None
    try:
        async with asyncio.timeout(timeout_s):
            for _hop in range(MAX_REDIRECTS + 1):
                check_image_url(current, api_origin)
                headers = {"Accept": ACCEPT}
                if origin_of(current) == api_origin:
                    headers.update(authorization)
                if etag:
                    headers["If-None-Match"] = etag
                request = http.build_request("GET", current, headers=headers)
                response = await http.send(request, stream=True)
                try:
                    if response.status_code in REDIRECT_STATUSES:
                        current = _redirect(response, current)
                        continue
                    return await _answer(response, str(current), etag, max_bytes)
                finally:
                    await response.aclose()
            raise ImageFetchError(f"more than {MAX_REDIRECTS} redirects")
    except TimeoutError:
        raise ImageFetchError(f"timed out after {timeout_s:g} s") from None
    except httpx.TimeoutException:
        raise ImageFetchError("timed out") from None
    except httpx.TransportError as exc:
        raise ImageFetchError(_transport_reason(exc)) from None
    except httpx.DecodingError:
        raise ImageFetchError("body could not be decoded") from None


async def _answer(
    response: httpx.Response, url: str, etag: str | None, max_bytes: int
) -> ImageBytes:
    new_etag = response.headers.get("etag")
    max_age = _max_age(response.headers)
    if response.status_code == 304 and etag:
        return ImageBytes(url, b"", "", new_etag or etag, max_age, not_modified=True)
    if response.status_code != 200:
        raise ImageFetchError(f"HTTP {response.status_code}")
    data = await _read_capped(response, max_bytes)
    media_type = sniff_image_type(data)
    if media_type is None:
        raise ImageFetchError("not an image")
    return ImageBytes(url, data, media_type, new_etag, max_age)


def _transport_reason(exc: httpx.TransportError) -> str:
    if isinstance(exc, httpx.ConnectError):
        return "host unreachable"
    if isinstance(exc, httpx.RemoteProtocolError):
        return "connection cut short"
    return "connection failed"

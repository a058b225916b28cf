"""Arguments checked before any request is sent, each refusal an InvalidArgumentError."""

from __future__ import annotations

import re

import httpx

from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.models import STATUSES
from screen_analysis.secret import SecretStr

MIN_LIMIT = 1
MAX_LIMIT = 100
_STATUS_VALUES = tuple(status.value for status in STATUSES)
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# What an HTTP header value may carry (visible ASCII); anything else could split the header.
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")


def check_limit(value: object, *, name: str = "limit") -> int:
    """A page size: an integer from 1 to 100."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(
            f"{name} must be an integer from {MIN_LIMIT} to {MAX_LIMIT}, got {_show(value)}",
            param=name,
        )
    if not MIN_LIMIT <= value <= MAX_LIMIT:
        raise InvalidArgumentError(
            f"{name} must be from {MIN_LIMIT} to {MAX_LIMIT}, got {value}", param=name
        )
    return value


def check_status(value: object) -> str | None:
    """None, or one of the four documented statuses."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in _STATUS_VALUES:
        raise InvalidArgumentError(
            f"status must be one of {', '.join(_STATUS_VALUES)}, got {_show(value)}",
            param="status",
        )
    return str(value)


def check_id(value: object, *, name: str) -> str:
    """An identifier: a non-empty string without '/', control characters or dot segments."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgumentError(f"{name} must be a non-empty string", param=name)
    if "/" in value or value in (".", "..") or _UNPRINTABLE.search(value):
        raise InvalidArgumentError(
            f"{name} must not contain '/' or control characters, got {_show(value)}", param=name
        )
    return value


def check_optional_id(value: object, *, name: str) -> str | None:
    """None, or an identifier (see `check_id`)."""
    return None if value is None else check_id(value, name=name)


def check_cursor(value: object) -> str | None:
    """None, or a non-empty cursor string as the server gave it."""
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise InvalidArgumentError("after must be a non-empty cursor string", param="after")
    return value


def check_max_items(value: object) -> int | None:
    """None (no limit), or a positive integer."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(
            f"max_items must be a positive integer, got {_show(value)}", param="max_items"
        )
    return value


def check_base_url(value: object) -> httpx.URL:
    """An absolute http(s) URL, without query or fragment; trailing slashes removed."""
    try:
        url = httpx.URL(value) if isinstance(value, str | httpx.URL) else None
    except (httpx.InvalidURL, TypeError, ValueError):
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.host:
        raise InvalidArgumentError(
            "base URL must be an absolute http:// or https:// URL", param="base_url"
        )
    if url.userinfo:
        # httpx would turn them into Basic auth, replacing the Bearer key.
        raise InvalidArgumentError(
            "base URL must not carry a user name or password", param="base_url"
        )
    if url.query or url.fragment:
        raise InvalidArgumentError("base URL must not carry a query or fragment", param="base_url")
    return url.copy_with(path=url.path.rstrip("/") or "/")


def check_api_key(value: object) -> SecretStr:
    """The key as a SecretStr; it must be non-empty visible ASCII to fit in a header."""
    if isinstance(value, str):
        value = SecretStr(value)
    if not isinstance(value, SecretStr):
        raise InvalidArgumentError("api_key must be a SecretStr", param="api_key")
    if not _HEADER_SAFE.fullmatch(value.get_secret_value()):
        # Never echo the key: only say what is wrong with it.
        raise InvalidArgumentError(
            "api_key must be non-empty and contain only visible ASCII characters",
            param="api_key",
        )
    return value


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"

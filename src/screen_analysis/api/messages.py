"""Extract a human message from an error body whose format is not documented.

Tried in order: the reference server's `{"error": {"message"}}`, `{"error": "text"}`,
`{"detail": "..."}` and FastAPI's detail list, `{"message"}`, `{"errors": [...]}`, RFC 7807
`{"title", "detail"}`, then HTML (its <title>, else the text without tags), then plain text,
then the reason phrase. Whatever is found is made one line, its control characters made
visible, and cut to a sane length (`safe_text.one_line`, the rule for one-line messages).
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from screen_analysis.safe_text import MESSAGE_LIMIT, is_blank, one_line

MAX_MESSAGE_LENGTH = MESSAGE_LIMIT
_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_INVISIBLE = re.compile(
    r"<(script|style|head)\b[^>]*>.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL
)
_TAG = re.compile(r"<[^>]*>")
_MESSAGE_KEYS = ("message", "msg", "detail", "description", "error_description", "title")


class ErrorDetails(NamedTuple):
    """What could be learnt from an error body."""

    message: str
    error_type: str | None = None
    param: str | None = None


def extract_error_details(
    body: bytes, *, content_type: str | None = None, reason: str = ""
) -> ErrorDetails:
    """Return the message (and, for the documented format, type and param) of an error body."""
    text = body.decode("utf-8", errors="replace").strip()
    fallback = one_line(reason) or "no message"
    if is_blank(text):
        return ErrorDetails(fallback)
    if text[0] in '{["':
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            parsed = None
        else:
            details = _from_json(parsed)
            if details is not None and details.message:
                return details
    mime = (content_type or "").lower()
    message = _from_html(text) if "html" in mime or text.startswith("<") else text
    return ErrorDetails(fallback if is_blank(message) else one_line(message))


def extract_message(body: bytes, *, content_type: str | None = None, reason: str = "") -> str:
    """Return only the message of an error body (see `extract_error_details`)."""
    return extract_error_details(body, content_type=content_type, reason=reason).message


def _from_json(value: Any) -> ErrorDetails | None:
    if isinstance(value, str):
        return ErrorDetails(one_line(value))
    if isinstance(value, list):
        message = _join(value)
        return ErrorDetails(message) if message else None
    if not isinstance(value, dict):
        return None
    error = value.get("error")
    if isinstance(error, dict):
        found = _first_message(error) or _text(error.get("type")) or _text(error.get("code"))
        if found:
            return ErrorDetails(found, _text(error.get("type")), _text(error.get("param")))
    elif isinstance(error, str) and error.strip():
        extra = _first_message(value)
        return ErrorDetails(one_line(f"{error}: {extra}" if extra else error))
    elif isinstance(error, list):
        message = _join(error)
        if message:
            return ErrorDetails(message)
    title, detail = _text(value.get("title")), value.get("detail")
    if isinstance(detail, list):
        message = _join(detail)
        if message:
            return ErrorDetails(message)
    if title and isinstance(detail, str) and detail.strip():
        return ErrorDetails(one_line(f"{title}: {detail}"))
    message = _first_message(value)
    if message:
        return ErrorDetails(message)
    errors = value.get("errors")
    if isinstance(errors, list | dict):
        message = _join(errors if isinstance(errors, list) else [errors])
        if message:
            return ErrorDetails(message)
    return ErrorDetails(one_line(json.dumps(value, ensure_ascii=False)))


def _first_message(value: dict[str, Any]) -> str:
    for key in _MESSAGE_KEYS:
        item = value.get(key)
        if isinstance(item, str) and item.strip():
            return one_line(item)
        if isinstance(item, dict):
            nested = _first_message(item)
            if nested:
                return nested
    return ""


def _join(items: list[Any]) -> str:
    """Messages of a list of errors (strings, or objects such as FastAPI's loc/msg)."""
    parts: list[str] = []
    for item in items[:5]:
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, dict):
            message = _first_message(item)
            location = item.get("loc") or item.get("field") or item.get("param")
            if isinstance(location, list):
                location = ".".join(str(part) for part in location)
            if message and isinstance(location, str | int) and str(location):
                message = f"{location}: {message}"
            if message:
                parts.append(message)
    return one_line("; ".join(parts))


def _text(value: Any) -> str | None:
    return one_line(value) if isinstance(value, str) and value.strip() else None


def _from_html(text: str) -> str:
    # Imported for an HTML error page only, not with the error words every start loads.
    from html import unescape

    match = _TITLE.search(text)
    if match and match.group(1).strip():
        return unescape(_TAG.sub(" ", match.group(1)))
    return unescape(_TAG.sub(" ", _INVISIBLE.sub(" ", text)))

"""Extract a human message from an error body whose format is not documented.

Tried in order: the reference server's `{"error": {"message"}}`, `{"error": "text"}`,
`{"detail": "..."}` and FastAPI's detail list, `{"message"}`, `{"errors": [...]}`, RFC 7807
`{"title", "detail"}`, then HTML (its <title>, else the text without tags), then plain text,
then the reason phrase. Whatever is found is made one line without control characters and
cut to a sane length.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, NamedTuple

MAX_MESSAGE_LENGTH = 300

# C0/C1 controls, DEL and bidi overrides: removed so server text cannot drive the terminal.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_WHITESPACE = re.compile(r"\s+")
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


def clean_message(text: str, *, limit: int = MAX_MESSAGE_LENGTH) -> str:
    """One line of text: whitespace folded, control characters removed, cut at `limit`."""
    text = _WHITESPACE.sub(" ", _CONTROL.sub(" ", text)).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def extract_error_details(
    body: bytes, *, content_type: str | None = None, reason: str = ""
) -> ErrorDetails:
    """Return the message (and, for the documented format, type and param) of an error body."""
    text = body.decode("utf-8", errors="replace").strip()
    fallback = clean_message(reason) or "no message"
    if not text:
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
    if "html" in mime or text.startswith("<"):
        message = clean_message(_from_html(text))
    else:
        message = clean_message(text)
    return ErrorDetails(message or fallback)


def extract_message(body: bytes, *, content_type: str | None = None, reason: str = "") -> str:
    """Return only the message of an error body (see `extract_error_details`)."""
    return extract_error_details(body, content_type=content_type, reason=reason).message


def _from_json(value: Any) -> ErrorDetails | None:
    if isinstance(value, str):
        return ErrorDetails(clean_message(value))
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
        return ErrorDetails(clean_message(f"{error}: {extra}" if extra else error))
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
        return ErrorDetails(clean_message(f"{title}: {detail}"))
    message = _first_message(value)
    if message:
        return ErrorDetails(message)
    errors = value.get("errors")
    if isinstance(errors, list | dict):
        message = _join(errors if isinstance(errors, list) else [errors])
        if message:
            return ErrorDetails(message)
    return ErrorDetails(clean_message(json.dumps(value, ensure_ascii=False)))


def _first_message(value: dict[str, Any]) -> str:
    for key in _MESSAGE_KEYS:
        item = value.get(key)
        if isinstance(item, str) and item.strip():
            return clean_message(item)
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
    return clean_message("; ".join(parts))


def _text(value: Any) -> str | None:
    return clean_message(value) if isinstance(value, str) and value.strip() else None


def _from_html(text: str) -> str:
    match = _TITLE.search(text)
    if match and match.group(1).strip():
        return html.unescape(_TAG.sub(" ", match.group(1)))
    return html.unescape(_TAG.sub(" ", _INVISIBLE.sub(" ", text)))

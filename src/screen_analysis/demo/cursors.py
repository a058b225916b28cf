"""Opaque keyset cursors: url-safe base64 of JSON holding the sort key of the last row,
a fingerprint of the filters, and a MAC so an edited cursor is refused rather than obeyed."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re

SortKey = tuple[str, str]

_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
_ANALYSIS_ID = re.compile(r"ana_[0-9a-f]{24}")


class InvalidCursorError(ValueError):
    """The cursor is garbage, was altered, or belongs to other filters."""


def filter_fingerprint(project_id: str | None, status: str | None) -> str:
    """A short digest of the filters a cursor was issued for."""
    text = json.dumps([project_id, status])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _mac(secret: bytes, created_at: str, analysis_id: str, fingerprint: str) -> str:
    message = f"{created_at}|{analysis_id}|{fingerprint}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()[:16]


def encode_cursor(key: SortKey, project_id: str | None, status: str | None, secret: bytes) -> str:
    """The cursor that continues after the row with sort key `key`."""
    created_at, analysis_id = key
    fingerprint = filter_fingerprint(project_id, status)
    payload = {
        "c": created_at,
        "i": analysis_id,
        "f": fingerprint,
        "m": _mac(secret, created_at, analysis_id, fingerprint),
    }
    raw = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def decode_cursor(
    cursor: str, project_id: str | None, status: str | None, secret: bytes
) -> SortKey:
    """The sort key inside `cursor`, after checking its integrity and filters."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        payload = json.loads(raw)
        created_at, analysis_id = payload["c"], payload["i"]
        fingerprint, mac = payload["f"], payload["m"]
    except (binascii.Error, ValueError, TypeError, KeyError) as error:
        raise InvalidCursorError("after is not a valid cursor") from error
    fields = (created_at, analysis_id, fingerprint, mac)
    if not all(isinstance(value, str) for value in fields):
        raise InvalidCursorError("after is not a valid cursor")
    if not hmac.compare_digest(mac, _mac(secret, created_at, analysis_id, fingerprint)):
        raise InvalidCursorError("after is not a valid cursor: it has been altered")
    if not (_TIMESTAMP.fullmatch(created_at) and _ANALYSIS_ID.fullmatch(analysis_id)):
        raise InvalidCursorError("after is not a valid cursor")
    if fingerprint != filter_fingerprint(project_id, status):
        raise InvalidCursorError(
            "after was issued for other filters: repeat the same project_id and status"
        )
    return created_at, analysis_id

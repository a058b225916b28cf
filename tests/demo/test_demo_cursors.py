"""Keyset cursors: opaque, bound to their filters, refused when damaged."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

Walk = Callable[..., list[dict[str, Any]]]


def first_cursor(api: httpx.Client, **params: str | int) -> str:
    cursor = api.get("/v1/analyses", params={"limit": 5, **params}).json()["next_cursor"]
    assert isinstance(cursor, str)
    return cursor


def decode(cursor: str) -> dict[str, str]:
    payload: dict[str, str] = json.loads(
        base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    )
    return payload


def encode(payload: dict[str, str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode()


def assert_bad_cursor(response: httpx.Response, fragment: str = "cursor") -> None:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert (error["type"], error["param"]) == ("invalid_request", "after")
    assert fragment in error["message"]


def test_cursor_is_url_safe_text(api: httpx.Client) -> None:
    cursor = first_cursor(api)
    assert set(cursor) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_cursor_continues_right_after_the_page(api: httpx.Client, walk: Walk) -> None:
    everything = walk(api, limit=100)
    body = api.get("/v1/analyses", params={"limit": 5, "after": first_cursor(api)}).json()
    assert body["data"] == everything[5:10]
    assert body["total"] == 300


def test_same_request_gives_the_same_cursor(api: httpx.Client) -> None:
    assert first_cursor(api) == first_cursor(api)


@pytest.mark.parametrize("garbage", ["x", "%%%", "bm90IGpzb24", "e30", "W10", "null", "AAAA"])
def test_garbage_cursor_is_400(api: httpx.Client, garbage: str) -> None:
    assert_bad_cursor(api.get("/v1/analyses", params={"after": garbage}))


def test_empty_cursor_is_400(api: httpx.Client) -> None:
    assert_bad_cursor(api.get("/v1/analyses", params={"after": ""}))


def test_cursor_from_other_filters_is_400(api: httpx.Client) -> None:
    cursor = first_cursor(api, status="completed")
    assert_bad_cursor(api.get("/v1/analyses", params={"after": cursor}), "other filters")
    assert_bad_cursor(
        api.get("/v1/analyses", params={"after": cursor, "status": "failed"}), "other filters"
    )
    # The page size is not a filter: it may change between pages.
    ok = api.get("/v1/analyses", params={"after": cursor, "status": "completed", "limit": 50})
    assert ok.status_code == 200


@pytest.mark.parametrize("field", ["c", "i", "f"])
def test_tampered_cursor_is_400(api: httpx.Client, field: str) -> None:
    payload = decode(first_cursor(api))
    altered = {"c": "2030-01-01T00:00:00Z", "i": "ana_" + "0" * 24, "f": "0" * 16}[field]
    payload[field] = altered
    assert_bad_cursor(api.get("/v1/analyses", params={"after": encode(payload)}), "altered")


def test_truncated_cursor_is_400(api: httpx.Client) -> None:
    cursor = first_cursor(api)
    assert_bad_cursor(api.get("/v1/analyses", params={"after": cursor[:-6]}))

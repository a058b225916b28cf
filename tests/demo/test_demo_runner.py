"""DemoServer lifecycle: quick start, clean stop, no leaked threads."""

from __future__ import annotations

import threading
from datetime import datetime

import httpx
import pytest
from tests.support.threads import threads_left

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.runner import DemoServer, banner


def test_start_serve_stop_leaves_no_threads(demo_now: datetime) -> None:
    before = set(threading.enumerate())
    server = DemoServer(DemoConfig(now=demo_now)).start()
    try:
        assert server.base_url.startswith("http://127.0.0.1:")
        headers = {"Authorization": f"Bearer {server.api_key}"}
        body = httpx.get(server.base_url + "/v1/analyses", headers=headers).json()
        assert body["total"] == 5000
    finally:
        server.stop()
    assert threads_left(before) == set()


def test_stopped_server_refuses_use_and_stop_is_idempotent(demo_now: datetime) -> None:
    server = DemoServer(DemoConfig(analyses=10, now=demo_now))
    with server:
        port = server.base_url
    server.stop()
    with pytest.raises(RuntimeError):
        _ = server.base_url
    with pytest.raises(httpx.ConnectError):
        httpx.get(port + "/openapi.json")


def test_two_servers_side_by_side(demo_now: datetime) -> None:
    with (
        DemoServer(DemoConfig(analyses=10, now=demo_now)) as one,
        DemoServer(DemoConfig(analyses=10, now=demo_now)) as two,
    ):
        assert one.base_url != two.base_url


def test_banner_shows_url_and_key(demo_now: datetime) -> None:
    text = banner(DemoConfig(now=demo_now), "127.0.0.1", 8000)
    assert "http://127.0.0.1:8000" in text and "demo-key-not-a-secret" in text

"""Fault injection and the request log, tuned while the server runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import httpx

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.faults import RequestRecord
from screen_analysis.demo.gate import REQUEST_LOG_LIMIT
from screen_analysis.demo.runner import DemoServer


def test_injected_responses_are_served_exactly_then_run_out(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    fresh_demo_server.faults.inject(503, {"Retry-After": "7", "X-Test": "yes"}, count=2)
    for _ in range(2):
        response = fresh_api.get("/v1/analyses")
        assert response.status_code == 503
        assert response.headers["retry-after"] == "7" and response.headers["x-test"] == "yes"
        assert response.json()["error"]["type"] == "server_error"
    assert fresh_api.get("/v1/analyses").status_code == 200
    assert fresh_demo_server.faults.pending_injections == 0


def test_an_injection_matching_a_request_waits_for_one(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    """With `matching`, only a request whose path and query hold the text is answered with
    it; the others, before and after, are answered as usual, and an unmatched injection
    queued behind it still goes to the next request."""
    faults = fresh_demo_server.faults
    faults.inject(503, matching="after=")
    faults.inject(418)
    first = fresh_api.get("/v1/analyses", params={"limit": 2})
    assert first.status_code == 418  # the plain one, queued second, went first
    assert fresh_api.get("/v1/analyses", params={"limit": 2}).status_code == 200
    assert fresh_api.get("/v1/analyses", params={"status": "failed", "limit": 1}).is_success
    assert faults.pending_injections == 1
    cursor = fresh_api.get("/v1/analyses", params={"limit": 2}).json()["next_cursor"]
    page = fresh_api.get("/v1/analyses", params={"limit": 2, "after": cursor})
    assert page.status_code == 503 and faults.pending_injections == 0


def _until(check: Callable[[], bool], within_s: float = 30.0) -> None:
    """Wait for the server's side of a hold (a deadline, not a timing)."""
    deadline = time.monotonic() + within_s
    while not check():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.005)


def test_a_hold_keeps_matching_requests_unanswered_until_released(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    """A held request waits for the test, the others are answered meanwhile; released,
    it is answered as usual, and a request after the release is not held."""
    faults = fresh_demo_server.faults
    with ThreadPoolExecutor(1) as pool, faults.hold("after=") as held:
        cursor = fresh_api.get("/v1/analyses", params={"limit": 2}).json()["next_cursor"]
        page = pool.submit(fresh_api.get, "/v1/analyses", params={"limit": 2, "after": cursor})
        _until(lambda: held.waiting == 1)
        assert fresh_api.get("/v1/analyses", params={"limit": 1}).is_success  # it goes on
        assert not page.done() and held.waiting == 1
        held.release()
        assert page.result(timeout=30).status_code == 200
    assert held.waiting == 0 and held.held == 1
    again = fresh_api.get("/v1/analyses", params={"limit": 2, "after": cursor})
    assert again.status_code == 200 and held.held == 1
    assert faults.holds_for(f"/v1/analyses?after={cursor}") == []


def test_stopping_the_server_lets_a_held_request_go(demo_now: datetime) -> None:
    server = DemoServer(DemoConfig(analyses=20, now=demo_now)).start()
    headers = {"Authorization": f"Bearer {server.api_key}"}
    held = server.faults.hold("/v1/")
    with ThreadPoolExecutor(1) as pool:
        asked = pool.submit(httpx.get, server.base_url + "/v1/analyses", headers=headers)
        _until(lambda: held.waiting == 1)
        server.stop()
        assert held.released
        assert asked.result(timeout=30).status_code == 200  # answered, not left hanging


def test_injected_bodies_text_bytes_and_json(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    faults = fresh_demo_server.faults
    faults.inject(200, body="<html>oops</html>", headers={"Content-Type": "text/html"})
    faults.inject(200, body=b"\x00\xff")
    faults.inject(200, body={"data": "not a list"})
    html = fresh_api.get("/v1/analyses")
    assert html.headers["content-type"] == "text/html" and html.text == "<html>oops</html>"
    assert fresh_api.get("/v1/analyses").content == b"\x00\xff"
    assert fresh_api.get("/v1/analyses").json() == {"data": "not a list"}


def test_injection_applies_before_auth(fresh_demo_server: DemoServer) -> None:
    fresh_demo_server.faults.inject(429, {"Retry-After": "1"})
    response = httpx.get(fresh_demo_server.base_url + "/v1/analyses")
    assert response.status_code == 429


def test_rate_limit_rate_gives_429_with_retry_after(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    fresh_demo_server.faults.rate_limit_rate = 1.0
    fresh_demo_server.faults.retry_after_s = 3
    response = fresh_api.get("/v1/analyses")
    assert response.status_code == 429
    assert response.headers["retry-after"] == "3"
    assert response.json()["error"]["type"] == "rate_limited"


def test_error_rate_gives_500_and_503(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    fresh_demo_server.faults.error_rate = 1.0
    statuses = {fresh_api.get("/v1/analyses").status_code for _ in range(30)}
    assert statuses == {500, 503}
    fresh_demo_server.faults.clear()
    assert fresh_api.get("/v1/analyses").status_code == 200


def test_partial_error_rate_is_seeded(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    fresh_demo_server.faults.error_rate = 0.5
    statuses = [fresh_api.get("/v1/projects/proj_x").status_code for _ in range(40)]
    assert 5 < statuses.count(404) < 35
    with DemoServer(fresh_demo_server.config) as twin:
        twin.faults.error_rate = 0.5
        auth = {"Authorization": f"Bearer {twin.api_key}"}
        client = httpx.Client(base_url=twin.base_url, headers=auth)
        again = [client.get("/v1/projects/proj_x").status_code for _ in range(40)]
        client.close()
    assert again == statuses


def test_latency_and_jitter(fresh_demo_server: DemoServer, fresh_api: httpx.Client) -> None:
    fresh_demo_server.faults.latency_ms = 120
    fresh_demo_server.faults.latency_jitter_ms = 30
    started = time.perf_counter()
    assert fresh_api.get("/v1/analyses", params={"limit": 1}).status_code == 200
    assert time.perf_counter() - started >= 0.12


def test_faults_only_touch_the_api(fresh_demo_server: DemoServer) -> None:
    fresh_demo_server.faults.error_rate = 1.0
    assert httpx.get(fresh_demo_server.base_url + "/openapi.json").status_code == 200


def test_request_log_records_method_path_query_status(
    fresh_demo_server: DemoServer, fresh_api: httpx.Client
) -> None:
    fresh_api.get("/v1/analyses", params={"status": "failed", "limit": 3})
    fresh_api.get("/v1/analyses", params={"limit": 0})
    fresh_api.get("/v1/projects/proj_x")
    log = fresh_demo_server.request_log
    assert [(r.method, r.path, r.query, r.status) for r in log] == [
        ("GET", "/v1/analyses", {"status": "failed", "limit": "3"}, 200),
        ("GET", "/v1/analyses", {"limit": "0"}, 400),
        ("GET", "/v1/projects/proj_x", {}, 404),
    ]


def test_request_log_keeps_only_the_most_recent_requests(fresh_demo_server) -> None:
    # Filled to the limit without sending ten thousand requests; one more trims the oldest half.
    log = fresh_demo_server.request_log
    log.extend(RequestRecord("GET", "/old", {}, 200) for _ in range(REQUEST_LOG_LIMIT))
    httpx.get(
        fresh_demo_server.base_url + "/v1/analyses?limit=1",
        headers={"Authorization": f"Bearer {fresh_demo_server.api_key}"},
    )
    assert len(log) == REQUEST_LOG_LIMIT // 2 + 1
    assert log[-1].path == "/v1/analyses"

"""Bearer auth on every /v1 request and the one error format."""

from __future__ import annotations

import httpx
import pytest

from screen_analysis.demo.runner import DemoServer

V1_PATHS = ["/v1/analyses", "/v1/projects/proj_x", "/v1/nothing-here"]


@pytest.mark.parametrize("path", V1_PATHS)
def test_missing_key_is_401(demo_server: DemoServer, path: str) -> None:
    response = httpx.get(demo_server.base_url + path)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    error = response.json()["error"]
    assert (error["type"], error["param"]) == ("authentication_error", None)


@pytest.mark.parametrize(
    "header", ["Bearer wrong", "Bearer", "Basic abc", "demo-key-not-a-secret", "Bearer x y"]
)
def test_wrong_or_malformed_key_is_401(demo_server: DemoServer, header: str) -> None:
    response = httpx.get(demo_server.base_url + "/v1/analyses", headers={"Authorization": header})
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "authentication_error"


def test_error_never_echoes_the_key(demo_server: DemoServer) -> None:
    response = httpx.get(
        demo_server.base_url + "/v1/analyses", headers={"Authorization": "Bearer sk-leaky-123"}
    )
    assert "sk-leaky-123" not in response.text


def test_scheme_is_case_insensitive(demo_server: DemoServer) -> None:
    header = f"bearer {demo_server.api_key}"
    response = httpx.get(demo_server.base_url + "/v1/analyses", headers={"Authorization": header})
    assert response.status_code == 200


def test_unknown_path_is_404_in_the_error_format(api: httpx.Client) -> None:
    for path in ("/v1/nothing-here", "/elsewhere"):
        response = api.get(path)
        assert response.status_code == 404
        assert response.json() == {
            "error": {"type": "not_found", "message": f"No route for {path}", "param": None}
        }


def test_wrong_method_is_405_in_the_error_format(api: httpx.Client) -> None:
    response = api.post("/v1/analyses")
    assert response.status_code == 405
    assert response.json()["error"]["type"] == "invalid_request"
    assert "GET" in response.headers["allow"]


def test_openapi_needs_no_key(demo_server: DemoServer) -> None:
    response = httpx.get(demo_server.base_url + "/openapi.json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.1")

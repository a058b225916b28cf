"""The hand-written OpenAPI document: committed copy current, served, self-consistent."""

from __future__ import annotations

from typing import Any

import httpx

from screen_analysis.demo.openapi import DOCUMENT_PATH, openapi_document, render_openapi


def test_committed_document_is_current() -> None:
    assert DOCUMENT_PATH.read_text(encoding="utf-8") == render_openapi(), (
        "docs/openapi.json is stale: run `uv run python -m screen_analysis.demo.openapi`"
    )


def test_served_document_equals_the_code(api: httpx.Client) -> None:
    assert api.get("/openapi.json").json() == openapi_document()


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _refs(value)]
    return []


def test_every_reference_resolves() -> None:
    document = openapi_document()
    schemas = document["components"]["schemas"]
    for ref in _refs(document):
        assert ref.removeprefix("#/components/schemas/") in schemas


def test_document_describes_both_operations() -> None:
    paths = openapi_document()["paths"]
    assert set(paths) == {"/v1/analyses", "/v1/projects/{id}"}
    params = {p["name"] for p in paths["/v1/analyses"]["get"]["parameters"]}
    assert params == {"project_id", "status", "limit", "after"}


def test_after_is_an_opaque_non_empty_cursor(api: httpx.Client) -> None:
    params = openapi_document()["paths"]["/v1/analyses"]["get"]["parameters"]
    after = next(p for p in params if p["name"] == "after")
    assert after["schema"] == {"type": "string", "minLength": 1}
    assert "opaque" in after["description"]
    refused = api.get("/v1/analyses", params={"after": ""})
    assert refused.status_code == 400 and refused.json()["error"]["param"] == "after"


def test_each_documented_error_names_its_type_with_an_example() -> None:
    document = openapi_document()
    types = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]
    for path in document["paths"].values():
        for status, response in path["get"]["responses"].items():
            if status.startswith("2"):
                continue
            body = response["content"]["application/json"]
            assert body["schema"] == {"$ref": "#/components/schemas/Error"}
            assert body["example"]["error"]["type"] in types["type"]["enum"]
            assert f"`{body['example']['error']['type']}`" in response["description"]

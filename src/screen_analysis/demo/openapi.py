"""The OpenAPI 3.1 document of the API as this project understands it, written as data.

Written by hand rather than derived from code: it is the reference the client is checked
against, and it records the choices API.md leaves open (order, errors, state fields).
`python -m screen_analysis.demo.openapi` rewrites docs/openapi.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from screen_analysis.demo.vocabulary import CRITERIA

DOCUMENT_PATH = Path(__file__).resolve().parents[3] / "docs" / "openapi.json"

_TIMESTAMP = {"type": "string", "format": "date-time", "examples": ["2026-10-31T23:33:48Z"]}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [schema, {"type": "null"}]}


def _error_response(
    description: str,
    error_type: str,
    example: str,
    *,
    param: str | None = None,
    headers: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A documented error: its `error.type`, and an example body."""
    body = {"error": {"type": error_type, "message": example, "param": param}}
    response: dict[str, Any] = {
        "description": f"{description} error.type is `{error_type}`.",
        "content": {"application/json": {"schema": _ref("Error"), "example": body}},
    }
    if headers:
        response["headers"] = headers
    return response


_SCORE = {"type": "integer", "minimum": 0, "maximum": 100}
_WEIGHT = {"type": "number", "minimum": 0, "maximum": 1}

_SCHEMAS: dict[str, Any] = {
    "Status": {
        "type": "string",
        "enum": ["pending", "processing", "completed", "failed"],
        "description": "pending and processing are in flight; completed and failed are final.",
    },
    "Breakdown": {
        "type": "object",
        "description": "Integer score per criterion.",
        "properties": {name: _SCORE for name in CRITERIA},
        "required": list(CRITERIA),
    },
    "Criteria": {
        "type": "object",
        "description": "Scoring weights; in the reference data they sum to 1.0.",
        "properties": {name: _WEIGHT for name in CRITERIA},
        "required": list(CRITERIA),
    },
    "Analysis": {
        "type": "object",
        "description": (
            "pending/processing: score, breakdown, error_message and completed_at are null, "
            "feedback is []. failed: error_message and completed_at set, score and breakdown "
            "null, feedback []. completed: everything set, error_message null."
        ),
        "properties": {
            "id": {
                "type": "string",
                "pattern": "^ana_",
                "examples": ["ana_0a4e5b70a6d964a3f510ab53"],
            },
            "project_id": {"type": "string", "pattern": "^proj_"},
            "status": _ref("Status"),
            "image_url": {"type": "string", "format": "uri"},
            "label": {"type": "string"},
            "score": _nullable(_SCORE | {"description": "Weighted mean of the breakdown."}),
            "breakdown": _nullable(_ref("Breakdown")),
            "feedback": {"type": "array", "items": {"type": "string"}},
            "error_message": {"type": ["string", "null"]},
            "created_at": _TIMESTAMP,
            "completed_at": _nullable(_TIMESTAMP),
        },
        "required": [
            "id",
            "project_id",
            "status",
            "image_url",
            "label",
            "score",
            "breakdown",
            "feedback",
            "error_message",
            "created_at",
            "completed_at",
        ],
    },
    "AnalysisPage": {
        "type": "object",
        "properties": {
            "data": {"type": "array", "items": _ref("Analysis")},
            "next_cursor": {
                "type": ["string", "null"],
                "description": "Pass as `after` for the next page; null on the last page.",
            },
            "total": {
                "type": "integer",
                "minimum": 0,
                "description": "Analyses matching project_id and status across all pages.",
            },
        },
        "required": ["data", "next_cursor", "total"],
    },
    "Project": {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^proj_"},
            "name": {"type": "string"},
            "description": {"type": ["string", "null"]},
            "default_criteria": _nullable(_ref("Criteria")),
            "analysis_count": {
                "type": "integer",
                "minimum": 0,
                "description": "Analyses of the project in every status.",
            },
            "avg_score": {
                "type": ["number", "null"],
                "description": (
                    "Mean score of completed analyses rounded half up to one decimal; "
                    "null when none completed."
                ),
            },
            "created_at": _TIMESTAMP,
            "updated_at": _TIMESTAMP,
        },
        "required": ["id", "name", "analysis_count", "created_at", "updated_at"],
    },
    "Error": {
        "type": "object",
        "properties": {
            "error": {
                "type": "object",
                "properties": {
                    "type": {
                        "type": "string",
                        "enum": [
                            "invalid_request",
                            "authentication_error",
                            "not_found",
                            "rate_limited",
                            "server_error",
                        ],
                    },
                    "message": {"type": "string"},
                    "param": {
                        "type": ["string", "null"],
                        "description": "The parameter at fault (limit, status, after, …).",
                    },
                },
                "required": ["type", "message", "param"],
            }
        },
        "required": ["error"],
    },
}

_COMMON_ERRORS: dict[str, Any] = {
    "401": _error_response(
        "Missing or wrong API key.",
        "authentication_error",
        "Invalid API key",
        headers={"WWW-Authenticate": {"schema": {"type": "string"}}},
    ),
    "429": _error_response(
        "Rate limited; retry after the seconds in Retry-After.",
        "rate_limited",
        "Too many requests.",
        headers={"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}},
    ),
    "500": _error_response("Server error.", "server_error", "Internal server error."),
    "503": _error_response("Service unavailable.", "server_error", "Service unavailable."),
}


def _query(
    name: str, schema: dict[str, Any], description: str, example: Any = None
) -> dict[str, Any]:
    parameter = {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }
    if example is not None:
        parameter["example"] = example
    return parameter


_LIST_ANALYSES: dict[str, Any] = {
    "operationId": "listAnalyses",
    "summary": "List analyses, newest first, with cursor pagination",
    "description": (
        "Ordered by created_at descending, then id descending. Keyset cursors: a cursor is "
        "opaque, bound to the project_id and status it was issued with, and refused when "
        "altered. An unknown project_id matches nothing (an empty page, total 0)."
    ),
    "parameters": [
        _query("project_id", {"type": "string", "minLength": 1}, "Only this project."),
        _query("status", _ref("Status"), "Only this status.", "completed"),
        _query(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
            "Page size.",
            5,
        ),
        _query(
            "after",
            {"type": "string", "minLength": 1},
            "An opaque cursor: the next_cursor of the previous page, passed back unchanged. "
            "Never empty; a cursor that was altered, or issued for another project_id or "
            "status, is refused with 400 (error.param `after`).",
        ),
    ],
    "responses": {
        "200": {
            "description": "A page of analyses.",
            "content": {"application/json": {"schema": _ref("AnalysisPage")}},
        },
        "400": _error_response(
            "Bad limit, status, project_id or cursor (empty, altered, or issued for other "
            "filters); error.param names the parameter.",
            "invalid_request",
            "after is not a valid cursor",
            param="after",
        ),
        **_COMMON_ERRORS,
    },
}

_GET_PROJECT: dict[str, Any] = {
    "operationId": "getProject",
    "summary": "Retrieve a project with its statistics",
    "parameters": [
        {
            "name": "id",
            "in": "path",
            "required": True,
            "schema": {"type": "string", "minLength": 1},
            "example": "proj_0123456789abcdef",
        },
    ],
    "responses": {
        "200": {
            "description": "The project.",
            "content": {"application/json": {"schema": _ref("Project")}},
        },
        "404": _error_response(
            "No project with this id.", "not_found", "No project with id 'proj_0123'"
        ),
        **_COMMON_ERRORS,
    },
}


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document served at /openapi.json."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Screen Analysis Service",
            "version": "1.0.0",
            "description": (
                "Read operations of the Screen Analysis Service as implemented by the "
                "screen-analysis reference server (screen_analysis.demo)."
            ),
        },
        "servers": [{"url": "http://127.0.0.1:8000"}],
        "security": [{"bearerAuth": []}],
        "paths": {
            "/v1/analyses": {"get": _LIST_ANALYSES},
            "/v1/projects/{id}": {"get": _GET_PROJECT},
        },
        "components": {
            "schemas": _SCHEMAS,
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
        },
    }


def render_openapi() -> str:
    """The document as committed: two-space indented JSON with a final newline."""
    return json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the document to the path given, or to docs/openapi.json."""
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else DOCUMENT_PATH
    target.write_text(render_openapi(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The Starlette application: GET /v1/analyses, GET /v1/projects/{id}, GET /v1/images/{id}.png,
GET /openapi.json."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.cursors import InvalidCursorError, decode_cursor, encode_cursor
from screen_analysis.demo.faults import Faults, RequestRecord, error_body
from screen_analysis.demo.gate import ApiGate, InFlight
from screen_analysis.demo.image_route import IMAGE_PATH, DrawnImages, image_endpoint, image_url
from screen_analysis.demo.openapi import openapi_document
from screen_analysis.demo.store import DemoStore

STATUSES = ("pending", "processing", "completed", "failed")
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
_DIGITS = re.compile(r"[0-9]{1,6}")


class BadRequest(Exception):
    """A request parameter the server refuses; becomes a 400 naming the parameter."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(message)
        self.param = param
        self.message = message


def _single(request: Request, name: str) -> str | None:
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise BadRequest(name, f"{name} was given more than once")
    return values[0] if values else None


def _parse_limit(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_LIMIT
    if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= MAX_LIMIT:
        raise BadRequest("limit", f"limit must be an integer from 1 to {MAX_LIMIT}")
    return int(raw)


def _parse_status(raw: str | None) -> str | None:
    if raw is not None and raw not in STATUSES:
        raise BadRequest("status", f"status must be one of {', '.join(STATUSES)}")
    return raw


def _parse_project_id(raw: str | None) -> str | None:
    if raw is not None and not raw:
        raise BadRequest("project_id", "project_id must not be empty")
    return raw


def create_app(config: DemoConfig, store: DemoStore | None = None) -> Starlette:
    """Build the reference server for `config`, on `store` or on a freshly built one.

    `app.state` carries `store`, `faults` (live-tunable) and `request_log` (a list of
    `RequestRecord`).
    """
    store = store if store is not None else DemoStore.build(config)
    faults = Faults.from_config(config)
    request_log: list[RequestRecord] = []
    in_flight = InFlight()
    drawn = DrawnImages()
    # Cursors are signed with a key derived from the seed, so they survive a restart.
    secret = hashlib.sha256(f"cursor:{config.seed}:{config.api_key}".encode()).digest()

    def list_analyses(request: Request) -> Response:
        project_id = _parse_project_id(_single(request, "project_id"))
        status = _parse_status(_single(request, "status"))
        limit = _parse_limit(_single(request, "limit"))
        after = _single(request, "after")
        key = None
        if after is not None:
            try:
                key = decode_cursor(after, project_id, status, secret)
            except InvalidCursorError as error:
                raise BadRequest("after", str(error)) from error
        data, more = store.list_analyses(project_id, status, limit, key)
        next_cursor = None
        if more:
            last = (data[-1]["created_at"], data[-1]["id"])
            next_cursor = encode_cursor(last, project_id, status, secret)
        total = store.count_analyses(project_id, status)
        for item in data:  # the images are served here, on the API's own origin
            item["image_url"] = image_url(request, item["id"])
        return JSONResponse({"data": data, "next_cursor": next_cursor, "total": total})

    def get_project(request: Request) -> Response:
        project_id = request.path_params["project_id"]
        project = store.get_project(project_id)
        if project is None:
            body = error_body(404, f"No project with id {project_id!r}", "id")
            return JSONResponse(body, status_code=404)
        return JSONResponse(project)

    def openapi(request: Request) -> Response:
        return JSONResponse(openapi_document())

    app = Starlette(
        routes=[
            Route("/v1/analyses", list_analyses, methods=["GET"]),
            Route("/v1/projects/{project_id}", get_project, methods=["GET"]),
            Route(IMAGE_PATH, image_endpoint(store, faults, drawn), methods=["GET"]),
            Route("/openapi.json", openapi, methods=["GET"]),
        ],
        middleware=[
            Middleware(
                ApiGate,
                api_key=config.api_key,
                faults=faults,
                request_log=request_log,
                in_flight=in_flight,
            )
        ],
        exception_handlers={
            BadRequest: _bad_request,
            HTTPException: _http_error,
            Exception: _server_error,
        },
    )
    app.state.store = store
    app.state.faults = faults
    app.state.request_log = request_log
    app.state.in_flight = in_flight
    app.state.drawn_images = drawn
    return app


async def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    return JSONResponse(error_body(400, exc.message, exc.param), status_code=400)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages: dict[int, str] = {
        404: f"No route for {request.url.path}",
        405: f"Method {request.method} is not allowed on {request.url.path}",
    }
    message = messages.get(exc.status_code, str(exc.detail))
    headers: dict[str, Any] = dict(exc.headers or {})
    return JSONResponse(error_body(exc.status_code, message), exc.status_code, headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse(error_body(500, "Internal server error"), status_code=500)

"""A bare HTTP server that answers from a script: for responses the reference server never
sends (loops, truncation, HTML errors, wrong shapes). It shares no code with the project."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Reply:
    """One scripted answer. `body` bytes are sent as they are; `declared_length` may lie."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    declared_length: int | None = None

    @classmethod
    def json(cls, obj: Any, status: int = 200, **headers: str) -> Reply:
        """A JSON reply."""
        return cls(
            status, json.dumps(obj).encode(), {"Content-Type": "application/json", **headers}
        )


@dataclass
class Seen:
    """A request the server received."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]


Script = Callable[[str, dict[str, str]], Reply]


class ScriptedServer:
    """Serve `script(path, query) -> Reply` on a free loopback port, in a thread."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.seen: list[Seen] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                outer.seen.append(Seen("GET", parts.path, query, dict(self.headers.items())))
                reply = outer.script(parts.path, query)
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                length = reply.declared_length
                self.send_header(
                    "Content-Length", str(len(reply.body) if length is None else length)
                )
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(reply.body)
                self.wfile.flush()
                self.close_connection = True

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


def analysis(n: int, **fields: Any) -> dict[str, Any]:
    """A valid completed analysis with id ana_<n>."""
    return {
        "id": f"ana_{n:04d}",
        "project_id": "proj_scripted",
        "status": "completed",
        "image_url": f"https://images.example.com/{n}.png",
        "label": f"Screen {n}",
        "score": 80,
        "breakdown": {
            "visual_clarity": 80,
            "visual_hierarchy": 81,
            "color_contrast": 82,
            "cta_effectiveness": 83,
            "brand_consistency": 84,
        },
        "feedback": ["Fine."],
        "error_message": None,
        "created_at": "2026-10-01T12:00:00Z",
        "completed_at": "2026-10-01T12:00:30Z",
        **fields,
    }


def page(items: list[dict[str, Any]], next_cursor: str | None, total: int) -> Reply:
    """A page reply."""
    return Reply.json({"data": items, "next_cursor": next_cursor, "total": total})

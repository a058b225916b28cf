"""A bare HTTP server that answers from a script: for responses the reference server never
sends (loops, truncation, HTML errors, wrong shapes, bodies that never end, connections
reset mid-body). It shares no code with the project.

A script returns a `Reply` (status, headers, a body sent whole or streamed) or `Raw`, whose
function writes the bytes of the answer onto the socket itself — for what no HTTP library
sends on purpose. With an SSL context the server speaks HTTPS; it also serves as a forward
proxy (`Seen.line` keeps the absolute-form request line).
"""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

POLL_S = 0.02  # how often serving looks for a shutdown


@dataclass
class Reply:
    """One scripted answer. `body` bytes are sent as they are; `declared_length` may lie.
    With `chunks`, the body is streamed with no length and ends when the connection does."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    declared_length: int | None = None
    chunks: Iterable[bytes] | None = None

    @classmethod
    def json(cls, obj: Any, status: int = 200, **headers: str) -> Reply:
        """A JSON reply."""
        return cls(
            status, json.dumps(obj).encode(), {"Content-Type": "application/json", **headers}
        )


@dataclass
class Raw:
    """An answer written byte by byte: `write(connection, stop)`; `stop` is set when the
    server closes, for answers that would go on for ever."""

    write: Callable[[socket.socket, threading.Event], None]


@dataclass
class Seen:
    """A request the server received."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    line: str = ""  # the request line as sent ("GET http://host/v1/… HTTP/1.1" via a proxy)


Script = Callable[[str, dict[str, str]], "Reply | Raw"]


class ScriptedServer:
    """Serve `script(path, query) -> Reply | Raw` on a free loopback port, in a thread."""

    def __init__(self, script: Script, *, tls: ssl.SSLContext | None = None) -> None:
        self.script = script
        self.seen: list[Seen] = []
        self.stop = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                headers = dict(self.headers.items())
                outer.seen.append(Seen("GET", parts.path, query, headers, self.requestline))
                self.close_connection = True
                with contextlib.suppress(OSError):  # the client went away: nothing to say
                    outer.answer(self, outer.script(parts.path, query))

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        if tls is not None:
            self.httpd.socket = tls.wrap_socket(self.httpd.socket, server_side=True)
        scheme = "https" if tls is not None else "http"
        self.port = self.httpd.server_address[1]
        self.base_url = f"{scheme}://127.0.0.1:{self.port}"
        # Looks for a shutdown every 20 ms, not every 0.5 s: a test that is over does not
        # wait half a second for its server.
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True
        )

    def answer(self, handler: BaseHTTPRequestHandler, reply: Reply | Raw) -> None:
        """Write `reply` as the answer to the request `handler` holds."""
        if isinstance(reply, Raw):
            reply.write(handler.connection, self.stop)
            return
        handler.send_response(reply.status)
        for name, value in reply.headers.items():
            handler.send_header(name, value)
        if reply.chunks is None:
            length = len(reply.body) if reply.declared_length is None else reply.declared_length
            handler.send_header("Content-Length", str(length))
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.wfile.write(reply.body)
        for chunk in reply.chunks or ():
            if self.stop.is_set():
                break
            handler.wfile.write(chunk)
            handler.wfile.flush()
        handler.wfile.flush()

    def lines(self) -> list[str]:
        """The request lines received, in order."""
        return [seen.line for seen in self.seen]

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
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

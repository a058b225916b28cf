"""Another origin for image fetches: records what it receives, serves hostile bodies."""

from __future__ import annotations

import contextlib
import io
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from PIL import Image


def png_bytes(size: tuple[int, int] = (40, 30)) -> bytes:
    """A small valid PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


class OtherOrigin:
    """A loopback server on its own port. Paths: /ok.png, /html, /endless (never ends),
    /trickle (a byte every 0.2 s), /redirect?to=URL (302). `seen` keeps each request's
    headers, lower-cased."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, str]]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                headers = {k.lower(): v for k, v in self.headers.items()}
                outer.seen.append((parts.path, headers))
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    outer.answer(self, parts.path, parse_qs(parts.query))

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def answer(
        self, handler: BaseHTTPRequestHandler, path: str, query: dict[str, list[str]]
    ) -> None:
        """Write the response for `path`."""
        if path == "/redirect":
            handler.send_response(302)
            handler.send_header("Location", query["to"][0])
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        handler.send_response(200)
        handler.send_header("Content-Type", "image/png")  # true or not
        if path in ("/ok.png", "/html"):
            body = png_bytes() if path == "/ok.png" else b"<html>hello</html>"
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
            return
        handler.end_headers()  # no length: the body ends when the connection does
        handler.wfile.write(png_bytes()[:16])
        while True:
            handler.wfile.write(b"\0" * (65536 if path == "/endless" else 1))
            handler.wfile.flush()
            if path == "/trickle":
                time.sleep(0.2)

    def authorizations(self) -> list[str]:
        """Every Authorization header received."""
        return [
            headers["authorization"] for _path, headers in self.seen if "authorization" in headers
        ]

    def __enter__(self) -> OtherOrigin:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

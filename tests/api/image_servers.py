"""Another origin for image fetches, on the one scripted server: it records what it
receives and serves hostile bodies."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator

from PIL import Image
from tests.support.scripted_server import Reply, ScriptedServer


def png_bytes(size: tuple[int, int] = (40, 30)) -> bytes:
    """A small valid PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


PNG = {"Content-Type": "image/png"}  # true or not


def _endless() -> Iterator[bytes]:
    while True:
        yield b"\0" * 65536


def _trickle() -> Iterator[bytes]:
    while True:  # a slow server: one byte every 0.2 s
        yield b"\0"
        time.sleep(0.2)


def _answer(path: str, query: dict[str, str]) -> Reply:
    if path == "/redirect":
        return Reply(302, headers={"Location": query["to"]})
    if path == "/ok.png":
        return Reply(200, png_bytes(), PNG)
    if path == "/html":
        return Reply(200, b"<html>hello</html>", PNG)
    chunks = _endless() if path == "/endless" else _trickle()
    return Reply(200, png_bytes()[:16], PNG, chunks=chunks)  # no length: it never ends


def other_origin() -> ScriptedServer:
    """A loopback server on its own port. Paths: /ok.png, /html, /endless (never ends),
    /trickle (a byte every 0.2 s), /redirect?to=URL (302)."""
    return ScriptedServer(_answer)


def authorizations(server: ScriptedServer) -> list[str]:
    """Every Authorization header `server` received."""
    return [
        value
        for seen in server.seen
        for name, value in seen.headers.items()
        if name.lower() == "authorization"
    ]

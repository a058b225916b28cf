"""The bytes of answers an HTTP library will not produce on purpose — slow-drip bodies,
connections reset mid-body, bodies of any size — written onto the socket of the one
scripted server (`tests.support.scripted_server.Raw`)."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator


def head(status: int = 200, length: int | None = None, **headers: str) -> bytes:
    """A status line and headers; without `length` the body ends when the connection does."""
    lines = [f"HTTP/1.1 {status} X", "Content-Type: application/json", "Connection: close"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def reset(conn: socket.socket) -> None:
    """Close with a TCP reset instead of an orderly end."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def drip(conn: socket.socket, body: bytes, every_s: float, stop: threading.Event) -> None:
    """Send `body` one byte at a time."""
    for byte in body:
        if stop.is_set():
            return
        conn.sendall(bytes([byte]))
        time.sleep(every_s)


def stream(conn: socket.socket, chunks: Iterator[bytes]) -> None:
    """Send chunks until the peer goes away."""
    try:
        for chunk in chunks:
            conn.sendall(chunk)
    except OSError:
        pass

"""A loopback TCP server whose handler writes the raw bytes of each answer: for slow-drip
bodies, connections reset mid-body and bodies of any size, which an HTTP library will not
produce on purpose."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

Handler = Callable[[socket.socket, str], None]


def read_request(conn: socket.socket) -> str:
    """The request line and headers (the requests here have no body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.decode("latin-1")


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


@dataclass
class RawServer:
    """Serve `handler(conn, request_text)` on a free loopback port, one thread a connection."""

    handler: Handler
    requests: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.base_url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            request = read_request(conn)
            self.requests.append(request.split("\r\n", 1)[0])
            self.handler(conn, request)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                conn.close()

    def __enter__(self) -> RawServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.sock.close()
        self.thread.join(2)

"""Loopback relays for network tests: a counting HTTP proxy (CONNECT and forward) and a TLS
front that serves a plain server over HTTPS with a certificate of the test's own CA."""

from __future__ import annotations

import datetime as dt
import ipaddress
import select
import socket
import socketserver
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit


def _pipe(one: socket.socket, two: socket.socket) -> None:
    """Copy bytes both ways until either side closes."""
    sockets = [one, two]
    try:
        while True:
            readable, _, _ = select.select(sockets, [], [], 10)
            if not readable:
                return
            for source in readable:
                data = source.recv(65536)
                if not data:
                    return
                (two if source is one else one).sendall(data)
    except OSError:
        return


def _read_head(conn: socket.socket) -> bytes:
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(4096)
        if not chunk:
            break
        head += chunk
    return head


@dataclass
class CountingProxy:
    """An HTTP proxy on loopback that records what passed through it: `seen` holds
    "CONNECT host:port" or "GET http://…" per request, `times` when each arrived
    (`time.monotonic()`)."""

    seen: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    port: int = 0

    @property
    def url(self) -> str:
        """The proxy's address, for `proxy = …` or HTTPS_PROXY."""
        return f"http://127.0.0.1:{self.port}"

    def handle(self, conn: socket.socket) -> None:
        """One client connection: a tunnel, or one forwarded request."""
        head = _read_head(conn)
        if not head:
            return
        line, _, rest = head.partition(b"\r\n")
        method, target, _version = line.decode("latin-1").split(" ", 2)
        self.times.append(time.monotonic())
        self.seen.append(f"{method} {target}")
        if method == "CONNECT":
            host, port = target.rsplit(":", 1)
            with socket.create_connection((host, int(port))) as upstream:
                conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                _pipe(conn, upstream)
            return
        parts = urlsplit(target)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        headers = [h for h in rest.split(b"\r\n") if not h.lower().startswith(b"connection:")]
        request = f"{method} {path} HTTP/1.1\r\n".encode() + b"\r\n".join(headers)
        request = request.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1)
        with socket.create_connection((parts.hostname or "", parts.port or 80)) as upstream:
            upstream.sendall(request)
            _pipe(conn, upstream)


@dataclass
class TlsFront:
    """HTTPS on loopback in front of a plain http server, with a certificate for
    127.0.0.1 signed by a CA made for the test (`ca_file` is its PEM)."""

    ca_file: Path
    port: int = 0
    upstream: tuple[str, int] = ("127.0.0.1", 0)
    context: ssl.SSLContext | None = None

    @property
    def url(self) -> str:
        """The front's https:// address."""
        return f"https://127.0.0.1:{self.port}"

    def handle(self, conn: socket.socket) -> None:
        """Terminate TLS and relay the plain bytes."""
        assert self.context is not None
        try:
            tls = self.context.wrap_socket(conn, server_side=True)
        except (ssl.SSLError, OSError):
            return  # a client that did not trust the certificate hangs up here
        with tls, socket.create_connection(self.upstream) as upstream:
            _pipe(tls, upstream)


@contextmanager
def _serving(handler: object) -> Iterator[int]:
    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            handler.handle(self.request)  # type: ignore[attr-defined]

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def counting_proxy() -> Iterator[CountingProxy]:
    """A counting proxy on a free loopback port, for the life of the block."""
    proxy = CountingProxy()
    with _serving(proxy) as port:
        proxy.port = port
        yield proxy


@contextmanager
def tls_front(upstream_url: str, directory: Path) -> Iterator[TlsFront]:
    """HTTPS in front of `upstream_url`, its CA's PEM written into `directory`."""
    ca_file, cert_file, key_file = make_private_ca(directory)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    parts = urlsplit(upstream_url)
    front = TlsFront(ca_file, upstream=(parts.hostname or "", parts.port or 80), context=context)
    with _serving(front) as port:
        front.port = port
        yield front


def make_private_ca(directory: Path) -> tuple[Path, Path, Path]:
    """A CA and a server certificate for 127.0.0.1 and localhost: (ca.pem, cert, key)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test Corp Root CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(True, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    ca_file, cert_file, key_file = (directory / n for n in ("ca.pem", "server.pem", "key.pem"))
    ca_file.write_bytes(ca.public_bytes(pem))
    cert_file.write_bytes(cert.public_bytes(pem))
    key_file.write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return ca_file, cert_file, key_file

"""Who may drive `serve`: the holder of this run's token, from a page of the served address.

As Jupyter's server does for anything on localhost:

- a random token per run, printed in the URL. Given once in the query, it is swapped for a
  cookie (HttpOnly, SameSite=Strict, named after the port since cookies ignore ports) and
  the browser is sent to the same address without it, so it stays out of history and logs;
- the page, its files and the websocket all need the cookie (or the token in the query);
- the Host header must name the served address (127.0.0.1, localhost or the `--host`
  given, with the port), so a DNS-rebound name reaches nothing;
- an Origin, always sent with a websocket, must be that address too, so a page of another
  site cannot open the websocket and read the screen or type into it.

Everything refused is a 403 with one line saying why.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import hdrs, web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

TOKEN_PARAM = "token"
COOKIE_PREFIX = "screen-analysis-token-"
LOOPBACK_NAMES = ("127.0.0.1", "localhost")


def new_token() -> str:
    """A random token for one run (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def url_host(host: str) -> str:
    """`host` as written in a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def served_url(host: str, port: int, token: str | None = None) -> str:
    """The address to open (with the token, when given)."""
    url = f"http://{url_host(host)}:{port}/"
    return f"{url}?{TOKEN_PARAM}={token}" if token else url


def _refuse(reason: str) -> web.Response:
    return web.Response(status=403, text=f"Forbidden: {reason}\n")


@dataclass(frozen=True)
class ServeGuard:
    """The checks for one run of `serve` on `host`:`port` with `token`."""

    token: str
    host: str
    port: int

    @property
    def authorities(self) -> frozenset[str]:
        """The Host header values that name the served address."""
        names = {*LOOPBACK_NAMES, self.host.lower().strip("[]")}
        return frozenset(f"{url_host(name)}:{self.port}" for name in names)

    @property
    def cookie_name(self) -> str:
        """The cookie that keeps the token (one per port: cookies do not tell ports apart)."""
        return f"{COOKIE_PREFIX}{self.port}"

    def token_matches(self, value: str | None) -> bool:
        """Whether `value` is this run's token (compared in constant time)."""
        return value is not None and hmac.compare_digest(value.encode(), self.token.encode())

    def refusal(self, request: web.Request) -> str | None:
        """Why `request` is refused by Host or Origin, or None when both name this address."""
        host = request.headers.get(hdrs.HOST, "").lower()
        if host not in self.authorities:
            return "the Host header does not name this server"
        origin = request.headers.get(hdrs.ORIGIN)
        is_websocket = request.headers.get(hdrs.UPGRADE, "").lower() == "websocket"
        if origin is None:
            return "a websocket needs an Origin" if is_websocket else None
        parts = urlsplit(origin.lower())
        if parts.scheme != "http" or parts.netloc not in self.authorities:
            return "the request comes from a page of another site"
        return None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse what fails the checks; swap a token in the query for the cookie."""
        reason = self.refusal(request)
        if reason:
            return _refuse(reason)
        if TOKEN_PARAM in request.query:
            if not self.token_matches(request.query[TOKEN_PARAM]):
                return _refuse("wrong token; open the address `screen-analysis serve` printed")
            query = request.url.query.copy()
            query.popall(TOKEN_PARAM)
            target = request.rel_url.with_query(query)
            response = web.HTTPSeeOther(location=str(target))
            response.set_cookie(
                self.cookie_name, self.token, path="/", httponly=True, samesite="Strict"
            )
            return response
        if not self.token_matches(request.cookies.get(self.cookie_name)):
            return _refuse("no token; open the address `screen-analysis serve` printed")
        return await handler(request)

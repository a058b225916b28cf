"""textual-serve's server with `serve`'s guard in front and a page that loads only local files.

textual-serve is an aiohttp application; this subclass adds the guard (token, Host and
Origin: `serve_guard`) as a middleware on every route when the application starts (its
public `on_startup`), renders its own copy of the page
(fonts from textual-serve's static folder rather than an outside font host) with addresses
built from the request's checked Host, and keeps request lines (which may carry the token)
out of the log.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.server import Server, to_int

from screen_analysis.cli.serve_guard import ServeGuard

PAGE_DIR = Path(__file__).with_name("serve_page")
SYMBOLS_FONT = PAGE_DIR / "symbols.ttf"  # built by scripts/make_symbols_font.py


class GuardedServer(Server):
    """Serve `command` (one app process per browser tab) to the holder of `guard`'s token."""

    def __init__(self, command: str, guard: ServeGuard, *, title: str) -> None:
        """Listen on the guard's host and port."""
        super().__init__(
            command, host=guard.host, port=guard.port, title=title, templates_path=PAGE_DIR
        )
        self.guard = guard

    async def handle_symbols_font(self, request: web.Request) -> web.FileResponse:
        """The symbols Roboto Mono lacks (●, ○, ◐, ▸, arrows, the header's ⭘)."""
        return web.FileResponse(SYMBOLS_FONT, headers={"Content-Type": "font/ttf"})

    def initialize_logging(self) -> None:
        """textual-serve's logging, without aiohttp's request lines (they may hold the token)."""
        super().initialize_logging()
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

    async def on_startup(self, app: web.Application) -> None:
        """Put the guard in front of every route and add the symbols font, before the
        application is frozen (aiohttp freezes it once its start-up handlers have run).
        Nothing is printed: the command prints the address to open (textual-serve's would
        lack the token)."""
        app.middlewares.append(self.guard.middleware)
        app.router.add_get("/fonts/symbols.ttf", self.handle_symbols_font)

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page's template values; addresses on the Host the guard accepted."""
        return {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"ws://{request.host}/ws",
            "config": {"static": {"url": f"http://{request.host}/static/"}},
            "symbols_font_url": f"http://{request.host}/fonts/symbols.ttf",
            "application": {"name": self.title},
        }

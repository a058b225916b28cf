"""Running the reference server: in a background thread (tests, `--demo`) or in the
foreground (`screen-analysis demo-server`). uvicorn is imported only here, and only when
a server actually starts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from screen_analysis.demo.app import create_app
from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.faults import Faults, RequestRecord
from screen_analysis.demo.store import DemoStore
from screen_analysis.numbers import format_count

if TYPE_CHECKING:
    from screen_analysis.demo.live import LiveLoop

STARTUP_TIMEOUT_S = 10.0


class DemoServer:
    """The reference server on 127.0.0.1 and a free port, in a background thread.

    Use as a context manager, or call `start()` and `stop()`.
    """

    def __init__(
        self, config: DemoConfig | None = None, *, log_level: str = "warning", port: int = 0
    ) -> None:
        """`port`: 0 for a free one; a fixed port lets a server be stopped and started
        again at the same address (a server that goes down and comes back)."""
        self.config = config if config is not None else DemoConfig()
        self._log_level = log_level
        self._wanted_port = port
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._store: DemoStore | None = None
        self._app: Any = None
        self._live: LiveLoop | None = None
        self._port: int | None = None

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:<port>` once started."""
        if self._port is None:
            raise RuntimeError("the demo server is not running")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_key(self) -> str:
        """The key the server accepts."""
        return self.config.api_key

    @property
    def store(self) -> DemoStore:
        """The server's data."""
        if self._store is None:
            raise RuntimeError("the demo server is not running")
        return self._store

    @property
    def faults(self) -> Faults:
        """Fault settings, tunable while the server runs."""
        faults: Faults = self._app_state().faults
        return faults

    @property
    def request_log(self) -> list[RequestRecord]:
        """The requests served, in order (the most recent 5,000 to 10,000 in a long run)."""
        log: list[RequestRecord] = self._app_state().request_log
        return log

    @property
    def requests_in_flight(self) -> int:
        """Requests received and not answered yet (0: every request has its answer)."""
        count: int = self._app_state().in_flight.count
        return count

    @property
    def live(self) -> LiveLoop | None:
        """The live simulation, when `config.live` is on."""
        return self._live

    def _app_state(self) -> Any:
        if self._app is None:
            raise RuntimeError("the demo server is not running")
        return self._app.state

    def start(self) -> DemoServer:
        """Build the data, bind a port and serve; returns once requests are accepted."""
        import uvicorn

        if self._thread is not None:
            raise RuntimeError("the demo server is already running")
        self._store = DemoStore.build(self.config)
        self._app = create_app(self.config, self._store)
        uv_config = uvicorn.Config(
            self._app,
            host="127.0.0.1",
            port=self._wanted_port,
            log_config=None,  # leave the host application's logging alone
            log_level=self._log_level,
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(uv_config)
        self._thread = threading.Thread(target=self._server.run, name="demo-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the demo server failed to start")
            time.sleep(0.002)
        self._port = self._server.servers[0].sockets[0].getsockname()[1]
        if self.config.live:
            self._live = _start_live(self.config, self._store)
        return self

    def stop(self) -> None:
        """Stop serving, join the threads and release the data."""
        if self._live is not None:
            self._live.stop()
            self._live = None
        if self._server is not None:
            self.faults.release_all()  # a request a test still holds is answered, not left
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._server = None
        if self._store is not None:
            self._store.close()
            self._store = None
        self._port = None

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _start_live(config: DemoConfig, store: DemoStore) -> LiveLoop:
    from screen_analysis.demo.live import LiveLoop, LiveSimulator

    loop = LiveLoop(LiveSimulator(config, store), config.live_interval_s)
    loop.start()
    return loop


def banner(config: DemoConfig, host: str, port: int) -> str:
    """What `demo-server` prints before serving."""
    return (
        f"Screen Analysis reference server on http://{host}:{port}\n"
        f"  API key:   {config.api_key}  (a demo key, not a secret)\n"
        f"  Data:      {format_count(config.analyses)} analyses in"
        f" {format_count(config.projects)} projects, "
        f"seed {config.seed}\n"
        f"  OpenAPI:   http://{host}:{port}/openapi.json\n"
        "Press Ctrl+C to stop."
    )


def serve_forever(
    config: DemoConfig,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    echo: Callable[[str], object] = print,
) -> None:
    """Serve in the foreground until interrupted (the `demo-server` command).

    Options of the command map onto `config` (analyses, seed, latency_ms, error_rate). The
    address is bound first, so a bad host or a port in use is an OSError before any data is
    built (the command line says it in one line).
    """
    import socket

    import uvicorn

    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    listener = socket.create_server((host, port), family=family)
    port = listener.getsockname()[1]
    store = DemoStore.build(config)
    app = create_app(config, store)
    live = _start_live(config, store) if config.live else None
    try:
        echo(banner(config, host, port))
        server = uvicorn.Server(uvicorn.Config(app, log_level="info", lifespan="off"))
        server.run(sockets=[listener])
    finally:
        listener.close()
        if live is not None:
            live.stop()
        store.close()

"""Fixtures for the whole suite: an isolated environment and the reference server."""

from __future__ import annotations

import dataclasses
import gc
import os
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import keyring
import pytest
from click.testing import CliRunner, Result
from tests.auth.backends import MemoryKeyring

from screen_analysis.cli.root import cli
from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.runner import DemoServer

# --- The collector in a test process -----------------------------------------------------

# A test process holds every test module, hundreds of apps' worth of Textual's render caches
# and a few servers, and each app test makes cyclic garbage by the thousand; at CPython's
# default threshold (700) the collector ran a full pass of that heap about once a test
# (45 full passes for 41 app tests, a quarter of their CPU time). A young generation ten
# times larger lets most of that garbage go in cheap young passes: the same tests took 41 s
# of CPU instead of 55 s. What a test measures is untouched: no test reads the collector's
# timing, those that need garbage gone call gc.collect(), and the app's own process keeps
# CPython's defaults (screen_analysis.collector).
GC_YOUNG_THRESHOLD = 7_000


def pytest_configure(config: pytest.Config) -> None:
    """Each test process (and xdist's workers) collects with a larger young generation."""
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


# --- Isolated environment ---------------------------------------------------------------


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point HOME and the XDG dirs at temporary folders and drop SCREEN_ANALYSIS_* vars,
    so no test reads or writes the real user's config, data or cache."""
    home = tmp_path / "home"
    for name, sub in (
        ("HOME", home),
        ("XDG_CONFIG_HOME", home / ".config"),
        ("XDG_DATA_HOME", home / ".local" / "share"),
        ("XDG_CACHE_HOME", home / ".cache"),
    ):
        sub.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(name, str(sub))
    for name in list(os.environ):
        if name.startswith("SCREEN_ANALYSIS_"):
            monkeypatch.delenv(name)


# --- Reference server ---------------------------------------------------------------------

DEMO_NOW = datetime(2026, 11, 1, 12, 0, 0, tzinfo=UTC)


def demo_config(**overrides: Any) -> DemoConfig:
    """The suite's standard demo data (300 analyses, seed 7, fixed clock), with overrides."""
    return dataclasses.replace(DemoConfig(analyses=300, seed=7, now=DEMO_NOW), **overrides)


@pytest.fixture(scope="session")
def demo_now() -> datetime:
    """The fixed clock of the suite's demo data: 2026-11-01T12:00:00Z."""
    return DEMO_NOW


@pytest.fixture(scope="session")
def demo_server() -> Iterator[DemoServer]:
    """One reference server for the session; do not tune its faults (use fresh_demo_server)."""
    with DemoServer(demo_config()) as server:
        yield server


class Stopping:
    """Servers stopped beside the next tests: a server's stop waits out its loop's ticks
    (some 0.2 s, none of it work), which a test that is over need not wait for. Every one
    is stopped by the end of the session."""

    def __init__(self) -> None:
        self._threads: list[threading.Thread] = []

    def stop(self, server: DemoServer) -> None:
        """Stop `server` in a thread of its own."""
        thread = threading.Thread(target=server.stop, name="demo-server-stop", daemon=True)
        thread.start()
        self._threads.append(thread)

    def join(self) -> None:
        """Wait until every server handed over has stopped."""
        for thread in self._threads:
            thread.join(timeout=10)
        self._threads.clear()


@pytest.fixture(scope="session")
def stopping() -> Iterator[Stopping]:
    """The session's servers that stop while other tests run."""
    servers = Stopping()
    yield servers
    servers.join()


Serve = Callable[[DemoConfig], DemoServer]


@pytest.fixture
def served(stopping: Stopping) -> Iterator[Serve]:
    """Start a reference server of the test's own with a config (`served(demo_config(...))`);
    each is stopped beside the next tests once this one is over."""
    started: list[DemoServer] = []

    def serve(config: DemoConfig) -> DemoServer:
        server = DemoServer(config).start()
        started.append(server)
        return server

    try:
        yield serve
    finally:
        for server in started:
            stopping.stop(server)


@pytest.fixture
def fresh_demo_server(served: Serve) -> DemoServer:
    """A reference server of its own, for tests that tune faults or read the request log."""
    return served(demo_config())


# --- Keyring ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def memory_keyring(
    request: pytest.FixtureRequest, isolated_env: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[MemoryKeyring]:
    """keyring's global backend set to an in-memory one (except for tests marked `keyring`),
    so no test touches the developer's own keyring; put back afterwards."""
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND", raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    if request.node.get_closest_marker("keyring") is None:
        keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


# --- Command line ---------------------------------------------------------------------------

Invoke = Callable[..., Result]


@pytest.fixture
def invoke() -> Invoke:
    """Run `screen-analysis ARGS` in-process; stdout and stderr kept apart."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return run


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` in the first tier: two processes a core. Most of its tests wait about as
    long as they compute (for a server over loopback, for the app's next frame), and a
    second process on each core runs while the first waits. The e2e tier, whose real
    terminals and browser are the ones that mind a crowded machine, keeps xdist's one a
    core, and so does a count set in PYTEST_XDIST_AUTO_NUM_WORKERS."""
    asked = config.getoption("markexpr") or ""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or (
        "e2e" in asked and "not e2e" not in asked
    ):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(2 * (cores or 1), MOST_WORKERS)


MOST_WORKERS = 16  # past this, starting and collecting in each process outweighs the waits


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that leave the keyring locked run last, whatever file they are in; tests that
    compare Textual's rendering (`snap_compare`) are marked `snapshot`; the long runs and
    the real-keyring tests run only when `-m` names them (`-m slow`, `-m keyring`), so
    neither tier's `-m` has to leave them out."""
    for item in items:
        if "snap_compare" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.snapshot)
    asked = config.getoption("markexpr") or ""
    held = [marker for marker in OPT_IN if marker not in asked]
    dropped = [item for item in items if any(item.get_closest_marker(m) for m in held)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]
    items.sort(key=lambda item: item.get_closest_marker("locks_keyring") is not None)


OPT_IN = ("slow", "keyring")


@pytest.fixture
def secret_service() -> Iterator[object]:
    """keyring's SecretService backend, on the session bus of dbus-run-session (for the
    tests marked `keyring`, which .ci/run runs there)."""
    import keyring
    from keyring.backends import SecretService

    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        pytest.fail("no D-Bus session: run under dbus-run-session with gnome-keyring (.ci/run)")
    backend = SecretService.Keyring()
    keyring.set_keyring(backend)
    yield backend

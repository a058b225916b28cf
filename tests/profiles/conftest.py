"""Two reference servers with different keys and data, and a config naming both."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conftest import DEMO_NOW

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.runner import DemoServer


@dataclasses.dataclass
class TwoServers:
    """Server `a` and server `b`, each with its own key and data."""

    a: DemoServer
    b: DemoServer


@pytest.fixture
def two_servers() -> Iterator[TwoServers]:
    """Two reference servers on loopback at once, with different keys, seeds and sizes."""
    config_a = DemoConfig(analyses=40, projects=3, seed=7, now=DEMO_NOW, api_key="key-for-a-1111")
    config_b = DemoConfig(analyses=25, projects=2, seed=99, now=DEMO_NOW, api_key="key-for-b-2222")
    with DemoServer(config_a) as a, DemoServer(config_b) as b:
        yield TwoServers(a, b)


def profiles_config(servers: TwoServers, extra: str = "") -> str:
    """A config with `[profiles.a]` and `[profiles.b]`, each pointing at its server."""
    return (
        "# my servers\n"
        'theme = "screen-analysis-dark"\n'
        f"{extra}\n"
        "[profiles.a]  # the first\n"
        f'base_url = "{servers.a.base_url}"\n\n'
        "[profiles.b]\n"
        f'base_url = "{servers.b.base_url}"\n'
        "refresh_interval = 0\n"
    )


@pytest.fixture
def config_file() -> Path:
    """Where the suite's isolated config lives (XDG_CONFIG_HOME is a temp dir)."""
    from screen_analysis.config import default_config_path

    path = default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path

"""Against a real Secret Service (see .ci/run): login and logout per profile keep each
profile's key apart. Run with `pytest -m keyring`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.profiles.conftest import TwoServers, profiles_config

from screen_analysis.auth import SERVICE
from screen_analysis.cli.root import cli

pytestmark = pytest.mark.keyring


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_login_logout_per_profile(two_servers: TwoServers, config_file: Path, secret_service):
    config_file.write_text(profiles_config(two_servers))
    a, b = two_servers.a, two_servers.b
    try:
        for name, server in (("a", a), ("b", b)):
            done = invoke("login", "-P", name, "--api-key-stdin", input=server.api_key + "\n")
            assert done.exit_code == 0, done.stderr
        assert secret_service.get_password(SERVICE, a.base_url) == a.api_key  # type: ignore[attr-defined]
        assert secret_service.get_password(SERVICE, b.base_url) == b.api_key  # type: ignore[attr-defined]
        assert invoke("-P", "a", "analyses", "list").exit_code == 0
        assert invoke("-P", "b", "analyses", "list").exit_code == 0
        status = invoke("auth", "status", "--check")
        assert status.exit_code == 0, status.stdout
        assert a.api_key not in status.stdout and b.api_key not in status.stdout
        assert invoke("logout", "-P", "a").exit_code == 0
        assert secret_service.get_password(SERVICE, a.base_url) is None  # type: ignore[attr-defined]
        assert invoke("-P", "a", "analyses", "list").exit_code == 3
        assert invoke("-P", "b", "analyses", "list").exit_code == 0
    finally:
        for server in (a, b):
            if secret_service.get_password(SERVICE, server.base_url) is not None:  # type: ignore[attr-defined]
                secret_service.delete_password(SERVICE, server.base_url)  # type: ignore[attr-defined]

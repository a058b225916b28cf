"""The one connection resolver and the one key check, headless, with a real server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.auth.backends import MemoryKeyring, failing_keyring

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.auth import SERVICE, InsecureFileStore, KeyStore
from screen_analysis.auth.connection import NotConnected, Reason, check_address, resolve_connection
from screen_analysis.auth.key_check import KeyCheckError, KeyProblem, check_key
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.root import require_connection
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr

URL = "https://api.example.com"


class CountingKeyring(MemoryKeyring):
    """Counts lookups, to show when the keyring was (not) asked."""

    def __init__(self) -> None:
        super().__init__()
        self.lookups = 0

    def get_password(self, service: str, username: str) -> str | None:
        self.lookups += 1
        return super().get_password(service, username)


def files(tmp_path: Path, warnings: list[str] | None = None) -> InsecureFileStore:
    sink = warnings if warnings is not None else []
    return InsecureFileStore(tmp_path / "keys.json", warn=sink.append)


def not_connected(found: Connection | NotConnected, reason: Reason) -> NotConnected:
    assert isinstance(found, NotConnected), found
    assert found.reason is reason, found
    assert "\n" not in found.message and found.message
    return found


def test_no_base_url_is_no_server(tmp_path: Path) -> None:
    why = not_connected(
        resolve_connection(Settings(), file_store=files(tmp_path)), Reason.NO_SERVER
    )
    assert "--base-url" in why.message and why.reason.is_usage


def test_an_address_refused_before_the_keyring_is_asked(tmp_path: Path) -> None:
    backend = CountingKeyring()
    store = KeyStore(backend)
    for url, reason in (
        ("ftp://x", Reason.BAD_URL),
        ("http://api.example.com", Reason.INSECURE_HTTP),
    ):
        found = resolve_connection(
            Settings(base_url=url), keystore=store, file_store=files(tmp_path)
        )
        assert not_connected(found, reason).reason.is_usage
    assert backend.lookups == 0


def test_the_environment_wins_and_the_url_is_normalised(tmp_path: Path) -> None:
    found = resolve_connection(
        Settings(base_url="HTTPS://API.example.com:443/"),
        environ={"SCREEN_ANALYSIS_API_KEY": " sk-env "},
        keystore=KeyStore(MemoryKeyring()),
        file_store=files(tmp_path),
    )
    assert found == Connection(URL, SecretStr("sk-env"), key_source="env")


def test_the_keyring_then_the_file(tmp_path: Path) -> None:
    backend = MemoryKeyring()
    backend.items[(SERVICE, URL)] = "sk-keyring"
    found = resolve_connection(
        Settings(base_url=URL), environ={}, keystore=KeyStore(backend), file_store=files(tmp_path)
    )
    assert isinstance(found, Connection) and found.key_source == "keyring"

    warnings: list[str] = []
    store = files(tmp_path, warnings)
    store.set(URL, SecretStr("sk-file"))
    found = resolve_connection(
        Settings(base_url=URL), environ={}, keystore=KeyStore(MemoryKeyring()), file_store=store
    )
    assert isinstance(found, Connection) and found.key_source == "file"
    assert found.api_key.get_secret_value() == "sk-file" and warnings


def test_no_key_and_no_keyring_are_told_apart(tmp_path: Path) -> None:
    settings = Settings(base_url=URL)
    why = not_connected(
        resolve_connection(
            settings, environ={}, keystore=KeyStore(MemoryKeyring()), file_store=files(tmp_path)
        ),
        Reason.NO_KEY,
    )
    assert "screen-analysis login" in why.message and why.keyring_problem == ""
    assert why.base_url == URL and not why.reason.is_usage

    why = not_connected(
        resolve_connection(
            settings, environ={}, keystore=KeyStore(failing_keyring()), file_store=files(tmp_path)
        ),
        Reason.NO_KEYRING,
    )
    assert why.keyring_problem.startswith("No usable keyring:")
    assert "--insecure-storage" in why.message


def test_an_unsafe_key_file_is_its_own_reason(tmp_path: Path) -> None:
    store = files(tmp_path)
    store.set(URL, SecretStr("sk-file-0000"))
    os.chmod(store.path, 0o644)
    why = not_connected(
        resolve_connection(
            Settings(base_url=URL), environ={}, keystore=KeyStore(MemoryKeyring()), file_store=store
        ),
        Reason.UNSAFE_KEY_FILE,
    )
    assert "sk-file-0000" not in why.message


def test_check_address_is_the_policy_the_forms_use() -> None:
    assert check_address("http://localhost:8000/", allow_insecure_http=False) == (
        "http://localhost:8000"
    )
    assert check_address("http://example.com", allow_insecure_http=True) == "http://example.com"
    refused = check_address("http://example.com", allow_insecure_http=False)
    assert isinstance(refused, NotConnected) and refused.reason is Reason.INSECURE_HTTP


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        (Settings(), ExitCode.USAGE),
        (Settings(base_url="not a url"), ExitCode.USAGE),
        (Settings(base_url="http://api.example.com"), ExitCode.USAGE),
        (Settings(base_url=URL), ExitCode.AUTH),
    ],
)
def test_the_command_line_maps_reasons_to_exit_codes(
    settings: Settings, code: ExitCode, memory_keyring: MemoryKeyring
) -> None:
    with pytest.raises(CliError) as info:
        require_connection(settings)
    assert info.value.code == code


# --- The one key check, against the reference server -------------------------------------


def client(connection: Connection) -> ScreenAnalysisClient:
    return ScreenAnalysisClient(connection.base_url, connection.api_key, max_retries=0)


async def test_a_good_key_passes_with_one_request(fresh_demo_server: DemoServer) -> None:
    server = fresh_demo_server
    await check_key(Connection(server.base_url, SecretStr(server.api_key)), client)
    [request] = server.request_log
    assert (request.path, request.query) == ("/v1/analyses", {"limit": "1"})


@pytest.mark.parametrize(
    ("key", "fault", "problem"),
    [
        ("sk-wrong-0000000000", None, KeyProblem.REFUSED),
        ("sk-bad\r\nX-Injected: 1", None, KeyProblem.INVALID),
        (None, 503, KeyProblem.FAILED),
    ],
)
async def test_each_failure_has_its_problem(
    fresh_demo_server: DemoServer, key: str | None, fault: int | None, problem: KeyProblem
) -> None:
    server = fresh_demo_server
    if fault is not None:
        server.faults.inject(fault, count=1)
    connection = Connection(server.base_url, SecretStr(key or server.api_key))
    with pytest.raises(KeyCheckError) as info:
        await check_key(connection, client)
    assert info.value.problem is problem
    assert server.api_key not in str(info.value)


async def test_an_unreachable_server() -> None:
    with pytest.raises(KeyCheckError) as info:
        await check_key(Connection("http://127.0.0.1:9", SecretStr("sk-anything-000")), client)
    assert info.value.problem is KeyProblem.UNREACHABLE

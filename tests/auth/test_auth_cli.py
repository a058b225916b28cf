"""login, logout and auth status through the real command line against the reference server."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable

import keyring
import pytest
from click.testing import CliRunner, Result
from keyring.backends import fail
from tests.auth.backends import ForgetfulKeyring, HangingKeyring, MemoryKeyring

from screen_analysis.auth import SERVICE, InsecureFileStore
from screen_analysis.cli import auth_commands
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.root import require_connection
from screen_analysis.config import Settings, default_config_path, read_config_file
from screen_analysis.secret import SecretStr

WRONG_KEY = "sk-wrong-key-0000000000000"
UNREACHABLE = "http://127.0.0.1:9"
Invoke = Callable[..., Result]


def login(invoke: Invoke, base_url: str, key: str, *extra: str) -> Result:
    return invoke("login", "--base-url", base_url, "--api-key-stdin", *extra, input=f"{key}\n")


def error_line(result: Result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    return lines[0]


def assert_no_key_in(result: Result, key: str) -> None:
    assert key not in result.stdout
    assert key not in result.stderr


def config_base_url() -> object:
    return read_config_file(default_config_path()).get("base_url")


def test_login_checks_stores_and_saves_the_base_url(
    fresh_demo_server, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    server = fresh_demo_server
    result = login(invoke, server.base_url + "/", server.api_key)
    assert result.exit_code == 0, result.stderr
    assert memory_keyring.items == {(SERVICE, server.base_url): server.api_key}
    assert config_base_url() == server.base_url
    assert "Logged in to" in result.stdout and "keyring" in result.stdout
    assert_no_key_in(result, server.api_key)
    [request] = server.request_log
    assert (request.method, request.path, request.query) == ("GET", "/v1/analyses", {"limit": "1"})


def test_login_keeps_the_comments_and_tables_of_the_config_file(
    demo_server, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        "# written by hand\n"
        'base_url = "https://old.example.com"  # before the move\n'
        'theme = "screen-analysis-light"\n\n'
        "[keymap]\n"
        'find = "ctrl+f"  # muscle memory\n'
    )
    result = login(invoke, demo_server.base_url, demo_server.api_key)
    assert result.exit_code == 0, result.stderr
    assert config.read_text() == (
        "# written by hand\n"
        f'base_url = "{demo_server.base_url}"  # before the move\n'
        'theme = "screen-analysis-light"\n\n'
        "[keymap]\n"
        'find = "ctrl+f"  # muscle memory\n'
    )


def test_rejected_key_stores_nothing_and_keeps_the_earlier_key(
    fresh_demo_server, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    server = fresh_demo_server
    memory_keyring.items[(SERVICE, server.base_url)] = "sk-earlier-key-00000000000"
    result = login(invoke, server.base_url, WRONG_KEY)
    assert result.exit_code == 3
    assert "rejected" in error_line(result)
    assert memory_keyring.items == {(SERVICE, server.base_url): "sk-earlier-key-00000000000"}
    assert config_base_url() is None
    assert_no_key_in(result, WRONG_KEY)
    assert len(server.request_log) == 1


def test_unreachable_server_exits_5(memory_keyring: MemoryKeyring, invoke: Invoke) -> None:
    result = login(invoke, UNREACHABLE, WRONG_KEY)
    assert result.exit_code == 5
    error_line(result)
    assert memory_keyring.items == {}


def test_no_terminal_and_no_flag_is_usage_with_a_hint(fresh_demo_server, invoke: Invoke) -> None:
    result = invoke("login", "--base-url", fresh_demo_server.base_url)
    assert result.exit_code == 2
    line = error_line(result)
    assert "--api-key-stdin" in line and "SCREEN_ANALYSIS_API_KEY" in line
    assert fresh_demo_server.request_log == []


def test_terminal_prompt_hides_the_key(
    demo_server, memory_keyring: MemoryKeyring, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(auth_commands, "_stdin_is_terminal", lambda: True)
    result = invoke("login", "--base-url", demo_server.base_url, input=f"{demo_server.api_key}\n")
    assert result.exit_code == 0, result.stderr
    assert "API key" in result.stderr  # the prompt
    assert_no_key_in(result, demo_server.api_key)
    assert memory_keyring.items[(SERVICE, demo_server.base_url)] == demo_server.api_key


@pytest.mark.parametrize(
    "args", [("--api-key", "sk-arg-key-000000000000"), ("sk-arg-key-000000000000",)]
)
def test_the_key_is_never_a_command_line_argument(
    demo_server, memory_keyring: MemoryKeyring, invoke: Invoke, args: tuple[str, ...]
) -> None:
    result = invoke("login", "--base-url", demo_server.base_url, *args, input="x\n")
    assert result.exit_code == 2
    assert_no_key_in(result, "sk-arg-key-000000000000")
    assert memory_keyring.items == {}


def test_plain_http_to_a_remote_host_is_refused_before_sending(
    memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    result = login(invoke, "http://api.example.com", WRONG_KEY)
    assert result.exit_code == 2
    assert "--allow-insecure-http" in error_line(result)
    assert memory_keyring.items == {}


def test_no_usable_keyring_is_one_line_before_any_request(
    fresh_demo_server, invoke: Invoke
) -> None:
    keyring.set_keyring(fail.Keyring())
    result = login(invoke, fresh_demo_server.base_url, fresh_demo_server.api_key)
    assert result.exit_code == 3
    line = error_line(result)
    assert "No usable keyring" in line and "--insecure-storage" in line
    assert "SCREEN_ANALYSIS_API_KEY" in line
    assert fresh_demo_server.request_log == []


def test_a_backend_that_stores_nothing_is_caught(demo_server, invoke: Invoke) -> None:
    keyring.set_keyring(ForgetfulKeyring())
    result = login(invoke, demo_server.base_url, demo_server.api_key)
    assert result.exit_code == 3
    assert "gave back nothing" in error_line(result)
    assert config_base_url() is None


def test_a_hanging_keyring_fails_within_seconds(
    demo_server, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = HangingKeyring()
    keyring.set_keyring(backend)
    monkeypatch.setenv("SCREEN_ANALYSIS_KEYRING_TIMEOUT", "0.5")
    started = time.monotonic()
    try:
        result = login(invoke, demo_server.base_url, demo_server.api_key)
    finally:
        backend.release.set()
    assert time.monotonic() - started < 30  # given up on: the keyring never answers
    assert result.exit_code == 3
    assert "did not answer within 0.5 s" in error_line(result)


def test_insecure_storage_writes_a_private_file_and_warns(demo_server, invoke: Invoke) -> None:
    keyring.set_keyring(fail.Keyring())
    result = login(invoke, demo_server.base_url, demo_server.api_key, "--insecure-storage")
    assert result.exit_code == 0, result.stderr
    assert "Warning:" in result.stderr and "plain text" in result.stderr
    path = InsecureFileStore().path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert_no_key_in(result, demo_server.api_key)

    status = invoke("auth", "status")
    assert status.exit_code == 0, status.stderr
    assert "file (" in status.stdout and "Warning:" in status.stderr


def test_keyring_login_removes_a_plain_text_copy(
    demo_server, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    InsecureFileStore(warn=lambda _: None).set(
        demo_server.base_url, SecretStr("sk-old-000000000000")
    )
    assert login(invoke, demo_server.base_url, demo_server.api_key).exit_code == 0
    assert not InsecureFileStore().path.exists()


def test_insecure_login_removes_a_shadowing_keyring_entry(
    demo_server, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    memory_keyring.items[(SERVICE, demo_server.base_url)] = "sk-old-000000000000"
    result = login(invoke, demo_server.base_url, demo_server.api_key, "--insecure-storage")
    assert result.exit_code == 0, result.stderr
    assert memory_keyring.items == {}


def test_logout_removes_the_key_everywhere(
    demo_server, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    assert login(invoke, demo_server.base_url, demo_server.api_key).exit_code == 0
    InsecureFileStore(warn=lambda _: None).set(demo_server.base_url, SecretStr("sk-old-00000000"))
    result = invoke("logout")  # the base URL saved by login
    assert result.exit_code == 0, result.stderr
    assert "the keyring and" in result.stdout
    assert memory_keyring.items == {}
    assert not InsecureFileStore().path.exists()
    again = invoke("logout")
    assert again.exit_code == 0 and "No key was stored" in again.stdout


def test_logout_says_when_the_environment_still_has_a_key(
    demo_server, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", demo_server.api_key)
    result = invoke("logout", "--base-url", demo_server.base_url)
    assert result.exit_code == 0
    assert "SCREEN_ANALYSIS_API_KEY is set" in result.stderr


def test_logout_with_no_usable_keyring_says_why(demo_server, invoke: Invoke) -> None:
    keyring.set_keyring(fail.Keyring())
    result = invoke("logout", "--base-url", demo_server.base_url)
    assert result.exit_code == 3
    assert "No usable keyring" in error_line(result)


def test_status_after_login(demo_server, invoke: Invoke) -> None:
    assert login(invoke, demo_server.base_url, demo_server.api_key).exit_code == 0
    result = invoke("auth", "status")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Base URL:   {demo_server.base_url}"
    assert lines[1] == "Key source: keyring"
    assert lines[2].startswith("Key:        ") and "…" in lines[2]
    assert lines[3] == "Server:     accepts the key"
    assert_no_key_in(result, demo_server.api_key)


def test_status_from_the_environment(
    demo_server, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", demo_server.api_key)
    result = invoke("--base-url", demo_server.base_url, "auth", "status")
    assert result.exit_code == 0, result.stderr
    assert "Key source: env (SCREEN_ANALYSIS_API_KEY)" in result.stdout


def test_status_with_a_rejected_key(
    demo_server, invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", WRONG_KEY)
    result = invoke("auth", "status", "--base-url", demo_server.base_url)
    assert result.exit_code == 3
    assert "rejected" in error_line(result)
    assert "sk-w…0000" in result.stdout
    assert_no_key_in(result, WRONG_KEY)


def test_status_without_a_key_names_login_and_env(demo_server, invoke: Invoke) -> None:
    result = invoke("auth", "status", "--base-url", demo_server.base_url)
    assert result.exit_code == 3
    line = error_line(result)
    assert "screen-analysis login" in line and "SCREEN_ANALYSIS_API_KEY" in line


def test_status_with_an_unreachable_server(invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", WRONG_KEY)
    result = invoke("auth", "status", "--base-url", UNREACHABLE)
    assert result.exit_code == 5
    error_line(result)


def test_status_refuses_plain_http_to_a_remote_host(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", WRONG_KEY)
    result = invoke("auth", "status", "--base-url", "http://api.example.com")
    assert result.exit_code == 2
    assert "--allow-insecure-http" in error_line(result)


def test_no_base_url_is_usage(invoke: Invoke) -> None:
    for args in (("login", "--api-key-stdin"), ("logout",), ("auth", "status")):
        result = invoke(*args, input="sk-whatever-0000000\n")
        assert result.exit_code == 2, args
        assert "--base-url" in error_line(result)


def test_debug_output_never_shows_the_key(fresh_demo_server, invoke: Invoke) -> None:
    result = invoke(
        "--debug",
        "login",
        "--base-url",
        fresh_demo_server.base_url,
        "--api-key-stdin",
        input=f"{WRONG_KEY}\n",
    )
    assert result.exit_code == 3
    assert_no_key_in(result, WRONG_KEY)


def test_the_key_is_in_no_file_but_the_keyring(demo_server, invoke: Invoke) -> None:
    assert login(invoke, demo_server.base_url, demo_server.api_key).exit_code == 0
    assert invoke("auth", "status").exit_code == 0
    home = os.environ["HOME"]
    for folder, _, names in os.walk(home):
        for name in names:
            data = open(os.path.join(folder, name), "rb").read()  # noqa: SIM115
            assert demo_server.api_key.encode() not in data, name


def test_commands_work_without_the_root_group(demo_server, memory_keyring: MemoryKeyring) -> None:
    runner = CliRunner()
    args = ["--base-url", demo_server.base_url, "--api-key-stdin"]
    result = runner.invoke(auth_commands.login, args, input=f"{demo_server.api_key}\n")
    assert result.exit_code == 0, result.stderr
    status = runner.invoke(auth_commands.auth, ["status"])
    assert status.exit_code == 0, status.stderr
    assert runner.invoke(auth_commands.logout, []).exit_code == 0
    assert memory_keyring.items == {}


def test_resolve_connection_applies_the_transport_policy_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", WRONG_KEY)
    with pytest.raises(CliError) as info:
        require_connection(Settings(base_url="http://api.example.com"))
    assert info.value.code == ExitCode.USAGE
    allowed = require_connection(
        Settings(base_url="http://api.example.com", allow_insecure_http=True)
    )
    assert (allowed.base_url, allowed.key_source) == ("http://api.example.com", "env")


def test_resolve_connection_without_a_key_is_auth() -> None:
    with pytest.raises(CliError) as info:
        require_connection(Settings(base_url="https://api.example.com"))
    assert info.value.code == ExitCode.AUTH
    assert "screen-analysis login" in str(info.value)

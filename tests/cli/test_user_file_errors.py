"""The command line with the user's files set up against it: a read-only config folder, a
symlinked config, a config that is not UTF-8, a full disk, a keyring that hangs. Each is
one line naming the file (or the keyring) with the exit code the manual documents, and
nothing is half-done."""

from __future__ import annotations

from collections.abc import Callable

import keyring
import pytest
from click.testing import Result
from tests.auth.backends import HangingKeyring, MemoryKeyring
from tests.conftest import Invoke
from tests.support.hostile_files import full_disk, read_only_folder

from screen_analysis.auth import SERVICE, InsecureFileStore
from screen_analysis.cli import auth_commands
from screen_analysis.config import default_config_path
from screen_analysis.demo.runner import DemoServer

Point = Callable[[str, str], None]
TempPaths = pytest.TempPathFactory


def error_line(result: Result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and "Traceback" not in result.stderr
    return lines[0]


def login(invoke: Invoke, server: DemoServer) -> Result:
    return invoke(
        "login", "--base-url", server.base_url, "--api-key-stdin", input=f"{server.api_key}\n"
    )


def test_login_with_a_read_only_config_folder_stores_nothing(
    fresh_demo_server: DemoServer, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    with read_only_folder(config.parent):
        result = login(invoke, fresh_demo_server)
    assert result.exit_code == 2
    line = error_line(result)
    assert f"cannot write {config}:" in line
    assert memory_keyring.items == {}  # no key stored
    assert fresh_demo_server.request_log == []  # nor even checked: nothing was asked


def test_login_says_what_it_stored_when_the_config_fails_after_the_check(
    fresh_demo_server: DemoServer,
    memory_keyring: MemoryKeyring,
    invoke: Invoke,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The folder turns read-only between the check and the save (another program).
    monkeypatch.setattr(auth_commands, "check_writable", lambda _path: None)
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    with read_only_folder(config.parent):
        result = login(invoke, fresh_demo_server)
    assert result.exit_code == 2
    line = error_line(result)
    assert "the key was stored in the keyring" in line and str(config) in line
    assert f"--base-url {fresh_demo_server.base_url}" in line
    assert memory_keyring.items == {
        (SERVICE, fresh_demo_server.base_url): fresh_demo_server.api_key
    }


def test_login_to_the_configured_server_needs_no_writable_config(
    demo_server: DemoServer, memory_keyring: MemoryKeyring, invoke: Invoke
) -> None:
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'base_url = "{demo_server.base_url}"\n')
    with read_only_folder(config.parent):
        result = login(invoke, demo_server)
    assert result.exit_code == 0, result.stderr
    assert memory_keyring.items == {(SERVICE, demo_server.base_url): demo_server.api_key}


def test_login_keeps_a_symlinked_config_a_link(
    demo_server: DemoServer, invoke: Invoke, tmp_path_factory: pytest.TempPathFactory
) -> None:
    dotfiles = tmp_path_factory.mktemp("dotfiles")
    target = dotfiles / "screen-analysis.toml"
    target.write_text("# kept in git\n")
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.symlink_to(target)
    result = login(invoke, demo_server)
    assert result.exit_code == 0, result.stderr
    assert config.is_symlink()
    assert target.read_text() == f'# kept in git\nbase_url = "{demo_server.base_url}"\n'


@pytest.mark.parametrize(
    "args", [("analyses", "list"), ("login", "--api-key-stdin"), ()], ids=["list", "login", "app"]
)
def test_a_config_that_is_not_utf8_is_a_usage_error_naming_the_file(
    invoke: Invoke, args: tuple[str, ...]
) -> None:
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_bytes(b'base_url = "https://api.example.com"\ntheme = "caf\xe9"\n')
    result = invoke(*args, input="sk-test-not-a-real-key\n")
    assert result.exit_code == 2
    line = error_line(result)
    assert f"cannot read config file {config}: it is not UTF-8 text" in line
    assert "internal error" not in line


def test_a_report_into_a_read_only_folder(
    demo_server: DemoServer,
    invoke: Invoke,
    against: object,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    against(demo_server.base_url, demo_server.api_key)  # type: ignore[operator]
    folder = tmp_path_factory.mktemp("reports")
    with read_only_folder(folder):
        out = folder / "report.html"
        result = invoke("report", "--status", "failed", "-o", str(out))
    assert result.exit_code == 2
    assert f"could not write {out}:" in error_line(result)


def test_a_report_onto_a_full_disk(
    demo_server: DemoServer,
    invoke: Invoke,
    against: object,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    against(demo_server.base_url, demo_server.api_key)  # type: ignore[operator]
    with full_disk(tmp_path_factory.mktemp("disk")) as disk:
        out = disk / "report.html"
        result = invoke("report", "-o", str(out))
        assert result.exit_code == 2
        line = error_line(result)
        assert f"could not write {out}: No space left on device" in line
        assert sorted(p.name for p in disk.iterdir()) == [".filler"]  # no partial file


def test_auth_status_waits_for_a_hanging_keyring_once(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty profiles, a keyring that never answers: asked once, given up on once."""
    config = default_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        "".join(f'[profiles.p{n}]\nbase_url = "https://p{n}.example.com"\n\n' for n in range(20))
    )
    backend = HangingKeyring()
    keyring.set_keyring(backend)
    monkeypatch.setenv("SCREEN_ANALYSIS_KEYRING_TIMEOUT", "0.2")
    try:
        result = invoke("auth", "status")
    finally:
        backend.release.set()
    assert result.exit_code == 3
    assert backend.calls == 1
    assert result.stdout.count("did not answer within 0.2 s") == 20
    assert result.stdout.count("earlier in this run") == 19


def test_insecure_storage_into_a_read_only_data_folder_stores_nothing(
    fresh_demo_server: DemoServer, invoke: Invoke
) -> None:
    store = InsecureFileStore()
    store.path.parent.parent.mkdir(parents=True, exist_ok=True)
    with read_only_folder(store.path.parent.parent):
        result = invoke(
            "login",
            "--base-url",
            fresh_demo_server.base_url,
            "--api-key-stdin",
            "--insecure-storage",
            input=f"{fresh_demo_server.api_key}\n",
        )
    assert result.exit_code == 2
    assert f"cannot write {store.path}:" in error_line(result)
    assert fresh_demo_server.request_log == [] and not store.path.exists()
    assert default_config_path().exists() is False  # the config is not touched either

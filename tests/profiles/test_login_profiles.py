"""login/logout/auth status per profile, with the suite's in-memory keyring."""

from __future__ import annotations

from pathlib import Path

from tests.profiles.conftest import TwoServers, profiles_config

from screen_analysis.auth import SERVICE


def login(invoke, profile: str, key: str, *extra: str):
    return invoke("login", "--profile", profile, "--api-key-stdin", *extra, input=key + "\n")


def test_login_per_profile_keeps_comments_and_reaches_each(
    invoke, two_servers: TwoServers, config_file: Path, memory_keyring
) -> None:
    config_file.write_text(profiles_config(two_servers))
    a, b = two_servers.a, two_servers.b
    assert login(invoke, "a", a.api_key).exit_code == 0
    result = login(invoke, "b", b.api_key)
    assert result.exit_code == 0, result.stderr
    assert "(profile b)" in result.stdout
    assert memory_keyring.get_password(SERVICE, a.base_url) == a.api_key
    assert memory_keyring.get_password(SERVICE, b.base_url) == b.api_key
    text = config_file.read_text()
    assert "# my servers" in text and "# the first" in text
    # each profile reaches its own server with its own key from the keyring
    for name, count in (("a", 40), ("b", 25)):
        listed = invoke("-P", name, "analyses", "list", "--format", "jsonl", "--limit", "100")
        assert listed.exit_code == 0, listed.stderr
        assert len(listed.stdout.splitlines()) == count
    # a key refused by one server is not stored
    refused = login(invoke, "a", b.api_key)
    assert refused.exit_code == 3
    assert memory_keyring.get_password(SERVICE, a.base_url) == a.api_key


def test_login_makes_a_new_profile(invoke, two_servers: TwoServers, config_file: Path) -> None:
    config_file.write_text("# mine\n")
    result = login(invoke, "fresh", two_servers.b.api_key, "--base-url", two_servers.b.base_url)
    assert result.exit_code == 0, result.stderr
    text = config_file.read_text()
    assert "# mine" in text and "[profiles.fresh]" in text
    assert "base_url" not in text.split("[profiles.fresh]")[0]  # the top level is untouched
    assert invoke("-P", "fresh", "analyses", "list").exit_code == 0


def test_status_lists_every_profile_and_checks(
    invoke, two_servers: TwoServers, config_file: Path
) -> None:
    config_file.write_text(profiles_config(two_servers))
    login(invoke, "a", two_servers.a.api_key)
    listed = invoke("-P", "a", "auth", "status")
    assert listed.exit_code == 3  # b has no key yet
    out = listed.stdout
    assert "a (in use)" in out and "\nb\n" in out
    assert two_servers.a.base_url in out and two_servers.b.base_url in out
    assert two_servers.a.api_key not in out
    assert "Key source: keyring" in out and "Key:        none" in out
    login(invoke, "b", two_servers.b.api_key)
    checked = invoke("auth", "status", "--check")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("Server:     accepts the key") == 2
    one = invoke("auth", "status", "--profile", "b")
    assert one.exit_code == 0 and two_servers.b.base_url in one.stdout


def test_logout_per_profile(invoke, two_servers: TwoServers, config_file: Path, memory_keyring):
    config_file.write_text(profiles_config(two_servers))
    login(invoke, "a", two_servers.a.api_key)
    login(invoke, "b", two_servers.b.api_key)
    out = invoke("logout", "--profile", "a")
    assert out.exit_code == 0 and two_servers.a.base_url in out.stdout
    assert memory_keyring.get_password(SERVICE, two_servers.a.base_url) is None
    assert memory_keyring.get_password(SERVICE, two_servers.b.base_url) == two_servers.b.api_key
    assert invoke("-P", "a", "analyses", "list").exit_code == 3
    assert invoke("-P", "b", "analyses", "list").exit_code == 0

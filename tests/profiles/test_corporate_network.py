"""A proxy and a private CA per profile, and the environment's proxies when none is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.profiles.conftest import TwoServers
from tests.support.relays import counting_proxy, tls_front


def network_config(servers: TwoServers, proxy: str, front_url: str, ca: Path) -> str:
    return (
        "[profiles.a]\n"
        f'base_url = "{servers.a.base_url}"\n'
        f'proxy = "{proxy}"\n\n'
        "[profiles.b]\n"
        f'base_url = "{servers.b.base_url}"\n\n'
        "[profiles.tls]\n"
        f'base_url = "{front_url}"\n'
        f'ca_bundle = "{ca}"\n\n'
        "[profiles.tls-no-ca]\n"
        f'base_url = "{front_url}"\n\n'
        "[profiles.tls-proxied]\n"
        f'base_url = "{front_url}"\n'
        f'ca_bundle = "{ca}"\n'
        f'proxy = "{proxy}"\n'
    )


@pytest.fixture
def network(two_servers: TwoServers, config_file: Path, tmp_path: Path, monkeypatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy",
                 "https_proxy", "all_proxy", "no_proxy", "SSL_CERT_FILE"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    with counting_proxy() as proxy, tls_front(two_servers.b.base_url, tmp_path) as front:
        config_file.write_text(network_config(two_servers, proxy.url, front.url, front.ca_file))
        yield proxy, front


def run(invoke, monkeypatch, server, profile: str):
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", server.api_key)
    return invoke("-P", profile, "analyses", "list", "--format", "jsonl", "--limit", "5")


def test_proxy_per_profile(invoke, monkeypatch, two_servers: TwoServers, network) -> None:
    proxy, _front = network
    assert run(invoke, monkeypatch, two_servers.b, "b").exit_code == 0
    assert proxy.seen == []  # b sets no proxy
    result = run(invoke, monkeypatch, two_servers.a, "a")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 5
    assert [s.split(" ")[0] for s in proxy.seen] == ["GET"]
    assert two_servers.a.base_url in proxy.seen[0]


def test_private_ca_per_profile(invoke, monkeypatch, two_servers: TwoServers, network) -> None:
    proxy, front = network
    ok = run(invoke, monkeypatch, two_servers.b, "tls")
    assert ok.exit_code == 0, ok.stderr
    assert len(ok.stdout.splitlines()) == 5
    refused = run(invoke, monkeypatch, two_servers.b, "tls-no-ca")
    assert refused.exit_code == 5
    assert "tls-no-ca: certificate verify failed — set ca_bundle" in refused.stderr
    through = run(invoke, monkeypatch, two_servers.b, "tls-proxied")
    assert through.exit_code == 0, through.stderr
    assert proxy.seen == [f"CONNECT 127.0.0.1:{front.port}"]


def test_status_check_names_the_profile(invoke, monkeypatch, two_servers, network) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", two_servers.b.api_key)
    result = invoke("auth", "status", "-P", "tls-no-ca")
    assert result.exit_code == 5
    assert "tls-no-ca: certificate verify failed — set ca_bundle" in result.stderr


def test_environment_proxies_when_no_profile_sets_one(
    invoke, monkeypatch, two_servers: TwoServers, network
) -> None:
    proxy, front = network
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    assert run(invoke, monkeypatch, two_servers.b, "tls").exit_code == 0
    assert proxy.seen == [f"CONNECT 127.0.0.1:{front.port}"]
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    assert run(invoke, monkeypatch, two_servers.b, "tls").exit_code == 0
    assert len(proxy.seen) == 1  # NO_PROXY kept this one direct


def test_unreadable_ca_bundle_is_named(invoke, monkeypatch, two_servers, config_file) -> None:
    config_file.write_text(
        f'[profiles.x]\nbase_url = "{two_servers.a.base_url}"\nca_bundle = "/nope/ca.pem"\n'
    )
    result = run(invoke, monkeypatch, two_servers.a, "x")
    assert result.exit_code == 2
    assert "x: ca_bundle /nope/ca.pem cannot be used" in result.stderr


def test_socks_without_the_extra_says_which(invoke, monkeypatch, two_servers, config_file) -> None:
    pytest.importorskip("httpx")
    try:
        import socksio  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("the socks extra is installed")
    config_file.write_text(
        f'[profiles.s]\nbase_url = "{two_servers.a.base_url}"\nproxy = "socks5://127.0.0.1:9"\n'
    )
    result = run(invoke, monkeypatch, two_servers.a, "s")
    assert result.exit_code == 2
    assert "screen-analysis[socks]" in result.stderr


async def test_sign_in_in_the_app_names_the_profile(two_servers, config_file, network) -> None:
    from screen_analysis.cli.root import make_client
    from screen_analysis.config import Connection, load_settings
    from screen_analysis.secret import SecretStr
    from screen_analysis.tui.sign_in import SignIn, SignInError

    _proxy, front = network
    settings = load_settings(profile="tls-no-ca", config_path=config_file)
    sign_in = SignIn(make_client, None, None, settings)
    typed = Connection(front.url, SecretStr(two_servers.b.api_key), key_source="session")
    with pytest.raises(SignInError, match="tls-no-ca: certificate verify failed — set ca_bundle"):
        await sign_in.check(typed)
    trusted = SignIn(make_client, None, None, load_settings(profile="tls", config_path=config_file))
    await trusted.check(typed)  # the profile's CA bundle goes with a typed key

"""The auth package at its edges: the refusal of an address names it, a key is masked by
its length, the opt-in key file stays private and readable, a reason carries the address it
is about, and a network failure names the setting that fixes it."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tests.auth.backends import MemoryKeyring

from screen_analysis.api.errors import APIConnectionError, InvalidArgumentError
from screen_analysis.auth import (
    InsecureFileStore,
    KeyringStoresNothingError,
    KeyringUnavailableError,
    KeyStore,
)
from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.connection import (
    NotConnected,
    Reason,
    configured_base_url,
    resolve_connection,
)
from screen_analysis.auth.errors import (
    InsecureFileError,
    InsecureTransportError,
    InvalidBaseURLError,
    NoKeyError,
)
from screen_analysis.auth.file_store import default_key_file
from screen_analysis.auth.key_check import KeyCheckError, KeyProblem
from screen_analysis.auth.masking import mask_key
from screen_analysis.auth.network import client_network, network_problem
from screen_analysis.auth.resolve import aresolve_api_key, resolve_api_key
from screen_analysis.auth.transport_policy import check_transport, is_loopback_host
from screen_analysis.config import Connection, Settings, data_dir
from screen_analysis.secret import SecretStr

URL = "https://api.example.com"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("https://[::1", "not a valid URL: 'https://[::1' (Invalid IPv6 URL)"),
        ("ftp://host", "the base URL must start with https:// or http://: 'ftp://host'"),
        ("https://", "the base URL has no host: 'https://'"),
    ],
)
def test_a_refused_address_is_named_in_the_refusal(url: str, says: str) -> None:
    with pytest.raises(InvalidBaseURLError) as refused:
        normalise_base_url(url)
    assert str(refused.value) == says


def test_an_address_is_spelt_one_way() -> None:
    assert normalise_base_url(" HTTPS://Api.Example.com:443/v1/// ") == f"{URL}/v1"
    assert normalise_base_url("http://[::1]:80/") == "http://[::1]"
    assert normalise_base_url("https://h.example/BOX/") == "https://h.example/BOX"


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("k" * 11, "••••••••"),  # under twelve: nothing of it
        ("sk-d1234t123", "sk…23"),  # twelve and more: two at each end
        ("sk-d1234567890t12345", "sk-d…2345"),  # twenty and more: four
        ("sk-d123456789t12345", "sk…45"),
    ],
)
def test_a_key_shows_less_the_shorter_it_is(key: str, shown: str) -> None:
    assert mask_key(key) == shown and mask_key(SecretStr(key)) == shown


def test_the_key_file_lives_under_the_user_data_dir() -> None:
    assert default_key_file() == data_dir() / "credentials" / "api-keys.json"
    assert repr(InsecureFileStore()) == f"InsecureFileStore(path={str(default_key_file())!r})"


def test_the_key_file_is_private_sorted_and_readable(tmp_path: Path) -> None:
    folder = tmp_path / "credentials"
    folder.mkdir(mode=0o755)
    store = InsecureFileStore(folder / "keys.json", warn=lambda _: None)
    store.set("https://b.example.com", SecretStr("sk-test-b-0000"))
    store.set("https://a.example.com", SecretStr("sk-test-a-0000"))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # made private though it existed
    text = store.path.read_text(encoding="utf-8")
    assert text == json.dumps(
        {"https://a.example.com": "sk-test-a-0000", "https://b.example.com": "sk-test-b-0000"},
        indent=2,
    )
    assert store.delete("https://a.example.com") is True
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert json.loads(store.path.read_text(encoding="utf-8")) == {
        "https://b.example.com": "sk-test-b-0000"
    }


def test_deleting_the_last_key_removes_the_file_and_a_missing_key_is_no_deletion(
    tmp_path: Path,
) -> None:
    store = InsecureFileStore(tmp_path / "keys.json", warn=lambda _: None)
    assert store.delete(URL) is False  # no file
    store.set(URL, SecretStr("sk-test-only-0000"))
    assert store.delete("https://other.example.com") is False and store.path.exists()
    assert store.delete(URL) is True and not store.path.exists()


def test_storing_a_key_in_the_file_is_announced_and_logged_by_default(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = InsecureFileStore(tmp_path / "keys.json")
    with caplog.at_level(logging.WARNING):
        store.set(URL, SecretStr("sk-test-logged-000"))
        assert store.get(URL) == SecretStr("sk-test-logged-000")
    assert [r.getMessage() for r in caplog.records] == [
        f"The API key is stored in plain text in {store.path}, readable by you and root; "
        "prefer a keyring or SCREEN_ANALYSIS_API_KEY where you can.",
        f"Using the API key stored in plain text in {store.path} (not in a keyring).",
    ]
    assert "sk-test-logged-000" not in caplog.text


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"{not json", "cannot read {path} (JSONDecodeError)"),
        (b"\xff\xfe", "cannot read {path} (UnicodeDecodeError)"),
        (b'["sk-test-0000"]', "{path} is not a table of keys"),
    ],
)
def test_a_damaged_key_file_is_named_without_its_content(
    tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "keys.json"
    path.write_bytes(content)
    os.chmod(path, 0o600)
    with pytest.raises(InsecureFileError) as refused:
        InsecureFileStore(path, warn=lambda _: None).get(URL)
    assert str(refused.value) == says.format(path=path)


def test_a_key_file_that_cannot_be_looked_at_says_why(tmp_path: Path) -> None:
    path = tmp_path / "not-a-folder" / "keys.json"
    (tmp_path / "not-a-folder").write_text("", encoding="utf-8")
    store = InsecureFileStore(path, warn=lambda _: None)
    with pytest.raises(InsecureFileError) as refused:
        store.get(URL)
    assert str(refused.value) == f"cannot read {path}: Not a directory"
    with pytest.raises(OSError) as cannot:
        store.set(URL, SecretStr("sk-test-0000-0000"))
    assert str(cannot.value).startswith(f"cannot write {path}: ")


def test_a_reason_carries_the_address_it_is_about(tmp_path: Path) -> None:
    unsafe = InsecureFileStore(tmp_path / "keys.json", warn=lambda _: None)
    unsafe.set(URL, SecretStr("sk-test-file-0000"))
    os.chmod(unsafe.path, 0o644)
    found = resolve_connection(
        Settings(base_url=URL), environ={}, keystore=KeyStore(MemoryKeyring()), file_store=unsafe
    )
    assert isinstance(found, NotConnected) and found.reason is Reason.UNSAFE_KEY_FILE
    assert found.base_url == URL and str(unsafe.path) in found.message
    insecure = resolve_connection(Settings(base_url="http://example.com"), environ={})
    assert isinstance(insecure, NotConnected) and insecure.base_url == "http://example.com"
    bad = configured_base_url(Settings(base_url="ftp://x"))
    assert bad == NotConnected(
        Reason.BAD_URL, "the base URL must start with https:// or http://: 'ftp://x'"
    )
    assert NoKeyError(URL).base_url == URL


def test_a_connection_takes_the_profiles_network(tmp_path: Path) -> None:
    settings = Settings(
        base_url=URL, profile="corp", proxy="http://proxy:3128", ca_bundle="/etc/corp.pem"
    )
    found = resolve_connection(settings, environ={"SCREEN_ANALYSIS_API_KEY": "sk-test-env-000"})
    assert isinstance(found, Connection)
    assert (found.profile, found.proxy, found.ca_bundle) == (
        "corp",
        "http://proxy:3128",
        "/etc/corp.pem",
    )


def test_a_failed_key_check_keeps_the_clients_error() -> None:
    error = APIConnectionError("connect failed")
    problem = KeyCheckError(KeyProblem.UNREACHABLE, error)
    assert str(problem) == str(error) and problem.error is error


def _failure(*messages: str) -> APIConnectionError:
    """A connection error whose causes, innermost last, carry `messages`."""
    error: BaseException | None = None
    for message in reversed(messages[1:]):
        cause = OSError(message)
        cause.__cause__ = error
        error = cause
    outer = APIConnectionError(messages[0])
    outer.__cause__ = error
    return outer


def test_a_network_failure_names_the_setting_that_fixes_it() -> None:
    plain = Connection(URL, SecretStr("k"), profile="corp")
    proxied = Connection(URL, SecretStr("k"), proxy="http://proxy:3128")
    tls = _failure("connect failed", "wrapped", "[SSL: CERTIFICATE_VERIFY_FAILED] self-signed")
    assert network_problem(tls, plain) == "corp: certificate verify failed — set ca_bundle"
    unnamed = _failure("connect failed", "Proxy refused")
    assert network_problem(unnamed, proxied) is not None  # the word in any case
    refused = _failure("connect failed", "Proxy refused: 407")
    assert network_problem(refused, proxied) == (
        f"{URL}: the proxy http://proxy:3128 failed — check proxy "
        "(connection failed: connect failed | Proxy refused: 407)"
    )
    assert network_problem(refused, plain) is None  # no proxy set: not the proxy's fault
    assert network_problem(OSError("proxy"), proxied) is None
    deep = _failure("a", "b", "c", "d", "e", "f", "proxy 407")  # the seventh cause: not read
    assert network_problem(deep, proxied) is None
    context = APIConnectionError("connect failed")
    context.__context__ = OSError("certificate verify failed")
    assert network_problem(context, plain) is not None


def _one_ca(tmp_path: Path) -> Path:
    """A CA bundle of one certificate (the first of certifi's)."""
    import certifi

    text = Path(certifi.where()).read_text(encoding="utf-8")
    end = "-----END CERTIFICATE-----"
    first = text[text.index("-----BEGIN CERTIFICATE-----") : text.index(end) + len(end)]
    path = tmp_path / "corp.pem"
    path.write_text(first + "\n", encoding="utf-8")
    return path


def test_a_profiles_proxy_and_ca_bundle_become_the_clients_options(tmp_path: Path) -> None:
    assert client_network(Connection(URL, SecretStr("k"))) == {}
    bundle = _one_ca(tmp_path)
    options = client_network(
        Connection(URL, SecretStr("k"), proxy="http://proxy:3128", ca_bundle=str(bundle))
    )
    assert options["proxy"] == "http://proxy:3128" and set(options) == {"proxy", "verify"}
    assert len(options["verify"].get_ca_certs()) == 1  # the bundle's, not the system's


def test_a_ca_bundle_that_cannot_be_read_is_named_with_its_profile(tmp_path: Path) -> None:
    missing = tmp_path / "nope.pem"
    with pytest.raises(InvalidArgumentError) as refused:
        client_network(Connection(URL, SecretStr("k"), profile="corp", ca_bundle=str(missing)))
    assert str(refused.value).startswith(f"corp: ca_bundle {missing} cannot be used: ")
    assert refused.value.param == "ca_bundle"


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("http://localhost.:8000", True),
        ("http://LOCALHOST", True),
        ("http://127.0.0.2", True),
        ("http://[::1]:8000", True),
        ("http://[::ffff:127.0.0.1]", True),
        ("http://[::ffff:10.0.0.1]", False),
        ("http://example.com.", False),
        ("https://example.com", True),
    ],
)
def test_plain_http_goes_to_loopback_only(url: str, allowed: bool) -> None:
    try:
        check_transport(url)
    except InsecureTransportError as refused:
        assert not allowed
        host = urlsplit(url).hostname
        assert str(refused) == (
            f"Refusing to send the API key over plain HTTP to {host}: use https://, "
            "or pass --allow-insecure-http if you trust every network in between."
        )
    else:
        assert allowed
    check_transport(url, allow_insecure_http=True)


def test_a_key_read_back_wrong_is_said_and_never_quoted() -> None:
    class Twisted(MemoryKeyring):
        def get_password(self, service: str, username: str) -> str | None:
            return "sk-test-someone-else"

    class Quoting(MemoryKeyring):
        def get_password(self, service: str, username: str) -> str | None:
            raise RuntimeError(f"cannot read back {self.items[(service, username)]}")

    with pytest.raises(KeyringStoresNothingError, match="gave back a different value when"):
        KeyStore(Twisted()).set(URL, SecretStr("sk-test-mine-00000"))
    with pytest.raises(KeyringUnavailableError) as refused:
        KeyStore(Quoting()).set(URL, SecretStr("sk-test-mine-00000"))
    assert "sk-test-mine-00000" not in str(refused.value) and "[redacted]" in str(refused.value)


def test_a_keyring_answer_that_is_not_text_is_no_key() -> None:
    class Bytes(MemoryKeyring):
        def get_password(self, service: str, username: str) -> str | None:
            return b"sk-test-bytes-0000"  # type: ignore[return-value]

    assert KeyStore(Bytes()).get(URL) is None


async def test_the_key_is_resolved_off_the_event_loop_from_each_source(tmp_path: Path) -> None:
    env = await aresolve_api_key(URL, environ={"SCREEN_ANALYSIS_API_KEY": " sk-test-env-01 "})
    assert env.api_key == SecretStr("sk-test-env-01") and env.source.value == "env"
    memory = MemoryKeyring()
    KeyStore(memory).set(URL, SecretStr("sk-test-ring-01"))
    ring = await aresolve_api_key(URL, environ={}, keystore=KeyStore(memory))
    assert ring.api_key == SecretStr("sk-test-ring-01")
    files = InsecureFileStore(tmp_path / "keys.json", warn=lambda _: None)
    files.set(URL, SecretStr("sk-test-file-01"))
    kept = await aresolve_api_key(
        URL, environ={}, keystore=KeyStore(MemoryKeyring()), file_store=files
    )
    assert kept.api_key == SecretStr("sk-test-file-01")


def test_the_default_keyring_is_asked_with_the_given_environment(tmp_path: Path) -> None:
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    empty = InsecureFileStore(tmp_path / "none.json", warn=lambda _: None)
    bus = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}
    with pytest.raises(NoKeyError) as missing:
        resolve_api_key(URL, environ=bus, file_store=empty)
    assert "no keyring backend is available" in str(missing.value.keyring_problem)


def test_the_key_file_is_made_0600_again_by_every_change(tmp_path: Path) -> None:
    store = InsecureFileStore(tmp_path / "keys.json", warn=lambda _: None)
    store.set("https://a.example.com", SecretStr("sk-test-a-0000"))
    store.set("https://b.example.com", SecretStr("sk-test-b-0000"))
    os.chmod(store.path, 0o400)  # private, but not writable: still read
    assert store.delete("https://a.example.com") is True
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600


def test_a_refusal_of_the_address_says_why_and_a_missing_keyring_keeps_the_address(
    tmp_path: Path,
) -> None:
    from tests.auth.backends import failing_keyring

    from screen_analysis.auth.connection import check_address

    assert check_address("ftp://x", allow_insecure_http=False) == NotConnected(
        Reason.BAD_URL, "the base URL must start with https:// or http://: 'ftp://x'"
    )
    found = resolve_connection(
        Settings(base_url=URL),
        environ={},
        keystore=KeyStore(failing_keyring()),
        file_store=InsecureFileStore(tmp_path / "none.json", warn=lambda _: None),
    )
    assert isinstance(found, NotConnected) and found.reason is Reason.NO_KEYRING
    assert found.base_url == URL and "backend exploded" in found.keyring_problem


@pytest.mark.parametrize("host", ["[::1]", "LOCALHOST.", "127.0.0.1"])
def test_loopback_is_known_in_any_spelling(host: str) -> None:
    assert is_loopback_host(host)


@pytest.mark.parametrize("host", ["LOCALHOSTX", "Xlocalhost", "localhost.example", "::2"])
def test_a_host_that_only_looks_like_loopback_is_not(host: str) -> None:
    assert not is_loopback_host(host)


async def test_a_failed_key_check_carries_the_clients_error() -> None:
    from screen_analysis.api.client import ScreenAnalysisClient
    from screen_analysis.auth.key_check import check_key

    def client(connection: Connection) -> ScreenAnalysisClient:
        return ScreenAnalysisClient(connection.base_url, connection.api_key, max_retries=0)

    with pytest.raises(KeyCheckError) as failed:
        await check_key(Connection("http://127.0.0.1:9", SecretStr("sk-test-0000")), client)
    assert failed.value.problem is KeyProblem.UNREACHABLE
    assert isinstance(failed.value.error, APIConnectionError)
    assert str(failed.value) == str(failed.value.error)

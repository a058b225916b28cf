"""The normalised base URL (the keyring's username) and the plain-HTTP policy."""

from __future__ import annotations

import pytest

from screen_analysis.auth import (
    InsecureTransportError,
    InvalidBaseURLError,
    check_transport,
    normalise_base_url,
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("https://API.Example.com/", "https://api.example.com"),
        ("HTTPS://api.example.com:443/v0//", "https://api.example.com/v0"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://localhost:80/", "http://localhost"),
        ("https://api.example.com:8443/base/?q=1#frag", "https://api.example.com:8443/base"),
        ("https://user:pw@api.example.com", "https://api.example.com"),
        ("http://[::1]:9000/", "http://[::1]:9000"),
        ("  https://api.example.com  ", "https://api.example.com"),
    ],
)
def test_normalise_base_url(given: str, expected: str) -> None:
    assert normalise_base_url(given) == expected


@pytest.mark.parametrize(
    "bad", ["api.example.com", "ftp://example.com", "https://", "http://host:notaport"]
)
def test_invalid_base_urls_are_refused(bad: str) -> None:
    with pytest.raises(InvalidBaseURLError):
        normalise_base_url(bad)


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example.com",
        "http://127.0.0.1:8000",
        "http://127.9.8.7",
        "http://[::1]:8000",
        "http://localhost:8000",
        "http://LOCALHOST",
        "http://[::ffff:127.0.0.1]",
    ],
)
def test_https_and_loopback_http_are_allowed(url: str) -> None:
    check_transport(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://api.example.com",
        "http://10.0.0.5:8000",
        "http://128.0.0.1",
        "http://localhost.evil.example",
        "http://127.0.0.1.nip.io",
        "http://[::2]",
    ],
)
def test_plain_http_to_another_host_is_refused(url: str) -> None:
    with pytest.raises(InsecureTransportError) as info:
        check_transport(url)
    message = str(info.value)
    assert "https://" in message and "--allow-insecure-http" in message


def test_plain_http_is_allowed_when_asked() -> None:
    check_transport("http://api.example.com", allow_insecure_http=True)

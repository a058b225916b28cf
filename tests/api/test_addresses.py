"""The API's base URL as the client reads it, and the key as it must fit in a header: each
refusal in its words and naming the argument, before anything is sent."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from screen_analysis.api.addresses import api_path, check_base_url
from screen_analysis.api.arguments import check_api_key
from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.secret import SecretStr


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("ftp://api.example.com", "base URL must be an absolute http:// or https:// URL"),
        ("/v1/analyses", "base URL must be an absolute http:// or https:// URL"),
        (42, "base URL must be an absolute http:// or https:// URL"),
        ("http://xn--zz.example", "base URL's host is not a valid international name"),
        ("https://user:pw@api.example.com", "base URL must not carry a user name or password"),
        ("https://api.example.com/?page=2", "base URL must not carry a query or fragment"),
        ("https://api.example.com/#top", "base URL must not carry a query or fragment"),
    ],
)
def test_a_base_url_is_refused_in_words_naming_it(value: Any, words: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        check_base_url(value)
    assert str(caught.value) == words and caught.value.param == "base_url"


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ("https://api.example.com", "/"),
        ("https://api.example.com///", "/"),
        ("https://api.example.com/base//", "/base"),
        ("https://api.example.com/v1/FX/", "/v1/FX"),  # only slashes go
        (httpx.URL("http://127.0.0.1:8000/api/"), "/api"),
    ],
)
def test_a_base_url_loses_its_trailing_slashes(value: str | httpx.URL, path: str) -> None:
    assert check_base_url(value).path == path


def test_an_address_on_the_apis_server_is_its_path_and_query() -> None:
    base = check_base_url("https://api.example.com:443/base")
    assert api_path("https://api.example.com/v1/images/a%20b.png?s=1", base) == (
        "/v1/images/a%20b.png?s=1"
    )
    assert api_path("https://API.example.com/x", base) == "/x"
    assert api_path("http://api.example.com/x", base) is None
    assert api_path("https://api.example.com:8443/x", base) is None
    assert api_path("http://[::1", base) is None


def test_a_key_is_taken_as_text_or_as_a_secret() -> None:
    assert check_api_key("sk-test-0000").get_secret_value() == "sk-test-0000"
    secret = SecretStr("sk-test-0001")
    assert check_api_key(secret) is secret


def test_a_key_that_is_no_text_is_refused() -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        check_api_key(42)
    assert str(caught.value) == "api_key must be a SecretStr" and caught.value.param == "api_key"


@pytest.mark.parametrize("key", ["", "sk test", "sk-\u00e9", "sk-\n"])
def test_a_key_that_cannot_be_a_header_is_refused_without_echoing_it(key: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        check_api_key(SecretStr(key))
    assert str(caught.value) == (
        "api_key must be non-empty and contain only visible ASCII characters"
    )
    assert caught.value.param == "api_key"

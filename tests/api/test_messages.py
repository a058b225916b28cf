"""The error-message extractor never assumes one format."""

from __future__ import annotations

import json

import pytest

from screen_analysis.api.messages import MAX_MESSAGE_LENGTH, extract_error_details, extract_message


def _json(value: object) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            _json({"error": {"type": "not_found", "message": "No project proj_x"}}),
            "No project proj_x",
        ),
        (_json({"error": "Unauthorized"}), "Unauthorized"),
        (_json({"error": "invalid_grant", "message": "Key revoked"}), "invalid_grant: Key revoked"),
        (_json({"detail": "Not Found"}), "Not Found"),
        (
            _json({"detail": [{"loc": ["query", "limit"], "msg": "Input should be <= 100"}]}),
            "query.limit: Input should be <= 100",
        ),
        (_json({"message": "Rate limit exceeded"}), "Rate limit exceeded"),
        (_json({"errors": ["first", "second"]}), "first; second"),
        (_json({"errors": [{"message": "bad status", "field": "status"}]}), "status: bad status"),
        (
            _json({"title": "Bad Request", "detail": "limit too large"}),
            "Bad Request: limit too large",
        ),
        (_json({"error": {"code": "E42"}}), "E42"),
        (_json("just a string"), "just a string"),
        (_json({"unexpected": 1}), '{"unexpected": 1}'),
        (b"Service temporarily overloaded\n", "Service temporarily overloaded"),
        (
            b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
            "502 Bad Gateway",
        ),
        (
            b"<html><body><h1>Down</h1><p>for &amp; maintenance</p></body></html>",
            "Down for & maintenance",
        ),
        (b"<html><head><style>p{}</style></head><body>Oops</body></html>", "Oops"),
        (b"{not json", "{not json"),
    ],
)
def test_extracts_a_message_from_every_format(body: bytes, expected: str) -> None:
    assert extract_message(body, reason="Reason") == expected


def test_the_documented_format_keeps_type_and_param() -> None:
    body = _json({"error": {"type": "invalid_request", "message": "bad", "param": "limit"}})
    details = extract_error_details(body)
    assert (details.message, details.error_type, details.param) == (
        "bad",
        "invalid_request",
        "limit",
    )


@pytest.mark.parametrize("body", [b"", b"   \n", b"\x00\x1b"])
def test_an_empty_body_falls_back_to_the_reason_phrase(body: bytes) -> None:
    assert extract_message(body, reason="Service Unavailable") == "Service Unavailable"


def test_json_without_any_message_is_shown_compactly() -> None:
    assert extract_message(_json({"error": {}}), reason="Bad Gateway") == '{"error": {}}'


def test_no_body_and_no_reason_still_says_something() -> None:
    assert extract_message(b"") == "no message"


def test_control_characters_are_made_visible_and_lines_folded() -> None:
    body = _json({"message": "bad\x1b[31m red\x07\nsecond line\u202e"})
    message = extract_message(body)
    assert "\x1b" not in message and "\x07" not in message and "\u202e" not in message
    assert message == "bad\u241b[31m red\u2407 second line\ufffd"  # as the terminal shows them


def test_html_entities_cannot_smuggle_control_characters() -> None:
    assert "\x1b" not in extract_message(b"<html><title>&#27;[2J gone</title></html>")


def test_long_messages_are_truncated() -> None:
    message = extract_message(_json({"message": "x" * 10_000}))
    assert len(message) == MAX_MESSAGE_LENGTH and message.endswith("…")


def test_invalid_utf8_does_not_raise() -> None:
    assert extract_message(b"\xff\xfe broken \xc3") != ""


def test_deeply_nested_json_does_not_raise() -> None:
    body = b"[" * 100_000 + b"]" * 100_000
    assert isinstance(extract_message(body), str)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            _json([{"loc": ["body", "limit"], "msg": "too big"}, "and this"]),
            "body.limit: too big; and this",
        ),
        (_json({"error": {"type": "quota_exceeded"}}), "quota_exceeded"),
        (_json({"error": ["first", "second"]}), "first; second"),
        (_json({"errors": {"message": "bad status", "field": "status"}}), "status: bad status"),
        (_json({"errors": [{"message": "bad", "param": "limit"}]}), "limit: bad"),
        (_json({"errors": [{"message": "bad", "loc": 3}]}), "3: bad"),
        (_json({"errors": [{"message": "bad", "field": ""}]}), "bad"),
        (_json({"errors": [{"msg": "bad", "loc": [""]}]}), "bad"),
        (_json({"errors": [{"message": "bad"}]}), "bad"),
        (_json({"errors": [{"field": "status"}, "the second"]}), "the second"),
        (_json({"errors": [str(n) for n in range(1, 8)]}), "1; 2; 3; 4; 5"),
        (_json({"error": {"detail": {"message": "inner"}}}), "inner"),
        (_json({"unexpected": "café"}), '{"unexpected": "café"}'),
        (b"[]", "[]"),
        (b"[1, 2]", "[1, 2]"),
        (b"42", "42"),
        (b"<html><title>Bad <b>Gateway</b></title></html>", "Bad Gateway"),
        (b"<html><body>  </body></html>", "Reason"),
    ],
)
def test_every_shape_of_an_error_body_says_what_it_can(body: bytes, expected: str) -> None:
    assert extract_message(body, reason="Reason") == expected


def test_the_type_and_param_are_kept_only_when_they_are_words() -> None:
    body = _json({"error": {"type": 5, "message": "bad", "param": "  "}})
    assert extract_error_details(body) == ("bad", None, None)


def test_without_a_reason_an_empty_body_still_says_something() -> None:
    assert extract_error_details(b"").message == "no message"


def test_a_body_declared_html_is_read_as_html() -> None:
    body = b"Down<br>for <i>maintenance</i>"
    assert extract_message(body, content_type="text/HTML") == "Down for maintenance"
    assert extract_message(body, content_type="text/plain") == "Down<br>for <i>maintenance</i>"
    assert extract_message(body) == "Down<br>for <i>maintenance</i>"

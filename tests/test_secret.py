"""The API key never shows itself, and the one redaction cuts every known secret out of
anything shown: a message, a log record's arguments, a traceback, a stack."""

from __future__ import annotations

import logging
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from screen_analysis.secret import MASK, REDACTED, SecretRedactor, SecretStr, redact

KEY = "sk_test_0123456789abcdef"  # an obviously fake key
OTHER = "sk_test_fedcba9876543210"


def test_a_secret_string_shows_stars_in_every_shape() -> None:
    secret = SecretStr(KEY)
    assert repr(secret) == f"SecretStr('{MASK}')" and str(secret) == MASK
    assert f"{secret}" == MASK and KEY not in f"{secret!r} {[secret]} { ({'key': secret}) }"
    assert secret.get_secret_value() == KEY and len(secret) == len(KEY)


def test_an_empty_secret_shows_nothing_rather_than_stars() -> None:
    empty = SecretStr("")
    assert repr(empty) == "SecretStr('')" and str(empty) == "" and len(empty) == 0


def test_secrets_compare_by_value_and_never_with_plain_text() -> None:
    assert SecretStr(KEY) == SecretStr(KEY) and SecretStr(KEY) != SecretStr(OTHER)
    assert hash(SecretStr(KEY)) == hash(SecretStr(KEY))
    assert len({SecretStr(KEY), SecretStr(KEY), SecretStr(OTHER)}) == 2
    assert SecretStr(KEY) != KEY  # plain text is not a secret: no comparison at all

    class NotText:
        def get_secret_value(self) -> bytes:
            return KEY.encode()

    assert SecretStr(KEY) != NotText()
    lone = SecretStr("\ud800")  # a lone surrogate compares without an error
    assert lone == SecretStr("\ud800") and lone != SecretStr("\ud801")


def test_redaction_cuts_every_secret_whatever_its_form() -> None:
    text = f"401 for {KEY}; retried with {OTHER}, then {KEY} again"
    assert redact(text, [SecretStr(KEY), OTHER]) == (
        f"401 for {REDACTED}; retried with {REDACTED}, then {REDACTED} again"
    )
    assert redact(text, []) == text


def test_a_secret_that_contains_another_is_cut_whole() -> None:
    short, long = "sk_test_0123", "sk_test_0123456789"
    assert redact(f"key={long}.", [short, long]) == f"key={REDACTED}."
    assert redact(f"key={long}.", [long, short]) == f"key={REDACTED}."
    before = "Ask_test_0123"  # longer, and before the shorter one in any alphabetical order
    assert redact(f"key={before}.", [short, before]) == f"key={REDACTED}."


def test_an_empty_secret_redacts_nothing() -> None:
    assert redact("nothing to hide", ["", SecretStr("")]) == "nothing to hide"
    redactor = SecretRedactor([""])
    redactor.add("")
    assert repr(redactor) == "SecretRedactor(0 secrets)"
    assert redactor.redact("nothing to hide") == "nothing to hide"


def test_the_redactor_learns_secrets_and_counts_each_once() -> None:
    redactor = SecretRedactor([KEY, SecretStr(KEY)])
    assert repr(redactor) == "SecretRedactor(1 secrets)"
    redactor.add(SecretStr(OTHER))
    assert repr(redactor) == "SecretRedactor(2 secrets)"
    assert redactor.redact(f"{KEY} {OTHER}") == f"{REDACTED} {REDACTED}"


def _record(msg: str, *args: object, exc: bool = False, stack: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise RuntimeError(f"refused {KEY}")
        except RuntimeError:
            exc_info = sys.exc_info()
    record = logging.LogRecord("t", logging.ERROR, __file__, 1, msg, args, exc_info)
    if stack:
        record.stack_info = f"Stack (most recent call last):\n  key {KEY}"
    return record


def test_a_log_record_is_redacted_in_its_message_arguments_traceback_and_stack() -> None:
    redactor = SecretRedactor([KEY])
    record = _record("sending %s to %s", KEY, "host", exc=True, stack=True)
    assert redactor.filter(record) is True
    assert record.msg == f"sending {REDACTED} to host" and record.args is None
    assert record.getMessage() == f"sending {REDACTED} to host"
    assert record.exc_text is not None and f"refused {REDACTED}" in record.exc_text
    assert "Traceback" in record.exc_text and not record.exc_text.endswith("\n")
    assert record.stack_info is not None and record.stack_info.endswith(f"key {REDACTED}")
    rendered = logging.Formatter().format(record)
    assert KEY not in rendered and REDACTED in rendered


def test_a_record_formatted_before_it_reached_the_filter_is_redacted_too() -> None:
    record = _record("failed")
    record.exc_text = f"Traceback ...\nRuntimeError: refused {KEY}"
    SecretRedactor([KEY]).filter(record)
    assert record.exc_text == f"Traceback ...\nRuntimeError: refused {REDACTED}"


def test_a_redactor_without_secrets_leaves_a_record_as_it_was() -> None:
    record = _record("sending %s", KEY)
    assert SecretRedactor().filter(record) is True
    assert record.msg == "sending %s" and record.args == (KEY,)


def test_a_formatted_exception_is_redacted_and_otherwise_as_python_formats_it() -> None:
    import traceback

    try:
        raise ValueError(f"bad key {KEY}")
    except ValueError as exc:
        text = SecretRedactor([KEY]).format_exception(exc)
        plain = "".join(traceback.format_exception(exc))
    assert text == plain.replace(KEY, REDACTED) and KEY not in text


@pytest.mark.parametrize("ending", [" X ", " X"])
def test_a_records_traceback_loses_only_its_last_newline_as_loggings_own_does(
    ending: str,
) -> None:
    try:
        raise RuntimeError(f"refused {KEY}{ending}")
    except RuntimeError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "m", None, sys.exc_info())
    SecretRedactor([KEY]).filter(record)
    assert record.exc_text is not None and record.exc_text.endswith(f"refused {REDACTED}{ending}")


def test_redaction_as_a_handler_filter_reaches_every_line_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logger = logging.getLogger("screen_analysis.test_secret")
    caplog.handler.addFilter(SecretRedactor([KEY]))
    with caplog.at_level(logging.INFO, logger=logger.name):
        logger.info("key %s", KEY)
        try:
            raise OSError(KEY)
        except OSError:
            logger.exception("with %r", KEY)
    assert KEY not in caplog.text and caplog.text.count(REDACTED) == 3


# Keys as they come: longer than the marker, of the characters API keys are made of, so no
# key can hide inside "[redacted]" or across its brackets.
KEYS = st.from_regex(r"[A-Za-z0-9_\-]{11,40}", fullmatch=True)


@given(before=st.text(), after=st.text(), key=KEYS, other=KEYS)
def test_redaction_removes_a_key_from_any_text_that_contains_it(
    before: str, after: str, key: str, other: str
) -> None:
    text = before + key + after + other + key
    for secrets in ([key, other], [SecretStr(other), SecretStr(key)]):
        redacted = redact(text, secrets)
        assert key not in redacted and other not in redacted
        assert redacted.count(REDACTED) >= 2


@given(text=st.text(), key=KEYS)
def test_redaction_changes_nothing_in_a_text_without_the_key(text: str, key: str) -> None:
    if key not in text:
        assert redact(text, [key]) == text

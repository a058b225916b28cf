"""Masked keys, and known keys kept out of log records and tracebacks."""

from __future__ import annotations

import io
import logging

import pytest

from screen_analysis.auth import SecretRedactor, install_redactor, mask_key
from screen_analysis.secret import SecretStr

KEY = "sk-demo-0123456789abcdef-t123"


def test_long_key_shows_four_characters_at_each_end() -> None:
    assert mask_key(SecretStr(KEY)) == "sk-d…t123"


def test_middle_length_key_shows_two_at_each_end() -> None:
    assert mask_key("abcdefghijklmn") == "ab…mn"


@pytest.mark.parametrize("short", ["", "a", "short-key", "elevenchars"])
def test_short_keys_are_fully_masked(short: str) -> None:
    masked = mask_key(short)
    assert masked == "••••••••"


def _logger_with_stream() -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    logger = logging.getLogger(f"test-redaction-{id(stream)}")
    logger.propagate = False
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(handler)
    return logger, stream


def test_redactor_replaces_the_key_in_messages_args_and_tracebacks() -> None:
    logger, stream = _logger_with_stream()
    install_redactor(SecretStr(KEY), logger)
    logger.warning("sending Authorization: Bearer %s", KEY)
    try:
        raise ValueError(f"server echoed {KEY}")
    except ValueError:
        logger.exception("request failed")
    logger.error("stack", stack_info=True, extra={"k": KEY})
    text = stream.getvalue()
    assert KEY not in text
    assert "Bearer [redacted]" in text
    assert "ValueError: server echoed [redacted]" in text


def test_install_redactor_reuses_one_filter_per_handler() -> None:
    logger, stream = _logger_with_stream()
    first = install_redactor(SecretStr("first-secret-value"), logger)
    second = install_redactor(SecretStr("second-secret-value"), logger)
    assert first is second
    logger.info("x")
    logger.warning("first-secret-value second-secret-value")
    assert "secret-value" not in stream.getvalue()


def test_format_exception_is_redacted_and_repr_shows_no_secret() -> None:
    redactor = SecretRedactor([SecretStr(KEY)])
    try:
        raise RuntimeError(KEY)
    except RuntimeError as exc:
        text = redactor.format_exception(exc)
    assert KEY not in text and "[redacted]" in text
    assert KEY not in repr(redactor)

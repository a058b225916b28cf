"""A string that never shows itself, and the one redaction of secrets from text.

`SecretStr`: the API key as it travels through the program; `repr`, `str` and f-strings
show stars, only `get_secret_value()` gives the text. `redact(text, secrets)` and
`SecretRedactor` (which is also a logging filter) cut known secrets out of anything shown:
the client's errors, the keyring's causes, the sign-in form's lines, the command line's
error line and tracebacks. Headless, imported by anyone (api, auth, config, the app).
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterable

MASK = "**********"


class SecretStr:
    """A secret string; compared in constant time, hashed, never printed."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        """The secret itself: for the one place that must send it."""
        return self._value

    def __repr__(self) -> str:
        return f"SecretStr('{MASK if self._value else ''}')"

    def __str__(self) -> str:
        return MASK if self._value else ""

    def __len__(self) -> int:
        return len(self._value)

    def __eq__(self, other: object) -> bool:
        if not hasattr(other, "get_secret_value"):
            return NotImplemented
        theirs = other.get_secret_value()
        return isinstance(theirs, str) and hmac.compare_digest(
            theirs.encode("utf-8", "surrogatepass"), self._value.encode("utf-8", "surrogatepass")
        )

    def __hash__(self) -> int:
        return hash(self._value)


REDACTED = "[redacted]"

Secret = SecretStr | str


def _values(secrets: Iterable[Secret]) -> list[str]:
    """The secrets' texts, empty ones left out, longest first (so a key that contains
    another is cut whole)."""
    texts = {s.get_secret_value() if isinstance(s, SecretStr) else s for s in secrets}
    return sorted((t for t in texts if t), key=len, reverse=True)


def redact(text: str, secrets: Iterable[Secret]) -> str:
    """`text` with every one of `secrets` replaced by [redacted]: the one redaction for
    error messages, log records, tracebacks and lines under a form."""
    for value in _values(secrets):
        text = text.replace(value, REDACTED)
    return text


class SecretRedactor(logging.Filter):
    """The secrets to keep out of what is shown: `redact(text)`, `format_exception(exc)`,
    and, as a logging filter, every record's message, arguments, traceback and stack.

    Attach it to handlers (a filter on a logger does not see records propagated from its
    children): `auth.masking.install_redactor(key)` does that for the root logger's.
    """

    def __init__(self, secrets: Iterable[Secret] = ()) -> None:
        super().__init__()
        self._secrets: list[str] = _values(secrets)

    def __repr__(self) -> str:
        return f"SecretRedactor({len(self._secrets)} secrets)"

    def add(self, secret: Secret) -> None:
        """Redact `secret` from now on (empty values are ignored)."""
        self._secrets = _values([*self._secrets, secret])

    def redact(self, text: str) -> str:
        """`text` with every known secret replaced by [redacted]."""
        return redact(text, self._secrets)

    def format_exception(self, exc: BaseException) -> str:
        """The formatted traceback of `exc`, redacted."""
        import traceback  # only for --debug and logged failures

        return self.redact("".join(traceback.format_exception(exc)))

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite `record` in place: message, arguments, traceback and stack text."""
        if not self._secrets:
            return True
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = self.format_exception(record.exc_info[1]).rstrip("\n")
        elif record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True

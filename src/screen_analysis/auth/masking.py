"""Show a key without revealing it, and keep known keys out of logs and tracebacks."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterable

from screen_analysis.secret import SecretStr

REDACTED = "[redacted]"
_SHORT = 12  # below this length nothing of the key is shown
_MASK = "••••••••"


def mask_key(api_key: SecretStr | str) -> str:
    """A few characters at each end at most: 'sk-d…t123'; short keys are fully masked."""
    secret = api_key.get_secret_value() if isinstance(api_key, SecretStr) else api_key
    if len(secret) < _SHORT:
        return _MASK
    edge = 4 if len(secret) >= 20 else 2
    return f"{secret[:edge]}…{secret[-edge:]}"


class SecretRedactor(logging.Filter):
    """A logging filter that replaces known secrets in messages and tracebacks.

    Attach it to handlers (a filter on a logger does not see records propagated from
    its children): `install_redactor(key)` does that for the root logger's handlers.
    """

    def __init__(self, secrets: Iterable[SecretStr] = ()) -> None:
        super().__init__()
        self._secrets: set[str] = set()
        for secret in secrets:
            self.add(secret)

    def __repr__(self) -> str:
        return f"SecretRedactor({len(self._secrets)} secrets)"

    def add(self, secret: SecretStr) -> None:
        """Redact `secret` from now on (empty values are ignored)."""
        value = secret.get_secret_value()
        if value:
            self._secrets.add(value)

    def redact(self, text: str) -> str:
        """`text` with every known secret replaced by [redacted]."""
        for value in sorted(self._secrets, key=len, reverse=True):
            text = text.replace(value, REDACTED)
        return text

    def format_exception(self, exc: BaseException) -> str:
        """The formatted traceback of `exc`, redacted."""
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


def install_redactor(secret: SecretStr, logger: logging.Logger | None = None) -> SecretRedactor:
    """Add `secret` to the redactor on `logger`'s handlers (root by default), creating it.

    Handlers added later are not covered: call this after logging is configured.
    """
    target = logger or logging.getLogger()
    redactor = next(
        (f for h in target.handlers for f in h.filters if isinstance(f, SecretRedactor)),
        None,
    )
    if redactor is None:
        redactor = SecretRedactor()
        for handler in target.handlers:
            handler.addFilter(redactor)
    redactor.add(secret)
    return redactor

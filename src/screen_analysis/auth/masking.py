"""Show a key without revealing it, and keep known keys out of logs (the redaction itself
is `secret.SecretRedactor`, the one for the whole program)."""

from __future__ import annotations

import logging

from screen_analysis.secret import REDACTED, SecretRedactor, SecretStr

__all__ = ["REDACTED", "SecretRedactor", "install_redactor", "mask_key"]
_SHORT = 12  # below this length nothing of the key is shown
_MASK = "••••••••"


def mask_key(api_key: SecretStr | str) -> str:
    """A few characters at each end at most: 'sk-d…t123'; short keys are fully masked."""
    secret = api_key.get_secret_value() if isinstance(api_key, SecretStr) else api_key
    if len(secret) < _SHORT:
        return _MASK
    edge = 4 if len(secret) >= 20 else 2
    return f"{secret[:edge]}…{secret[-edge:]}"


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

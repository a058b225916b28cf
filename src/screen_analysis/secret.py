"""A string that never shows itself: the API key as it travels through the program.

`repr`, `str` and f-strings show stars; only `get_secret_value()` gives the text. Headless,
imported by anyone (api, auth, config, the app).
"""

from __future__ import annotations

import hmac

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

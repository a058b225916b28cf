"""Which analyses a quality gate judges: the one scope language of `browse.scope` (a
project, a status, a label pattern, a time window, score ranges, the N newest), applied
at the gate's clock; and the words for a time ("2026-11-01", "2h", "7d").

Headless; every check here runs before any request is sent.
"""

from __future__ import annotations

from screen_analysis.browse.scope import Filter
from screen_analysis.browse.when import (
    ScopeError,
    Window,
    created_of,
    newest_key,
    parse_duration,
    parse_when,
)
from screen_analysis.validation import quoted

GateInputError = ScopeError
"""What the user asked of a gate cannot be used: one line naming the option and the value."""

Scope = Filter
"""The analyses a gate judges: the scope applied at the gate's clock."""

__all__ = [
    "GateInputError",
    "Scope",
    "Window",
    "created_of",
    "newest_key",
    "parse_duration",
    "parse_when",
    "quoted",
]

"""What a request's argument may be, shared by its two readings: the plain one
(`api.arguments`, no pydantic) and the declared one (`api.arguments.declared`)."""

from __future__ import annotations

import re

MIN_LIMIT = 1
MAX_LIMIT = 100
# Non-blank, no '/', no control character, no lone surrogate (what undecodable bytes on a
# command line become: not text a URL can carry), not a dot segment ('.' or '..').
ID_PATTERN = re.compile(r"^(?!\.\.?\Z)(?=.*\S)[^/\x00-\x1f\x7f-\x9f\ud800-\udfff]+\Z")
# A lone surrogate anywhere: a text pydantic refuses (it cannot be sent as UTF-8).
SURROGATE = re.compile(r"[\ud800-\udfff]")

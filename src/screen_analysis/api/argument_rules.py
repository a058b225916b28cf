"""What a request's argument may be, shared by the two readings of an argument: the plain
one (`api.arguments`, no pydantic) and the declared one (`api.argument_kinds`)."""

from __future__ import annotations

import re

MIN_LIMIT = 1
MAX_LIMIT = 100
# Non-blank, no '/', no control character, not a dot segment ('.' or '..').
ID_PATTERN = re.compile(r"^(?!\.\.?\Z)(?=.*\S)[^/\x00-\x1f\x7f-\x9f]+\Z")

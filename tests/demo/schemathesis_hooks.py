"""schemathesis checks for the reference server, loaded through SCHEMATHESIS_HOOKS.

`after` is an opaque cursor: only a value the server issued as next_cursor is valid, which
no schema can say. So schemathesis's "schema-valid data is accepted" (ST202) is run as is,
except that a 400 naming `after` for a cursor the server never issued is the documented
answer, not a mismatch. Every other refusal of schema-valid data still fails.
"""

from __future__ import annotations

import json
from typing import Any

import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance


def _refused_param(body: bytes) -> Any:
    try:
        return json.loads(body)["error"]["param"]
    except (ValueError, KeyError, TypeError):
        return None


@schemathesis.check
def positive_data_acceptance_but_foreign_cursors(ctx: Any, response: Any, case: Any) -> Any:
    """ST202, with a refused cursor the server did not issue allowed (see the module)."""
    query = case.query or {}
    if (
        response.status_code == 400
        and query.get("after")
        and _refused_param(response.content) == "after"
    ):
        return None
    return positive_data_acceptance(ctx, response, case)

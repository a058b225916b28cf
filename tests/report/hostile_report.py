"""A scripted server whose every string tries to break out of an HTML page or an SVG."""

from __future__ import annotations

from typing import Any

from tests.support.scripted_server import Reply, analysis, page

CANARY = "window.__pwned"
PAYLOADS = (
    f"<script>{CANARY}=1</script>",
    f"</svg><script>{CANARY}=2</script><svg>",
    f'<img src=x onerror="{CANARY}=3">',
    f"]]></text><script>{CANARY}=4</script>",
    "| table | break | `code` *bold* [link](javascript:alert(1))",
)
PROJECT_ID = "proj_evil"


def hostile_analyses() -> list[dict[str, Any]]:
    """Completed and failed analyses whose labels, feedback and errors are payloads."""
    items = []
    for n, payload in enumerate(PAYLOADS):
        items.append(
            analysis(n, project_id=PROJECT_ID, label=payload, feedback=[payload], score=60 + n)
        )
        items.append(
            analysis(
                100 + n,
                project_id=PROJECT_ID,
                status="failed",
                label=payload,
                score=None,
                breakdown=None,
                feedback=[],
                error_message=payload,
            )
        )
    return items


def script(path: str, query: dict[str, str]) -> Reply:
    """The listing (one page) and the project, with payloads in every string."""
    if path == "/v1/analyses":
        items = hostile_analyses()
        return page(items, None, len(items))
    if path == f"/v1/projects/{PROJECT_ID}":
        return Reply.json(
            {
                "id": PROJECT_ID,
                "name": PAYLOADS[1],
                "description": PAYLOADS[0],
                "default_criteria": None,
                "analysis_count": 10,
                "avg_score": 62.0,
                "created_at": "2026-01-01T00:00:00Z",
                "updated_at": "2026-01-01T00:00:00Z",
            }
        )
    return Reply.json({"error": {"type": "not_found", "message": "no"}}, status=404)

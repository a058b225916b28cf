"""Hostile analyses and projects: every open field null or missing, wrong types, unknown
values, out-of-range scores, huge and bidirectional text, markup and terminal control
sequences in every text field."""

from __future__ import annotations

import re
from typing import Any

from tests.support.scripted_server import Reply, analysis

# Sequences a terminal would act on: clear screen, window title, clipboard write (OSC 52),
# C1 CSI and C1 OSC, a bare carriage return and backspace, a NUL.
CLEAR = "\x1b[2J"
TITLE = "\x1b]0;pwned-title\x07"
OSC52 = "\x1b]52;c;cHduZWQtY2xpcGJvYXJk\x07"  # "pwned-clipboard"
C1_CSI = "\x9b2J"
C1_OSC = "\x9d0;pwned-c1\x9c"
CONTROL = CLEAR + TITLE + OSC52 + C1_CSI + C1_OSC + "\r\b\x00"
MARKUP = "[b]bold[/b] [/ [@click=app.quit]quit[/] [link=file:///etc/passwd]pw[/link]"
WORLD = "日本語のラベル 🎉👩‍💻 مرحبا بالعالم עברית \u202eevil\u202c"
LONG_LABEL = "L" * 9_990 + "-the-end!"

# What must never reach a terminal: ESC, C1 codes, other C0 codes except tab and newline,
# and the bidi overrides that reorder what surrounds them.
RAW_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
PAYLOADS = ("pwned-title", "cHduZWQtY2xpcGJvYXJk", "pwned-c1")


def unsafe_in(text: str) -> list[str]:
    """The raw control characters in `text` (an empty list when it is safe to print)."""
    return sorted({repr(match) for match in RAW_UNSAFE.findall(text)})


def _only(**fields: Any) -> dict[str, Any]:
    return dict(fields)


def hostile_items() -> list[Any]:
    """One page's items: each a case of the data matrix, in a fixed order (see CASES)."""
    nulls = {key: None for key in analysis(0) if key != "id"}
    return [
        analysis(1),  # a plain valid row first: the page must not blank around the rest
        {"id": "ana_nulls", **nulls},
        _only(id="ana_missing"),
        analysis(
            3,
            id="ana_wrong_types",
            label=42,
            score="high",
            breakdown=[1, 2],
            feedback="text",
            created_at=12345,
        ),
        analysis(4, id="ana_unknown_status", status="archived"),
        analysis(5, id="ana_status_case", status="COMPLETED"),
        analysis(
            6,
            id="ana_extra_fields",
            x_extra={"nested": [1, 2, {"deep": CLEAR}]},
            label_html="<b>x</b>",
        ),
        analysis(7, id="ana_score_negative", score=-5, breakdown={"visual_clarity": -40}),
        analysis(8, id="ana_score_high", score=250, breakdown={"visual_clarity": 1000}),
        analysis(9, id="ana_score_float", score=99.95, breakdown={"visual_clarity": 0.5}),
        analysis(10, id="ana_score_huge", score=10**400, breakdown={"visual_clarity": 10**400}),
        analysis(
            11,
            id="ana_breakdown_keys",
            breakdown={"visual_clarity": 50, "made_up": 99, "[b]k[/b]": 1, CLEAR + "k": 2},
        ),
        analysis(12, id="ana_breakdown_null_values", breakdown={"visual_clarity": None}),
        analysis(13, id="ana_feedback_empty", feedback=[]),
        analysis(14, id="ana_feedback_blank", feedback=["", "   ", "\n"]),
        analysis(15, id="ana_long_label", label=LONG_LABEL, feedback=["F" * 10_000]),
        analysis(16, id="ana_world", label=WORLD, feedback=[WORLD], error_message=WORLD),
        analysis(17, id="ana_markup", label=MARKUP, feedback=[MARKUP], error_message=MARKUP),
        analysis(
            18,
            id="ana_control" + CONTROL,
            project_id="proj_control" + TITLE,
            status="completed" + CLEAR,
            image_url="https://images.example.com/x.png" + OSC52,
            label="label" + CONTROL,
            feedback=["feedback" + CONTROL, OSC52],
            error_message="error" + CONTROL,
            breakdown={"visual_clarity": 1, "key" + CONTROL: 2},
            x_extra="extra" + CONTROL,
        ),
        analysis(19, id="ana_bad_date", created_at="yesterday-ish"),
        analysis(20, id="ana_failed_nulls", status="failed", score=None, breakdown=None),
        "just a string",
        42,
        {"id": 12345, "status": "completed"},
        analysis(24),  # and a plain valid row last
    ]


INVALID_WITH_ID = ("ana_wrong_types", "ana_bad_date")
VALID_IDS = (
    "ana_0001",
    "ana_nulls",
    "ana_missing",
    "ana_unknown_status",
    "ana_status_case",
    "ana_extra_fields",
    "ana_score_negative",
    "ana_score_high",
    "ana_score_float",
    "ana_score_huge",
    "ana_breakdown_keys",
    "ana_breakdown_null_values",
    "ana_feedback_empty",
    "ana_feedback_blank",
    "ana_long_label",
    "ana_world",
    "ana_markup",
    "ana_failed_nulls",
    "ana_0024",
)


def hostile_project(project_id: str) -> dict[str, Any]:
    """A project whose every text field is hostile, and numbers out of range."""
    return {
        "id": project_id,
        "name": "Project " + MARKUP + CONTROL + WORLD,
        "description": "desc" + CONTROL,
        "default_criteria": {"visual_clarity": -1, "made_up": 10**400, "color_contrast": None},
        "analysis_count": -3,
        "avg_score": 1e300,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "x_extra": CONTROL,
    }


def hostile_script(path: str, query: dict[str, str]) -> Reply:
    """The scripted server's answers: the hostile page for listings, hostile projects."""
    if path.startswith("/v1/projects/"):
        return Reply.json(hostile_project(path.rsplit("/", 1)[-1]))
    items = hostile_items()
    if "status" in query:
        items = [i for i in items if isinstance(i, dict) and i.get("status") == query["status"]]
    limit = int(query.get("limit", "20"))
    return Reply.json(
        {"data": items[:limit] if limit == 1 else items, "next_cursor": None, "total": len(items)}
    )

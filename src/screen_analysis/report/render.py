"""Render a report from an overview: a self-contained HTML page, or Markdown.

Jinja2 with autoescaping for HTML, so every string that came from the server is text on
the page (`<script>` and `</svg>` in a label included); Markdown gets its own escape
filter, which escapes what Markdown would read as syntax where server text goes (inline: a
heading's text and table cells) and nothing else, so `2026-10-01`, `(RTL)` and `ana_5f…`
read as they are. No script, no external resource: the page opens offline and its Content
Security Policy refuses scripts even if one got in. Numbers follow `screen_analysis.numbers`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

import jinja2

from screen_analysis.insight.aggregates import Overview, ScreenRef
from screen_analysis.numbers import DASH, format_count, format_mean, format_score, format_weights
from screen_analysis.report import cards, charts
from screen_analysis.report.projects import projects_table
from screen_analysis.safe_text import clean
from screen_analysis.words import utc_time

FORMATS = ("html", "md")
# Inline Markdown (CommonMark and GitHub's tables): code spans, emphasis, links and images,
# raw HTML and autolinks, strikethrough, table cells; an underscore only where it can open
# or close emphasis (not between two letters or digits), an ampersand only where it starts
# an entity, and the closing hashes of a heading.
_MD_SPECIAL = re.compile(
    r"[\\`*\[\]<>|~]"
    r"|(?<![^\W_])_|_(?![^\W_])"
    r"|&(?=#[0-9]+;|#[xX][0-9A-Fa-f]+;|[A-Za-z][A-Za-z0-9]*;)"
    r"|#(?=#*$)"
)


@dataclass(frozen=True)
class ReportData:
    """What a report shows: the overview, when it was made, and for what filters."""

    overview: Overview
    generated_at: datetime
    status: str | None = None
    since: datetime | None = None
    project_names: Mapping[str, str] = field(default_factory=dict)
    source: str | None = None  # where the data came from when not the server ("the local cache…")


def escape_markdown(value: object) -> str:
    """Server text for inline Markdown: control characters visible, one line, and a
    backslash before each character Markdown would read as syntax there (a renderer also
    passes HTML through, so `<` is escaped, and `&` where it would start an entity)."""
    return _MD_SPECIAL.sub(lambda match: "\\" + match.group(), clean(value))


def _environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("screen_analysis.report", "templates"),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["clean"] = clean
    env.filters["md"] = escape_markdown
    env.filters["when"] = utc_time
    env.filters["score"] = format_score
    env.filters["mean"] = format_mean
    env.filters["num"] = format_count
    return env


def _context(data: ReportData) -> dict[str, object]:
    overview = data.overview

    def project_name(ref: ScreenRef) -> str:
        if ref.project_id is None:
            return DASH
        return data.project_names.get(ref.project_id, ref.project_id)

    filters = []
    if data.status:
        filters.append(f"status {data.status}")
    if data.since:
        filters.append(f"since {utc_time(data.since)}")
    return {
        "o": overview,
        "data": data,
        "filters": ", ".join(filters) or "all analyses",
        "project_name": project_name,
        "cards": cards.summary_cards(overview, data.generated_at),
        "partial": overview.timeline.partial(overview.first_at, data.generated_at),
        "weights_note": charts.weights_note(overview),
        "empty": charts.EMPTY,
        "status_chart": charts.status_chart(overview),
        "histogram": charts.histogram_chart(overview),
        "timeline": charts.timeline_chart(overview, data.generated_at),
        "criteria": charts.criteria_chart(overview),
        "weights": format_weights(item.weight for item in overview.criteria),
        "projects": projects_table(overview, data.project_names),
        "chart_left_out": charts.left_out_note(overview),
        "criteria_left_out": charts.criteria_left_out_note(overview),
    }


def render_html(data: ReportData) -> str:
    """The report as one self-contained HTML page (inline CSS and SVG, nothing fetched)."""
    template = _environment(autoescape=True).get_template("report.html.j2")
    return template.render(_context(data))


def render_markdown(data: ReportData) -> str:
    """The report as Markdown: tables and numbers, charts as text bars."""
    template = _environment(autoescape=False).get_template("report.md.j2")
    return template.render(_context(data))


def render(data: ReportData, fmt: str) -> str:
    """The report in `fmt` ("html" or "md")."""
    if fmt == "html":
        return render_html(data)
    if fmt == "md":
        return render_markdown(data)
    raise ValueError(f"unknown report format {fmt!r}")

"""Render a report from an overview: a self-contained HTML page, or Markdown.

Jinja2 with autoescaping for HTML, so every string that came from the server is text on
the page (`<script>` and `</svg>` in a label included); Markdown gets its own escape
filter. No script, no external resource: the page opens offline and its Content Security
Policy refuses scripts even if one got in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

import jinja2

from screen_analysis.insight.aggregates import Overview, ScreenRef
from screen_analysis.report import charts
from screen_analysis.safe_text import clean

FORMATS = ("html", "md")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~&-])")


@dataclass(frozen=True)
class ReportData:
    """What a report shows: the overview, when it was made, and for what filters."""

    overview: Overview
    generated_at: datetime
    status: str | None = None
    since: datetime | None = None
    project_names: Mapping[str, str] = field(default_factory=dict)


def escape_markdown(value: object) -> str:
    """Server text for Markdown: control characters visible, one line, syntax escaped (a
    Markdown renderer also passes HTML through, so `<` and `&` are escaped too)."""
    return _MD_SPECIAL.sub(r"\\\1", clean(value))


def _when(value: datetime | None) -> str:
    if value is None:
        return "—"
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _score(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


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
    env.filters["when"] = _when
    env.filters["score"] = _score
    env.filters["num"] = lambda value: f"{value:,}"
    return env


def _context(data: ReportData) -> dict[str, object]:
    overview = data.overview

    def project_name(ref: ScreenRef) -> str:
        if ref.project_id is None:
            return "—"
        return data.project_names.get(ref.project_id, ref.project_id)

    filters = []
    if data.status:
        filters.append(f"status {data.status}")
    if data.since:
        filters.append(f"since {_when(data.since)}")
    return {
        "o": overview,
        "data": data,
        "filters": ", ".join(filters) or "all analyses",
        "project_name": project_name,
        "status_chart": charts.status_chart(overview),
        "histogram": charts.histogram_chart(overview),
        "timeline": charts.timeline_chart(overview),
        "criteria": charts.criteria_chart(overview),
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

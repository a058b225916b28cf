"""A shareable report of an overview: self-contained HTML with inline SVG charts, or Markdown."""

from screen_analysis.report.render import FORMATS, ReportData, render, render_html, render_markdown

__all__ = ["FORMATS", "ReportData", "render", "render_html", "render_markdown"]

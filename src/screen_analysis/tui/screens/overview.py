"""The project overview: statuses, score distribution, score over time, criteria against the
weights, frequent feedback and the latest failures, for one project or all.

The API has no statistics endpoint, so a named worker walks every page of the listing
through the client's one cursor walker and feeds running aggregates (`insight`), showing
"12,400 of 48,210" as it goes. Esc stops the walk (what was read stays, marked as
incomplete); the result is kept in `kept` until `r` loads it again. The same overview can
be exported as a report (`e`, or "Export report…" in the palette).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, MutableMapping
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import ScreenAnalysisError
from screen_analysis.insight.aggregates import Overview, OverviewBuilder
from screen_analysis.insight.collect import fill
from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.choice import replace_question
from screen_analysis.tui.dialogs.prompt import REPORT, PromptDialog
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.screens import overview_charts as view
from screen_analysis.tui.screens.screen_keys import OVERVIEW_KEYS
from screen_analysis.tui.widgets.app_header import AppHeader
from screen_analysis.tui.widgets.bar_rows import BarRows
from screen_analysis.tui.widgets.column_chart import ColumnChart
from screen_analysis.tui.widgets.key_bar import KeyBar

PAINT_EVERY_S = 0.5  # charts follow the walk at this pace; the progress line every page
MIN_HISTOGRAM_ROWS = 4
MIN_TIMELINE_ROWS = 5
KeptOverviews = MutableMapping[str | None, Overview]
"""Overviews already read, by project id (None: all projects), kept until refreshed."""


class OverviewScreen(Screen[None]):
    """The overview of one project (or all), read page by page in a named worker."""

    BINDINGS: ClassVar[list[BindingType]] = OVERVIEW_KEYS

    DEFAULT_CSS = """
    OverviewScreen {
        #overview-progress { height: auto; padding: 0 1; display: none; }
        &.-loading #overview-progress { display: block; }
        #overview-body { height: 1fr; padding: 0 1; }
        #summary { margin-bottom: 1; }
        .overview-row { height: auto; }
        .panel { height: auto; width: 1fr; margin: 0 1 1 0; }
        .panel-title { color: $accent; text-style: bold; }
        .note { color: $foreground-muted; }
        #problem { color: $error; display: none; }
        &.-problem #problem { display: block; }
    }
    """

    def __init__(
        self,
        client: ScreenAnalysisClient,
        project_id: str | None,
        *,
        kept: KeptOverviews,
        clock: Callable[[], datetime] = now_utc,
        report_dir: Path | None = None,
    ) -> None:
        """Overview of `project_id` (None: all projects); results live in `kept`."""
        super().__init__()
        self.client = client
        self.project_id = project_id
        self.kept = kept
        self._clock = clock
        self._report_dir = report_dir
        self._builder: OverviewBuilder | None = None
        self._last_paint = 0.0
        self.overview: Overview | None = kept.get(project_id)

    @property
    def reading(self) -> bool:
        """Whether pages are being read."""
        return self.has_class("-loading")

    def compose(self) -> ComposeResult:
        """Progress, then the charts in a scrollable column."""
        yield AppHeader()
        with Vertical(id="overview-progress"):
            yield Static("", id="progress-text", markup=False)
            yield ProgressBar(id="progress-bar", show_eta=False)
        with VerticalScroll(id="overview-body"):
            yield Static("", id="problem", markup=False)
            yield Static("", id="summary", markup=False)
            with Horizontal(classes="overview-row", id="charts-row"):
                with Vertical(classes="panel"):
                    yield Static("Analyses by status", classes="panel-title")
                    yield BarRows(id="statuses", label_width=11)
                with Vertical(classes="panel"):
                    yield Static("Overall scores (count per 10 points)", classes="panel-title")
                    yield ColumnChart(id="histogram", plot_height=MIN_HISTOGRAM_ROWS)
            with Vertical(classes="panel", id="timeline-panel"):
                yield Static("Mean score over time", id="timeline-title", classes="panel-title")
                yield ColumnChart(id="timeline", plot_height=MIN_TIMELINE_ROWS)
                yield Static("", id="timeline-note", classes="note", markup=False)
            with Horizontal(classes="overview-row"):
                with Vertical(classes="panel"):
                    yield Static("Criteria", classes="panel-title")
                    yield BarRows(id="criteria", label_width=20)
                    yield Static("", id="weights-note", classes="note", markup=False)
                with Vertical(classes="panel"):
                    yield Static("Most frequent feedback", classes="panel-title")
                    yield Static("", id="feedback", markup=False)
            with Vertical(classes="panel"):
                yield Static("Latest failures", classes="panel-title")
                yield Static("", id="failures", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        """Show the kept overview, or start reading."""
        self.sub_title = "Overview"
        body = self.query_one("#overview-body", VerticalScroll)
        self.watch(body, "virtual_size", self._content_grew_or_shrank, init=False)
        if self.overview is not None:
            self._show(self.overview)
        else:
            self.action_reload()

    # Reading

    def action_reload(self) -> None:
        """Read every page again (the kept overview stays on screen until the new one)."""
        self.remove_class("-problem")
        self.add_class("-loading")
        self._show_progress(0, None)
        self._read()

    @work(exclusive=True, group="overview", exit_on_error=False)
    async def _read(self) -> None:
        """Walk the listing into a fresh builder; show progress per page."""
        try:
            project = None
            if self.project_id is not None:
                project = await self.client.get_project(self.project_id)
            builder = self._builder = OverviewBuilder(project)
            self._last_paint = time.monotonic()
            await fill(self.client, builder, project_id=self.project_id, on_page=self._on_page)
        except ScreenAnalysisError as exc:
            self._stopped("Stopped: " + describe_error(exc))
            return
        self._finish(builder.result())

    def _on_page(self, builder: OverviewBuilder, total: int | None) -> None:
        self._show_progress(builder.received, total)
        now = time.monotonic()
        if now - self._last_paint >= PAINT_EVERY_S:
            self._last_paint = now
            self._show(builder.result(complete=False))

    def _show_progress(self, received: int, total: int | None) -> None:
        text = view.progress_text(received, total) + " · Esc stops"
        self.query_one("#progress-text", Static).update(Content(text))
        bar = self.query_one("#progress-bar", ProgressBar)
        bar.update(total=total if total else None, progress=received)

    def _finish(self, overview: Overview) -> None:
        self.remove_class("-loading")
        self.kept[self.project_id] = overview
        self._show(overview)

    def _stopped(self, problem: str) -> None:
        """Keep what was read, marked incomplete, and say why the walk ended."""
        self.query_one("#problem", Static).update(Content(problem))
        self.add_class("-problem")
        if self._builder is not None and self._builder.seen:
            self._finish(self._builder.result(complete=False))
        else:
            self.remove_class("-loading")

    def _show(self, overview: Overview) -> None:
        """Draw every part of `overview`."""
        self.overview = overview
        self.query_one("#summary", Static).update(view.summary(overview))
        statuses = self.query_one("#statuses", BarRows)
        statuses.empty_message = "No analyses in this view."
        statuses.rows = view.status_rows(overview)
        self.query_one("#histogram", ColumnChart).data = view.histogram(overview)
        now = self._clock()
        title = view.timeline_title(overview, now)
        self.query_one("#timeline-title", Static).update(Content(title))
        self.query_one("#timeline", ColumnChart).data = view.timeline(overview, now)
        note = view.timeline_note(overview, now)
        self.query_one("#timeline-note", Static).update(Content(note))
        criteria = self.query_one("#criteria", BarRows)
        criteria.heading = view.criteria_heading(overview)
        criteria.rows = view.criteria_rows(overview)
        self.query_one("#weights-note", Static).update(Content(view.weights_note(overview)))
        self.query_one("#feedback", Static).update(view.feedback_lines(overview))
        self.query_one("#failures", Static).update(view.failure_lines(overview))
        self.call_after_refresh(self._fit_charts)

    def on_resize(self) -> None:
        """Size the charts to the new window once it is laid out."""
        self.call_after_refresh(self._fit_charts)

    def _content_grew_or_shrank(self, _size: object) -> None:
        """The body's scrollable size changed with what it holds: fit the charts again."""
        self._fit_charts()

    def _fit_charts(self) -> None:
        """Give the column charts the rows the other panels leave (a third to the histogram,
        the rest to the score over time), never fewer than their minimum: at 80×24 the body
        scrolls, at 200×50 the charts fill it. A chart that says it has nothing takes none.

        Measured on the last layout (the body's children and the charts as laid out), so
        the numbers agree with each other; a layout that changes the body's scrollable size
        fits them again."""
        body = self.query_one("#overview-body", VerticalScroll)
        histogram = self.query_one("#histogram", ColumnChart)
        timeline = self.query_one("#timeline", ColumnChart)
        charts = [chart for chart in (histogram, timeline) if chart.drawing]
        room = body.scrollable_content_region.height
        if not charts or not room:
            return
        content = max(
            (child.virtual_region_with_margin.bottom for child in body.displayed_children),
            default=0,
        )
        # Each drawing chart's panel grows row for row with its plot, so the rest is fixed.
        free = room - (content - sum(chart.laid_out_rows for chart in charts))
        if len(charts) == 2:
            histogram.plot_height = max(MIN_HISTOGRAM_ROWS, free // 3)
            free -= histogram.plot_height
        least = MIN_TIMELINE_ROWS if charts[-1] is timeline else MIN_HISTOGRAM_ROWS
        charts[-1].plot_height = max(least, free)

    def action_back(self) -> None:
        """Stop reading (keeping what was read), or go back when nothing is being read."""
        if self.reading:
            self.workers.cancel_group(self, "overview")
            self._stopped("Stopped by you; r reads every page again.")
        else:
            self.dismiss(None)

    # Export

    def action_export(self) -> None:
        """Ask for a file and write the overview as a report (asking before replacing)."""
        overview = self.overview
        if overview is None or self.reading:
            self.notify("Wait for the overview to be read first.", severity="warning")
            return
        folder = self._report_dir or Path.cwd()
        suggested = folder / "screen-analysis-report.html"

        def chosen(text: str | None) -> None:
            if not text:
                return
            path = Path(text).expanduser()
            if path.exists():

                def answered(replace: str | None) -> None:
                    if replace == "replace":
                        self._export(path, overview, True)

                self.app.push_screen(replace_question(path), answered)
            else:
                self._export(path, overview, False)

        self.app.push_screen(PromptDialog(REPORT, str(suggested)), chosen)

    @work(group="export", exit_on_error=False)
    async def _export(self, path: Path, overview: Overview, replace: bool) -> None:
        """Name the projects, render, write off the event loop; say how it went."""
        # Jinja2 is loaded when a report is first written, not when the overview opens.
        from screen_analysis.report.build import project_names
        from screen_analysis.report.files import write_report_file
        from screen_analysis.report.render import ReportData, render

        try:
            names = await project_names(self.client, overview)
            data = ReportData(overview, self._clock(), project_names=names)
            fmt = "md" if path.suffix.lower() in {".md", ".markdown"} else "html"
            text = await asyncio.to_thread(render, data, fmt)
            await asyncio.to_thread(write_report_file, path, text, replace=replace)
        except FileExistsError:
            self.notify(f"Not written: {clean(str(path))} appeared meanwhile.", markup=False)
        except OSError as exc:
            reason = clean(exc.strerror or str(exc))
            self.notify(f"Not written: {reason}", severity="error", markup=False)
        else:
            self.notify(f"Report written to {clean(str(path))}", markup=False)

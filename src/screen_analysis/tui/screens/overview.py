"""The project overview: statuses, score distribution, score over time, criteria against the
weights, frequent feedback and the latest failures, for one project or all.

The API has no statistics endpoint, so a named worker walks every page of the listing
through the client's one cursor walker and feeds running aggregates (`insight`), showing
"12,400 of 48,210" as it goes. Esc stops the walk (what was read stays, marked as
incomplete); the result is kept in `kept` until `r` loads it again. Each read takes the
client the app holds at that moment (`CurrentClient`), so a renewed key or another server
is used at once. When the server cannot be reached before a row was read, the overview is
made from what the local cache kept of this scope, and its header says so. The same
overview can be exported as a report (`e`, or "Export report…" in the palette) through the
app's one way of writing a file (`dialogs.save`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, MutableMapping
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import ClassVar, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import EmptyPagesError, ScreenAnalysisError
from screen_analysis.cache import LocalCache
from screen_analysis.insight.aggregates import Overview, OverviewBuilder
from screen_analysis.insight.collect import fill, project_names
from screen_analysis.insight.offline import KeptOverview, kept_overview
from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.prompt import REPORT
from screen_analysis.tui.dialogs.save import Write, save_file
from screen_analysis.tui.feed import unreachable
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.screens import overview_charts as view
from screen_analysis.tui.screens.screen_keys import OVERVIEW_KEYS
from screen_analysis.tui.widgets.app_header import AppHeader
from screen_analysis.tui.widgets.bar_rows import BarRows
from screen_analysis.tui.widgets.column_chart import ColumnChart
from screen_analysis.tui.widgets.key_bar import KeyBar
from screen_analysis.tui.widgets.project_trends import ProjectTrends
from screen_analysis.words import capitalised

PAINT_EVERY_S = 0.5  # charts follow the walk at this pace; the progress line every page
MIN_HISTOGRAM_ROWS = 4
MIN_TIMELINE_ROWS = 5
KeptOverviews = MutableMapping[str | None, Overview]
"""Overviews already read, by project id (None: all projects), kept until refreshed."""
REPORT_NAME = "screen-analysis-report.html"  # suggested in the current directory
T = TypeVar("T")


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
        .panel { height: auto; width: 1fr; margin: 0 3 1 0; }
        .panel-title { color: $accent; text-style: bold; }
        .note { color: $foreground-muted; }
        #problem { color: $error; display: none; }
        &.-problem #problem { display: block; }
        #offline { color: $warning; text-style: bold; display: none; }
        &.-offline #offline { display: block; }
    }
    """

    def __init__(
        self,
        current: CurrentClient,
        project_id: str | None,
        *,
        kept: KeptOverviews,
        clock: Callable[[], datetime] = now_utc,
        cache: LocalCache | None = None,
    ) -> None:
        """Overview of `project_id` (None: all projects), read with the client `current`
        holds when each read starts; results live in `kept`; offline, what `cache` kept of
        this scope stands in (None: no local cache)."""
        super().__init__()
        self.current = current
        self.project_id = project_id
        self.kept = kept
        self._clock = clock
        self._cache = cache
        self.from_cache: KeptOverview | None = None  # the overview shown is the cache's
        self._builder: OverviewBuilder | None = None
        self._last_paint = 0.0
        self.overview: Overview | None = kept.get(project_id)
        self._names: tuple[Overview, dict[str, str]] | None = None  # of the projects shown

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
            yield Static("", id="offline", markup=False)
            yield Static("", id="problem", markup=False)
            yield Static("", id="summary", markup=False)
            with Vertical(classes="panel", id="projects-panel"):
                yield Static("Projects", classes="panel-title")
                yield ProjectTrends(id="projects")
            with Horizontal(classes="overview-row", id="charts-row"):
                with Vertical(classes="panel"):
                    yield Static("Analyses by status", classes="panel-title")
                    yield BarRows(id="statuses", label_width=11)
                with Vertical(classes="panel"):
                    yield Static("Overall scores (count per 10 points)", classes="panel-title")
                    yield ColumnChart(id="histogram", plot_height=MIN_HISTOGRAM_ROWS)
                    yield Static("", id="histogram-note", classes="note", markup=False)
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
            self._name_projects(self.overview)
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
        """Walk the listing into a fresh builder with the client in use now; show progress
        per page. A server that cannot be reached before a row was read: the cache's."""
        client, self._builder = self.current.client, None
        try:
            project = None
            if self.project_id is not None:
                project = await client.get_project(self.project_id)
            builder = self._builder = OverviewBuilder(project, by_project=self.project_id is None)
            self._last_paint = time.monotonic()
            await fill(client, builder, project_id=self.project_id, on_page=self._on_page)
        except ScreenAnalysisError as exc:
            nothing_read = self._builder is None or not self._builder.seen
            if self._cache is not None and unreachable(exc) and nothing_read:
                await self._read_cache(self._cache, exc)
            elif isinstance(exc, EmptyPagesError):  # its words say it stopped, and why
                words = describe_error(exc)
                self._stopped(capitalised(words))
            else:
                self._stopped(describe_error(exc, prefix="Stopped"))
            return
        self._finish(builder.result())

    async def _read_cache(self, cache: LocalCache, error: ScreenAnalysisError) -> None:
        """The overview of what the cache kept (read and added up off the event loop); the
        header says so, or that nothing of this scope was kept."""
        found = await asyncio.to_thread(kept_overview, cache, self.project_id)
        line = view.offline_line(found, self.project_id, self._clock())
        self.query_one("#offline", Static).update(Content(line))
        self.add_class("-offline")
        if found is None:
            self._stopped(describe_error(error, prefix="Stopped"))
            return
        self.from_cache = found
        self.remove_class("-loading")
        self._show(found.overview)  # not kept: the next `v` asks the server again

    def _on_page(self, builder: OverviewBuilder, total: int | None) -> None:
        self._show_progress(builder.received, total)
        now = time.monotonic()
        if now - self._last_paint >= PAINT_EVERY_S:
            self._last_paint = now
            self._show(builder.result(complete=False), reading=True)

    def _show_progress(self, received: int, total: int | None) -> None:
        text = view.progress_text(received, total) + " · Esc stops"
        self.query_one("#progress-text", Static).update(Content(text))
        bar = self.query_one("#progress-bar", ProgressBar)
        bar.update(total=total if total else None, progress=received)

    def _finish(self, overview: Overview) -> None:
        """Show what the server sent (no longer the cache's), and keep it."""
        self.from_cache = None
        self.remove_class("-loading", "-offline")
        self.kept[self.project_id] = overview
        self._show(overview)
        self._name_projects(overview)

    def _stopped(self, problem: str) -> None:
        """Keep what was read, marked incomplete, and say why the walk ended."""
        self.query_one("#problem", Static).update(Content(problem))
        self.add_class("-problem")
        if self._builder is not None and self._builder.seen:
            self._finish(self._builder.result(complete=False))
        else:
            self.remove_class("-loading")

    def _show(self, overview: Overview, *, reading: bool = False) -> None:
        """Draw every part of `overview` (`reading`: what was read so far, more to come)."""
        self.overview = overview
        self.query_one("#summary", Static).update(view.summary(overview, reading=reading))
        statuses = self.query_one("#statuses", BarRows)
        statuses.empty_message = "No analyses in this view."
        statuses.rows = view.status_rows(overview)
        self._show_projects(overview)
        self.query_one("#histogram", ColumnChart).data = view.histogram(overview)
        left_out = view.chart_note(overview)
        histogram_note = self.query_one("#histogram-note", Static)
        histogram_note.update(Content(left_out))
        histogram_note.display = bool(left_out)  # a line only when something is said
        now = self._clock()
        title = view.timeline_title(overview, now)
        self.query_one("#timeline-title", Static).update(Content(title))
        self.query_one("#timeline", ColumnChart).data = view.timeline(overview, now)
        note = view.timeline_note(overview, now)
        self.query_one("#timeline-note", Static).update(Content(note))
        criteria = self.query_one("#criteria", BarRows)
        criteria.heading = view.criteria_heading(overview)
        criteria.empty_message = view.empty_criteria(overview)
        criteria.rows = view.criteria_rows(overview)
        self.query_one("#weights-note", Static).update(Content(view.weights_note(overview)))
        self.query_one("#feedback", Static).update(view.feedback_lines(overview))
        self.query_one("#failures", Static).update(view.failure_lines(overview))
        self.call_after_refresh(self._fit_charts)

    def _show_projects(self, overview: Overview) -> None:
        """The table of projects with their weekly trends (an overview of all projects);
        named as the cache kept them, as looked up, or by id until then."""
        table = overview.projects
        panel = self.query_one("#projects-panel", Vertical)
        panel.display = table is not None and bool(table.rows)
        if table is None or not table.rows:
            return
        trends = self.query_one(ProjectTrends)
        if self.from_cache is not None:
            trends.names = self.from_cache.project_names
        elif self._names is not None:
            trends.names = self._names[1]
        trends.table = table

    @work(exclusive=True, group="names", exit_on_error=False)
    async def _name_projects(self, overview: Overview) -> None:
        """Name the rows of `overview`'s table of projects once their names are known."""
        if overview.projects is None or self.from_cache is not None:
            return
        await self._looked_up(overview)
        if self.overview is overview:
            self._show_projects(overview)

    async def _looked_up(self, overview: Overview) -> dict[str, str]:
        """The names of the projects `overview` shows, looked up once per overview (its
        table and its report share them)."""
        if self._names is None or self._names[0] is not overview:
            self._names = (overview, await project_names(self.current.client, overview))
        return self._names[1]

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
        self._export(overview, self.from_cache)

    @work(group="export", exclusive=True, exit_on_error=False)
    async def _export(self, overview: Overview, from_cache: KeptOverview | None) -> None:
        """Ask where, then write the report (the app's one way of writing a file)."""

        async def prepare(_path: Path) -> Write:
            return partial(self._write_report, overview, from_cache)

        await save_file(self, REPORT, Path.cwd() / REPORT_NAME, prepare)

    async def _write_report(
        self, overview: Overview, from_cache: KeptOverview | None, path: Path, replace: bool
    ) -> str:
        """Name the projects (offline: as the cache kept them), render and write off the
        event loop; what was written."""
        # Jinja2 is loaded when a report is first written, not when the overview opens.
        from screen_analysis.report.files import write_report_file
        from screen_analysis.report.render import ReportData, render

        if from_cache is not None:
            names = from_cache.project_names
        else:
            names = await self._looked_up(overview)
        source = view.report_source(from_cache) if from_cache is not None else None
        data = ReportData(overview, self._clock(), project_names=names, source=source)
        fmt = "md" if path.suffix.lower() in {".md", ".markdown"} else "html"
        text = await asyncio.to_thread(render, data, fmt)
        await asyncio.to_thread(write_report_file, path, text, replace=replace)
        return f"Report written to {clean(str(path))}."

    # What saving a file needs of the screen (`dialogs.save.SaveHost`)

    def say(self, text: str, severity: str = "information") -> None:
        """One notification (plain text)."""
        self.notify(text, severity=severity, markup=False)  # type: ignore[arg-type]

    async def ask(self, screen: Screen[T]) -> T:
        """Push `screen` and wait for its answer (in a worker)."""
        return await self.app.push_screen_wait(screen)

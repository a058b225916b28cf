"""The overview's chart widgets: labelled axes that say where they start, a histogram from
0 to 100, hatched partial columns, a sentence for an empty chart, weights in a column of
their own, and charts that fill a large window while the comparison keeps its scores on an
80×24 screen; the overview's text laid out for its width (whole parts, hanging lines)."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.app import App, ComposeResult

from screen_analysis.api.models import Analysis, AnalysisStatus, Project
from screen_analysis.demo.runner import DemoServer
from screen_analysis.insight.aggregates import Overview, OverviewBuilder
from screen_analysis.tui.formatting import Fitted
from screen_analysis.tui.screens import overview_charts as view
from screen_analysis.tui.screens.compare import CompareScreen
from screen_analysis.tui.screens.overview import (
    MIN_HISTOGRAM_ROWS,
    MIN_TIMELINE_ROWS,
    OverviewScreen,
)
from screen_analysis.tui.themes import variable_defaults
from screen_analysis.tui.widgets.bar_rows import BarHeading, BarRow, BarRows
from screen_analysis.tui.widgets.column_chart import HATCH, ColumnChart, ColumnData, y_labels
from screen_analysis.tui.widgets.diff_table import DiffTable

from .conftest import DEMO_NOW_FIXED, connection_to, make_app, settled, wait_until
from .test_compare import versions


class Charts(App[None]):
    """One chart and one set of bars, at the size the test asks for."""

    CSS = "ColumnChart { height: 1fr; } BarRows { height: auto; }"

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The app's variables ($score-bar-fill, …), as the app derives them."""
        defaults = variable_defaults(self.current_theme)
        return {"foreground-disabled": defaults["score-bar-empty"], **defaults}

    def compose(self) -> ComposeResult:
        yield ColumnChart(plot_height=4)
        yield BarRows(label_width=12)


def test_y_labels_are_round_and_apart() -> None:
    labels = y_labels(0, 100, 10)
    assert labels[0] == "100" and set(labels.values()) <= {
        "100",
        "80",
        "75",
        "60",
        "50",
        "40",
        "25",
        "20",
    }
    rows = sorted(labels)
    assert all(b - a >= 2 for a, b in itertools.pairwise(rows)) and rows[-1] <= 8


def test_a_tall_count_axis_up_to_one_labels_one_once() -> None:
    """Counts of 0 and 1 on 24 rows: "1" at the top and nothing else above the foot (a step
    of 0.1 once labelled five rows "1" and five "0")."""
    assert y_labels(0, 1, 24, whole=True) == {0: "1"}


async def test_a_chart_fills_its_height_names_its_foot_and_hatches_partial_columns() -> None:
    app = Charts()
    async with app.run_test(size=(60, 20)) as pilot:
        chart = app.query_one(ColumnChart)
        chart.data = ColumnData(
            (40.0, 60.0, 80.0),
            100.0,
            ((0, "a"), (1, "b")),
            bottom=30.0,
            partial=(False, False, True),
        )
        await pilot.pause()
        lines = chart.render().plain.splitlines()
        assert len(lines) > 4 + 2  # more than its minimum: the rows it was given
        foot = next(line for line in lines if "─" in line)
        assert foot.lstrip().startswith("30 ≈")  # a cut axis says where it starts
        assert HATCH in "".join(lines) and "█" in "".join(lines)
        chart.data = ColumnData(
            tuple(float(n) for n in range(10)),
            9.0,
            ((0, "0"), (5, "50")),
            end_label="100",
            round_top=True,
        )
        await pilot.pause()
        text = chart.render().plain
        assert " 0 ┼" in text and text.splitlines()[-1].rstrip().endswith("100")
        chart.data = ColumnData((0.0, 0.0), 0.0)
        await pilot.pause()
        assert chart.render().plain == "No completed analyses in this view."


async def test_weights_are_a_column_of_their_own_not_a_mark_in_the_bar() -> None:
    app = Charts()
    async with app.run_test(size=(60, 20)) as pilot:
        bars = app.query_one(BarRows)
        bars.heading = BarHeading("mean score", "mean", "weight")
        bars.rows = (
            BarRow("Clarity", 66.1, 100, "66.1", extra="0.15"),
            BarRow("CTA", 51.7, 100, "51.7", extra="0.35"),
        )
        await pilot.pause()
        lines = bars.render().plain.splitlines()
        assert lines[0].rstrip().endswith("mean  weight")
        assert lines[1].split()[-2:] == ["66.1", "0.15"] and lines[2].split()[-2:] == [
            "51.7",
            "0.35",
        ]
        assert len(lines[0].rstrip()) == len(lines[1]) == len(lines[2])  # right-aligned columns
        assert "│" not in "".join(lines)
        bars.rows = (BarRow("Clarity", None, 100, "—"),)
        await pilot.pause()
        assert bars.render().plain == "No completed analyses in this view."


async def test_wide_labels_are_cut_to_their_column_in_cells() -> None:
    """Labels were cut by characters: a project named in CJK took twice its column and
    pushed its bar and number out of line with the others."""
    app = Charts()
    async with app.run_test(size=(60, 20)) as pilot:
        bars = app.query_one(BarRows)
        bars.rows = (
            BarRow("結帳頁面的設計評估報告", 66.1, 100, "66.1"),
            BarRow("Checkout", 51.7, 100, "51.7"),
            BarRow("決済", 40.0, 100, "40.0"),
        )
        await pilot.pause()
        lines = bars.render().plain.splitlines()
        assert {cell_len(line) for line in lines} == {60}
        assert lines[0].startswith("結帳頁面的… ") and lines[2].startswith("決済" + " " * 9)
        bars_start = {cell_len(line[: line.index(line.strip().split()[-2][0])]) for line in lines}
        assert bars_start == {13}  # the 12 cells of the label column and a space, on every row


async def overview_at(tmp_path: Path, server: DemoServer, size: tuple[int, int]) -> Any:
    app = make_app(tmp_path, connection_to(server), refresh_interval=0)
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        assert app.client is not None
        project = server.store.projects()[0].id
        screen = OverviewScreen(app.current, project, kept={}, clock=lambda: DEMO_NOW_FIXED)
        app.push_screen(screen)
        await wait_until(pilot, lambda: screen.overview is not None and not screen.reading)
        histogram = screen.query_one("#histogram", ColumnChart)
        timeline = screen.query_one("#timeline", ColumnChart)
        body = screen.query_one("#overview-body")
        if size[1] >= 40:
            # The charts are sized once the read overview is laid out, and again as its
            # panels fill in: wait for the fit, not for the first layout without overflow.
            await wait_until(
                pilot,
                lambda: (
                    body.max_scroll_y == 0
                    and histogram.plot_height > MIN_HISTOGRAM_ROWS
                    and timeline.plot_height > MIN_TIMELINE_ROWS
                ),
            )
        await pilot.pause()
        return histogram.plot_height, timeline.plot_height, body.max_scroll_y


async def test_the_overview_fills_a_large_window_and_scrolls_a_small_one(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    histogram, timeline, overflow = await overview_at(tmp_path, demo_server, (200, 50))
    assert histogram > MIN_HISTOGRAM_ROWS and timeline > MIN_TIMELINE_ROWS and overflow == 0
    histogram, timeline, overflow = await overview_at(tmp_path, demo_server, (80, 24))
    assert (histogram, timeline) == (MIN_HISTOGRAM_ROWS, MIN_TIMELINE_ROWS) and overflow > 0


async def test_compare_keeps_every_score_on_an_80x24_screen(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    from screen_analysis.tui.graphics import Graphics
    from screen_analysis.tui.screens.main.insight import COMPARE_IMAGE_ROWS, image_slot

    v1, v4 = versions(demo_server)
    app = make_app(tmp_path, connection_to(demo_server), graphics=Graphics("halfcell"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        # The app's slot asks for images COMPARE_IMAGE_ROWS tall: more than 80×24 has room for.
        assert COMPARE_IMAGE_ROWS >= 10
        screen = CompareScreen(v1, v4, image_slot=image_slot(app.previews))
        app.push_screen(screen)
        await wait_until(pilot, lambda: screen.is_mounted and bool(screen.query(DiffTable)))
        table = screen.query_one(DiffTable)
        await wait_until(pilot, lambda: table.region.height == 7)
        await pilot.pause()
        assert table.region.bottom <= 24 - 1  # above the key bar: all six scores and the header
        assert "Brand consistency" in table.render().plain


WEEK_ONE = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)  # a Monday
SENTENCE = "The primary call to action is hard to find; give it a distinct colour and position."


def weekly_overview(weeks: int = 20, low: int = 72, high: int = 78) -> Overview:
    """Scores between `low` and `high`, a few a week for `weeks` weeks, with feedback."""
    project = Project(
        id="proj_1",
        name="Acme Checkout with a name long enough to need its own line",
        default_criteria={"visual_clarity": 0.2, "cta_effectiveness": 0.8},
    )
    builder = OverviewBuilder(project)
    for week in range(weeks):
        for n in range(3):
            builder.add(
                Analysis(
                    id=f"ana_{week}_{n}",
                    project_id="proj_1",
                    status=AnalysisStatus.COMPLETED,
                    score=low if week % 2 else high,
                    breakdown={"visual_clarity": 80, "cta_effectiveness": 50},
                    feedback=[SENTENCE],
                    created_at=WEEK_ONE + timedelta(weeks=week, days=n),
                )
            )
    return builder.result()


def test_the_weekly_axis_is_chosen_from_the_data_and_says_so() -> None:
    overview = weekly_overview()
    now = WEEK_ONE + timedelta(weeks=30)
    assert view.timeline_axis(overview) == (60.0, 90.0)  # 72–78, five points and round
    assert "(axis 60–90)" in view.timeline_title(overview, now)
    data = view.timeline(overview, now)
    assert (data.bottom, data.top) == (60.0, 90.0)
    low = weekly_overview(low=2, high=98)
    assert view.timeline_axis(low) == (0.0, 100.0)
    assert "axis" not in view.timeline_title(low, now)
    flat = weekly_overview(low=97, high=97)
    assert view.timeline_axis(flat) == (80.0, 100.0)  # never a span too thin to show a change


async def test_weekly_labels_are_two_spaces_apart_at_least() -> None:
    overview = weekly_overview(weeks=26)
    for width in (80, 120, 200):
        app = Charts()
        async with app.run_test(size=(width, 20)) as pilot:
            chart = app.query_one(ColumnChart)
            chart.data = view.timeline(overview, WEEK_ONE + timedelta(weeks=30))
            await pilot.pause()
            axis = next(line for line in chart.render().plain.splitlines() if "May" in line)
            labels = re.split(r" {2,}", axis.strip())
            assert len(labels) >= 3, axis
            assert all(re.fullmatch(r"\d\d [A-Z][a-z]{2}", label) for label in labels), axis
            assert "90 ┤" in chart.render().plain or " 90 " in chart.render().plain


def test_the_summary_moves_whole_parts_and_no_line_starts_or_ends_with_a_separator() -> None:
    overview = weekly_overview()
    parts = [part.plain for part in view.summary_parts(overview)]
    for width in range(20, 160, 3):
        lines = view.summary(overview).content(width).plain.splitlines()
        for line in lines:
            assert not line.startswith(("·", " ")) and not line.endswith(("·", " ")), lines
        for part in parts:
            if len(part) <= width:
                assert any(part in line for line in lines), (width, part, lines)
    assert len(view.summary(overview).content(400).plain.splitlines()) == 1
    assert str(view.summary(overview)).startswith("Acme Checkout with a name")


def test_feedback_hangs_under_its_text_not_under_its_count() -> None:
    overview = weekly_overview()
    feedback = view.feedback_lines(overview)
    assert isinstance(feedback, Fitted)
    lines = feedback.content(40).plain.splitlines()
    first = lines[0]
    marker = first.index("×") + 2
    assert first.endswith(first[marker:]) and len(lines) > 1
    assert all(line[:marker].isspace() and line[marker] != " " for line in lines[1:])
    assert SENTENCE.split()[0] in str(view.feedback_lines(overview))


def test_the_weights_note_uses_words_and_keeps_its_legend_whole() -> None:
    overview = weekly_overview()
    note = view.weights_note(overview)
    assert "default_criteria" not in note
    assert note.splitlines() == ["Weights: set by the project.", "◀ marks the weakest."]

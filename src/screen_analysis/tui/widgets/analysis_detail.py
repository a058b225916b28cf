"""The detail pane: one analysis, its score per criterion, feedback, times and ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from screen_analysis.api.models import (
    CRITERIA,
    Analysis,
    AnalysisItem,
    AnalysisStatus,
    Criterion,
    InvalidAnalysis,
)
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import (
    DASH,
    format_score,
    local_time,
    status_class,
    status_glyph,
    status_word,
)
from screen_analysis.tui.project_book import KnownProject
from screen_analysis.tui.widgets.score_bar import ScoreBar
from screen_analysis.tui.widgets.screen_image import ImagePreviews, ScreenImage

_STATUS_CLASSES = ("-pending", "-processing", "-completed", "-failed", "-unknown")


def format_weight(weight: float | None) -> str:
    """A weight as sent (no rounding that would hide a value)."""
    if weight is None or isinstance(weight, bool):
        return DASH
    return f"{weight:g}"


def weights_note(known: KnownProject | None) -> str:
    """Where the weights come from, in a line."""
    if known is None or known.state == "loading":
        return "Weights: loading project…"
    if known.project is None:
        return "Weights: unknown (project not available)"
    if known.project.default_criteria is None:
        return "Weights: platform defaults"
    return "Weights: the project's default criteria"


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:  # an integer beyond 1e308: still shown as beyond any scale
        return float("inf") if value > 0 else float("-inf")


class CriterionRow(Horizontal):
    """One criterion: its human name, a bar, the score as sent and the project's weight."""

    DEFAULT_CSS = """
    CriterionRow {
        height: 1;
        & > .criterion-name { width: 19; }
        & > .criterion-value { width: 6; text-align: right; }
        & > .criterion-weight { width: 8; text-align: right; color: $foreground-muted; }
    }
    """

    def __init__(self, criterion: Criterion) -> None:
        """Create the row for `criterion`."""
        super().__init__(id=f"criterion-{criterion.value}")
        self.criterion = criterion

    def compose(self) -> ComposeResult:
        """Name, bar, value, weight."""
        yield Static(self.criterion.title, classes="criterion-name", markup=False)
        yield ScoreBar()
        yield Static(DASH, classes="criterion-value", markup=False)
        yield Static("", classes="criterion-weight", markup=False)

    def show(self, value: object, weight: object) -> None:
        """Show a score (as sent, bar clamped to 0–100) and a weight."""
        number = _number(value)
        self.query_one(ScoreBar).value = number
        self.query_one(".criterion-value", Static).update(
            Content(DASH if number is None else format_score(number))
        )
        text = "" if weight is None else f"w {format_weight(_number(weight))}"
        self.query_one(".criterion-weight", Static).update(Content(text))


class AnalysisDetail(VerticalScroll, can_focus=True):
    """Everything known about the highlighted analysis; nothing invented for missing values."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Scroll down", show=False),
        Binding("k", "scroll_up", "Scroll up", show=False),
    ]

    DEFAULT_CSS = """
    AnalysisDetail {
        padding: 0 1;
        & > Static { width: 1fr; }
        & > .section { margin-top: 1; color: $foreground-muted; text-style: bold; }
        & > #detail-label { text-style: bold; color: $foreground; }
        & > #detail-status {
            &.-pending { color: $status-pending; }
            &.-processing { color: $status-processing; }
            &.-completed { color: $status-completed; }
            &.-failed { color: $status-failed; }
            &.-unknown { color: $status-unknown; }
        }
        & > #detail-error { color: $status-failed; }
        & > #detail-empty { color: $foreground-muted; text-style: italic; }
        & > #detail-image { height: 14; margin-top: 1; }
    }
    """

    def __init__(
        self,
        previews: ImagePreviews | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """The pane; images through `previews` (None: the app's)."""
        super().__init__(id=id, classes=classes)
        self._previews = previews

    def compose(self) -> ComposeResult:
        """The fixed parts; `show` fills them."""
        yield Static("", id="detail-empty", markup=False)
        yield Static("", id="detail-label", markup=False)
        yield Static("", id="detail-status", markup=False)
        yield ScreenImage(self._previews, id="detail-image")
        yield Static("Scores", id="detail-scores-title", classes="section", markup=False)
        yield Static("", id="detail-weights", markup=False)
        for criterion in CRITERIA:
            yield CriterionRow(criterion)
        yield Static("", id="detail-extra", markup=False)
        yield Static("Feedback", id="detail-feedback-title", classes="section", markup=False)
        yield Static("", id="detail-feedback", markup=False)
        yield Static("Error", id="detail-error-title", classes="section", markup=False)
        yield Static("", id="detail-error", markup=False)
        yield Static("Details", classes="section detail-meta", markup=False)
        yield Static("", id="detail-meta", classes="detail-meta", markup=False)

    def on_mount(self) -> None:
        """Start empty."""
        self.show(None, None)

    def _set(self, widget_id: str, text: str | Content, *, visible: bool = True) -> None:
        widget = self.query_one(f"#{widget_id}", Static)
        widget.update(text if isinstance(text, Content) else Content(text))
        widget.display = visible

    def _sections(self, *, scores: bool, feedback: bool, error: bool, meta: bool) -> None:
        self.query_one("#detail-scores-title").display = scores
        self.query_one("#detail-weights").display = scores
        for row in self.query(CriterionRow):
            row.display = scores
        self.query_one("#detail-feedback-title").display = feedback
        self.query_one("#detail-feedback").display = feedback
        self.query_one("#detail-error-title").display = error
        self.query_one("#detail-error").display = error
        for widget in self.query(".detail-meta"):
            widget.display = meta

    def show(self, item: AnalysisItem | None, project: KnownProject | None) -> None:
        """Show `item` (None: nothing highlighted) with what is known of its project."""
        if item is None or isinstance(item, InvalidAnalysis):
            message = "No analysis selected."
            if isinstance(item, InvalidAnalysis):
                message = "This row could not be read: " + clean(item.reason)
            self._set("detail-empty", message)
            for widget_id in ("detail-label", "detail-status", "detail-extra"):
                self._set(widget_id, "", visible=False)
            meta = "" if item is None or item.id is None else "ID  " + clean(item.id)
            self._set("detail-meta", meta)
            self._sections(scores=False, feedback=False, error=False, meta=bool(meta))
            self.query_one(ScreenImage).show(None)
            return
        self._set("detail-empty", "", visible=False)
        self._set("detail-label", clean(item.label) or "(no label)")
        self._set("detail-status", self._status_text(item))
        status = self.query_one("#detail-status")
        status.remove_class(*_STATUS_CLASSES)
        status.add_class("-" + status_class(item.status))
        self._show_scores(item, project)
        feedback = [clean(line) for line in item.feedback or [] if clean(line)]
        self._set("detail-feedback", "\n".join(f"• {line}" for line in feedback))
        self._set("detail-error", clean(item.error_message, single_line=False))
        image = self.query_one(ScreenImage)
        image.show(item)
        self._set("detail-meta", self._meta_text(item, project, image.previews))
        self._sections(
            scores=self._has_scores(item),
            feedback=bool(feedback),
            error=bool(item.error_message),
            meta=True,
        )
        self.scroll_home(animate=False)

    @staticmethod
    def _has_scores(item: Analysis) -> bool:
        return item.breakdown is not None or item.known_status is AnalysisStatus.COMPLETED

    @staticmethod
    def _status_text(item: Analysis) -> str:
        status = f"{status_glyph(item.status)} {status_word(item.status)}"
        if item.score is not None:
            return f"{status} · score {format_score(item.score)}"
        waiting = item.known_status in (AnalysisStatus.PENDING, AnalysisStatus.PROCESSING)
        return f"{status} · not scored yet" if waiting else f"{status} · no score"

    def _show_scores(self, item: Analysis, known: KnownProject | None) -> None:
        breakdown: Mapping[str, object] = item.breakdown or {}
        weights: Mapping[str, object] = {}
        if known is not None and known.project is not None:
            weights = known.project.default_criteria or {}
        self._set("detail-weights", weights_note(known))
        for row in self.query(CriterionRow):
            row.show(breakdown.get(row.criterion.value), weights.get(row.criterion.value))
        documented = {c.value for c in CRITERIA}
        extra = [
            f"{clean(key)}: {format_score(_number(value))}"
            for key, value in breakdown.items()
            if key not in documented
        ]
        self._set("detail-extra", "\n".join(extra), visible=bool(extra))

    @staticmethod
    def _meta_text(
        item: Analysis, known: KnownProject | None, previews: ImagePreviews | None
    ) -> str:
        project = clean(item.project_id) or DASH
        if known is not None and known.project is not None:
            project = f"{clean(known.project.name)} ({project})"
        lines = [
            f"Created    {local_time(item.created_at)}",
            f"Completed  {local_time(item.completed_at)}",
            f"Image      {clean(_image_address(item, previews)) or DASH}",
            f"ID         {clean(item.id) or DASH}",
            f"Project    {project}",
        ]
        return "\n".join(lines)


def _image_address(item: Analysis, previews: ImagePreviews | None) -> str:
    url = item.image_url or ""
    return previews.display_url(url) if previews is not None else url
